"""Record what TensorFlow 2.21 answers at the tape's corners, for tests/test_corners_tf.py (run by hand, never by CI).

    TF_ENABLE_ONEDNN_OPTS=0 /tmp/tfvenv/bin/python tests/record_tf_corners.py   # writes tests/data/tf_corners.json

oneDNN is turned off so that the CPU kernels carry their plain names: with it, a float32
``matmul`` reports ``_MklMatMul`` where every other build says ``MatMul``.

Each case is a few lines of code run with ``tf`` bound to the library under test, leaving its
answer in ``result``: a tensor, None, or a list or dict of them (recorded as values, dtype and
None), or an exception (recorded as its type's name and ``str(error)``).  The test runs the same
lines with ``tf`` bound to minitape and compares.
"""
from __future__ import annotations

import json
import os
import pathlib
from typing import Any

OUT = pathlib.Path(__file__).parent / "data" / "tf_corners.json"

WATCHED = """
x = tf.constant([1.0, -2.0, 0.0, 3.0])
c = tf.constant(5.0)
v0, v1 = tf.Variable(2.0), tf.Variable(3.0)
"""

# 1. A target that is also a source: its gradient is ones (its seed), watched or not; other sources stay None.
TARGETS = {
    "variable_itself": "with tf.GradientTape() as t:\n    r = v0\nresult = t.gradient(r, [v0, v1])",
    "variable_read": "with tf.GradientTape() as t:\n    r = v0.read_value()\nresult = t.gradient(r, [v0, v1])",
    "variable_unwatched": "with tf.GradientTape(watch_accessed_variables=False) as t:\n    pass\n"
                          "result = t.gradient(v0, [v0, v1])",
    "tensor_itself": "with tf.GradientTape() as t:\n    t.watch([x, c])\nresult = t.gradient(x, [x, c])",
    "tensor_unwatched": "with tf.GradientTape() as t:\n    t.watch(x)\nresult = t.gradient(c, [x, c])",
    "tensor_zero": "with tf.GradientTape() as t:\n    t.watch(x)\n"
                   "result = t.gradient(x, [x, c], unconnected_gradients='zero')",
    "seeded": "with tf.GradientTape() as t:\n    t.watch(x)\n"
              "result = t.gradient(x, x, output_gradients=tf.constant([3.0, 4.0, 5.0, 6.0]))",
    "twice": "with tf.GradientTape() as t:\n    t.watch(x)\n    y = [x, x * 2.0]\nresult = t.gradient(y, x)",
    "both_ways": "with tf.GradientTape() as t:\n    t.watch(x)\n    y = x * 1.0\nresult = t.gradient([x, y], [x, y])",
    "jacobian": "with tf.GradientTape() as t:\n    t.watch(x)\nresult = t.jacobian(x, x)",
    "batch_jacobian": "m = tf.constant([[1.0, 2.0], [3.0, 4.0]])\nwith tf.GradientTape() as t:\n    t.watch(m)\n"
                      "result = t.batch_jacobian(m, m)",
    # ... but a jacobian of an unwatched target with respect to itself is None, a batch_jacobian zeros
    "jacobian_unwatched": "with tf.GradientTape() as t:\n    pass\nresult = t.jacobian(x, x)",
    "batch_jacobian_unwatched": "m = tf.constant([[1.0, 2.0], [3.0, 4.0]])\nwith tf.GradientTape() as t:\n    pass\n"
                                "result = t.batch_jacobian(m, m)",
    "jacobian_variable_unread": "with tf.GradientTape() as t:\n    pass\nresult = t.jacobian(v0, v0)",
    "reset_after_exit": "with tf.GradientTape() as t:\n    pass\nt.reset()\nresult = None",
    # relu's (and relu6's) gradient multiplies the upstream by its mask: inf there times 0 is nan, -2 times 0 is -0
    "relu_gradient_multiplies": "with tf.GradientTape() as t:\n    t.watch(x)\n    y = tf.nn.relu(x)\n"
                                "result = t.gradient(y, x, output_gradients=tf.constant([float('inf'), "
                                "float('inf'), -2.0, float('nan')]))",
    "relu6_gradient_multiplies": "with tf.GradientTape() as t:\n    t.watch(x)\n    y = tf.nn.relu6(x * 3.0)\n"
                                 "result = t.gradient(y, x, output_gradients=tf.constant([float('inf'), "
                                 "float('inf'), -float('inf'), 1.0]))",
    # 2. watched_variables after a non-persistent tape's gradient
    "watched_after_gradient": "with tf.GradientTape() as t:\n    y = v0 * v1\nt.gradient(y, v0)\n"
                              "result = [w.read_value() for w in t.watched_variables()]",
}

#: 3. Second derivatives: the gradient of the gradient (None, or zeros, or values), for each op minitape has.
SECOND = {
    "relu": "tf.nn.relu(x)", "relu_times_x": "tf.nn.relu(x) * x", "relu_of_square": "tf.nn.relu(x * x - 1.0)",
    "abs": "tf.abs(x)", "abs_operator": "abs(x)", "abs_times_x": "tf.abs(x) * x", "sign": "tf.sign(x)",
    "negative": "-x", "maximum": "tf.maximum(x, 0.5)", "minimum": "tf.minimum(x, 0.5)",
    "maximum_of_two": "tf.maximum(x, 2.0 - x)", "clip_by_value": "tf.clip_by_value(x, -1.0, 1.0)",
    "where": "tf.where(x > 0, x, 0.0)", "where_both": "tf.where(x > 0, x, -x)", "square": "tf.square(x)",
    "add": "x + 1.0", "multiply": "x * 3.0", "divide": "x / 2.0", "divide_by_x": "1.0 / (x + 3.0)",
    "pow": "tf.pow(x, 2.0)", "pow_of_x": "tf.pow(2.0, x)", "mod": "x % 1.0", "mod_by_x": "7.0 % (x + 3.0)",
    "floordiv": "x // 1.0", "identity": "tf.identity(x)", "stop_gradient": "tf.stop_gradient(x)",
    "cast": "tf.cast(x, tf.float64)", "reshape": "tf.reshape(x, (2, 2))", "slice": "x[1:3]",
    "concat": "tf.concat([x, x], 0)", "tile": "tf.tile(x, [2])", "reduce_sum": "tf.reduce_sum(x)",
    "reduce_mean": "tf.reduce_mean(x)", "reduce_max": "tf.reduce_max(x)", "reduce_min": "tf.reduce_min(x)",
    "sigmoid": "tf.sigmoid(x)", "tanh": "tf.tanh(x)", "softplus": "tf.math.softplus(x)", "exp": "tf.exp(x)",
    "sin": "tf.sin(x)", "cos": "tf.cos(x)", "sqrt": "tf.sqrt(x * x + 1.0)", "log": "tf.math.log(x * x + 1.0)",
    "softmax": "tf.nn.softmax(x)", "log_softmax": "tf.nn.log_softmax(x)",
    "matmul": "tf.matmul(tf.reshape(x, (2, 2)), tf.ones((2, 2)))", "einsum": "tf.einsum('i,i->', x, x)",
    "max_pool": "tf.nn.max_pool2d(tf.reshape(x, (1, 2, 2, 1)), 2, 1, 'VALID')",
    "avg_pool": "tf.nn.avg_pool2d(tf.reshape(x, (1, 2, 2, 1)), 2, 1, 'VALID')",
    "conv2d": "tf.nn.conv2d(tf.reshape(x, (1, 2, 2, 1)), tf.ones((2, 2, 1, 1)), 1, 'VALID')",
    "cross_entropy": "tf.nn.softmax_cross_entropy_with_logits(labels=[[0.0, 1.0, 0.0, 0.0]], "
                     "logits=tf.reshape(x, (1, 4)))",
    "sparse_cross_entropy": "tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[1], logits=tf.reshape(x, (1, 4)))",
}
SECOND_TEMPLATE = """
with tf.GradientTape() as outer:
    outer.watch(x)
    with tf.GradientTape() as inner:
        inner.watch(x)
        y = {expression}
    g = inner.gradient(y, x)
result = None if g is None else outer.gradient(g, x)
"""

# 4.-6. and 8. Errors: TF's type and text; and sliced assignment.
TAPE = """
X = tf.constant([1.0, 2.0])
M = tf.ones((2, 3))
with tf.GradientTape(persistent=True) as t:
    t.watch([X, M])
    Y = X * X
    N = M * 2.0
"""
ERRORS = {
    "batch_jacobian_target": "result = t.batch_jacobian(Y, X)",
    "batch_jacobian_source": "result = t.batch_jacobian(N, tf.ones(2))",
    "batch_jacobian_batch": "result = t.batch_jacobian(N, tf.ones((3, 2)))",
    "unconnected_nonsense": "result = t.gradient(Y, X, unconnected_gradients='nonsense')",
    "unconnected_int": "result = t.gradient(Y, X, unconnected_gradients=3)",
    "unconnected_upper": "result = t.gradient(Y, X, unconnected_gradients='ZERO')",
    "unconnected_enum": "result = tf.UnconnectedGradients('nonsense')",
    "assign_shape": "result = tf.Variable([1.0, 2.0], name='v').assign([1.0, 2.0, 3.0])",
    "assign_shape_matrix": "result = tf.Variable(tf.ones((2, 3)), name='m').assign(tf.ones((3, 2, 1)))",
    "assign_shape_scalar": "result = tf.Variable(1.0).assign([1.0, 2.0])",
    "assign_add_shape": "result = tf.Variable(tf.ones((2, 3)), name='m').assign_add(tf.ones((3, 2)))",
    "assign_sub_shape": "result = tf.Variable([1.0, 2.0]).assign_sub(1.0)",
    "assign_float_into_int": "result = tf.Variable([1, 2]).assign([1.5, 2.0])",
    "add_operator": "result = tf.ones(2) + tf.ones(2, tf.float64)",
    "add_named": "result = tf.add(tf.ones(2), tf.ones(2, tf.float64), name='sum')",
    "clip_by_value_min": "result = tf.clip_by_value(tf.ones(2), tf.constant(0.0, tf.float64), 1.0)",
    "clip_by_value_max": "result = tf.clip_by_value(tf.ones(2), 0.0, tf.constant(1))",
    "concat_three": "result = tf.concat([tf.ones(2), tf.ones(2), tf.ones(2, tf.int32)], 0)",
    "stack_three": "result = tf.stack([tf.ones(2), tf.ones(2), tf.ones(2, tf.int32)])",
    "where_x": "result = tf.where([True, False], tf.ones(2, tf.float64), tf.ones(2))",
    "matmul_operator": "result = tf.ones((2, 2)) @ tf.ones((2, 2), tf.float64)",
    "conv2d": "result = tf.nn.conv2d(tf.ones((1, 2, 2, 1)), tf.ones((1, 1, 1, 1), tf.float64), 1, 'VALID')",
    "mod_operator": "result = tf.ones(2) % tf.ones(2, tf.float16)",
    "pow_int_float": "result = tf.pow(tf.constant([2]), tf.constant([2.0]))",
    "divide_operator": "result = tf.ones(2) / tf.ones(2, tf.int32)",
}
#: Each binary op with two dtypes, as tests/test_bad_input.py's ``mixed_dtypes`` draws them.
MIXED_OPS = ["add", "subtract", "multiply", "divide", "maximum", "minimum", "pow", "math.floordiv", "math.floormod",
             "less", "less_equal", "greater", "greater_equal", "equal", "not_equal", "matmul"]
MIXED_PAIRS = [("float32", "float64"), ("float64", "float32"), ("float32", "int32"), ("int32", "float32"),
               ("int32", "int64"), ("float16", "float32"), ("float64", "int64")]
for _op in MIXED_OPS:
    for _a, _b in MIXED_PAIRS:
        ERRORS[f"mixed {_op} {_a} {_b}"] = f"result = tf.{_op}(tf.ones((2, 2), tf.{_a}), tf.ones((2, 2), tf.{_b}))"
for _a, _b in MIXED_PAIRS:
    ERRORS[f"mixed where {_a} {_b}"] = f"result = tf.where([True, False], tf.ones(2, tf.{_a}), tf.ones(2, tf.{_b}))"

SLICES = """
v = tf.Variable([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], name="v")
before, row = v.read_value(), v[1]
"""
SLICED = {
    "element": "r = v[0, 1].assign(9.0)\nresult = [r.read_value(), before, row, v.read_value()]",
    "all": "r = v[:].assign(tf.zeros((2, 3)))\nresult = [r.read_value(), before, row]",
    "row": "v[1].assign([7.0, 8.0, 9.0])\nresult = [v.read_value(), row]",
    "row_scalar": "v[1].assign(1.0)\nresult = v.read_value()",
    "row_ints": "v[1].assign([1, 2, 3])\nresult = v.read_value()",
    "columns": "v[:, 1:].assign([[10.0, 20.0], [30.0, 40.0]])\nresult = v.read_value()",
    "ellipsis": "v[..., 0].assign([5.0, 6.0])\nresult = v.read_value()",
    "reversed": "v[::-1].assign([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])\nresult = v.read_value()",
    "newaxis": "v[None].assign([[[1.0, 1.0, 1.0], [2.0, 2.0, 2.0]]])\nresult = v.read_value()",
    "broadcast": "v[0:2].assign([0.5, 1.5, 2.5])\nresult = v.read_value()",
    "variable_value": "v[0].assign(tf.Variable([1.0, 1.0, 1.0]))\nresult = v.read_value()",
    "later_assign": "r = v[0].assign([10.0, 20.0, 30.0])\nv.assign(tf.zeros((2, 3)))\nresult = [r.read_value(), row]",
    "own_value": "s = v[0]\ns.assign([3.0, 3.0, 3.0])\nresult = [s, v.read_value()]",
    "scalar_variable": "w = tf.Variable(1.0)\nw[...].assign(3.0)\nresult = w.read_value()",
    "int_variable": "w = tf.Variable([1, 2, 3])\nw[1].assign(7)\nresult = w.read_value()",
    "gradient": "w = tf.Variable([1.0, 2.0])\nwith tf.GradientTape() as t:\n    r = w[0].assign(5.0)\n"
                "    y = r * 3.0\nresult = [t.gradient(y, w), y]",
    "has_assign": "result = [hasattr(v[0], 'assign'), hasattr(v[0], 'assign_add'), hasattr(v.read_value()[0], 'assign'),"
                  " hasattr(v[0][1], 'assign'), hasattr(tf.constant([1.0])[0], 'assign')]",
    "error_shape": "result = v[1].assign([1.0, 2.0])",
    "error_shape_2d": "result = v[:, :2].assign(tf.ones((3, 3)))",
    "error_dtype": "result = v[1].assign(tf.ones(3, tf.float64))",
    "error_int_tensor": "result = v[1].assign(tf.constant([1, 2, 3]))",
    "error_float_into_int": "result = tf.Variable([1, 2, 3])[1].assign(7.5)",
    "error_none": "result = v[0].assign(None)",
    "error_assign_add": "result = v[0].assign_add([1.0, 1.0, 1.0])",
    "error_read_value": "result = v[0].assign([1.0, 2.0, 3.0], read_value=False)",
}

#: 7. ``custom_gradient`` on a method: ``self`` is bound, not an input.
CUSTOM = """
class Scaled:
    def __init__(self):
        self.k = 3.0
        self.v = tf.Variable(2.0)

    @tf.custom_gradient
    def two(self, x, y):
        return x * self.k + y * 2.0, lambda dy: (dy * self.k, dy * 2.0)

    @tf.custom_gradient
    def reads(self, x):
        return x * self.v, lambda dy, variables=None: (dy * self.v, [dy * x])

s = Scaled()
x, y = tf.constant(1.0), tf.constant(2.0)
"""
METHODS = {
    "two_inputs": "with tf.GradientTape() as t:\n    t.watch([x, y])\n    z = s.two(x, y)\nresult = [z, t.gradient(z, [x, y])]",
    "with_variable": "with tf.GradientTape() as t:\n    t.watch(x)\n    z = s.reads(x)\nresult = t.gradient(z, [x, s.v])",
    "through_class": "result = Scaled.two(s, x, y)",
}

GROUPS = {"targets": (WATCHED, TARGETS), "second": (WATCHED, {k: SECOND_TEMPLATE.format(expression=e)
                                                                for k, e in SECOND.items()}),
          "errors": (TAPE, ERRORS), "sliced": (SLICES, SLICED), "methods": (CUSTOM, METHODS)}


def run(tf: Any, setup: str, code: str) -> Any:
    """What ``code`` leaves in ``result`` after ``setup``, as plain data, or the exception it raises."""
    namespace = {"tf": tf}
    try:
        exec(setup + code, namespace)
    except Exception as error:  # noqa: BLE001 (the exception is the record)
        return {"error": type(error).__name__, "text": str(error)}
    return plain(namespace["result"])


def plain(value: Any) -> Any:
    """A result as JSON: tensors as ``{"value", "dtype"}``, lists and dicts item by item."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return {"value": value.numpy().tolist(), "dtype": value.dtype.name}


def main() -> None:
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf
    records = {group: {name: run(tf, setup, code) for name, code in cases.items()}
               for group, (setup, cases) in GROUPS.items()}
    OUT.write_text(json.dumps(records, indent=1, sort_keys=True) + "\n")
    print(f"wrote {OUT}: {sum(len(r) for r in records.values())} records")


if __name__ == "__main__":
    main()
