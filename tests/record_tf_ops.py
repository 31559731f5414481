"""Record what TensorFlow 2.21 answers for ops' corners (issue #23), for tests/test_ops_tf.py (run by hand, never by CI).

    TF_ENABLE_ONEDNN_OPTS=0 /tmp/tfvenv/bin/python tests/record_tf_ops.py   # writes tests/data/tf_ops.json

As in ``record_tf_corners.py`` (whose ``run`` and ``plain`` this reuses), each case is a few lines
run with ``tf`` bound to the library under test, leaving its answer in ``result``; an exception is
recorded as its type's name and text.  The groups:

* ``upstream_zero`` and ``upstream_one``: the derivative of a gradient with respect to the factor
  ``c`` its upstream gradient carries, at ``c = 0`` and ``c = 1`` (sqrt's gradient is 0 where its
  upstream gradient is, but its derivative with respect to that gradient is not);
* ``gather``: ``validate_indices`` is the third positional argument; ``axis=None``; ``batch_dims``;
* ``operators``: ``== None``, ``!= None``, and ``&``, ``|``, ``^``, ``~`` on booleans and integers;
* ``labels``: ``softmax_cross_entropy_with_logits`` casts integer labels to the logits' dtype.
"""
from __future__ import annotations

import json
import os
import pathlib

from record_tf_corners import run

OUT = pathlib.Path(__file__).parent / "data" / "tf_ops.json"

NESTED = """
x = tf.constant([3.0, 4.0])
v = tf.constant([0.5, 2.0])
with tf.GradientTape(persistent=True) as outer:
    outer.watch([c, x])
    with tf.GradientTape() as inner:
        inner.watch(x)
        y = c * tf.reduce_sum({expression})
    dx = inner.gradient(y, x)
result = [dx, outer.gradient(dx, c), outer.gradient(dx, x)]
"""
THROUGH_SQRT = {
    "sqrt": "tf.sqrt(x)",
    "sqrt_at_zero": "tf.sqrt(x * [1.0, 0.0])",
    "norm": "tf.norm(x)",
    "norm_axis": "tf.norm(tf.reshape(x, [1, 2]), axis=1)",
    "clip_by_norm_clipped": "tf.clip_by_norm(x, 1.0)",
    "clip_by_norm_unclipped": "tf.clip_by_norm(x, 10.0)",
    "global_norm": "tf.linalg.global_norm([x, 2.0 * x])",
    "clip_by_global_norm": "tf.clip_by_global_norm([x, v], 1.0)[0][0]",
    "batch_normalization": "tf.nn.batch_normalization(v, 1.0, x, 0.5, 2.0, 1e-3)",
}

GATHER_SETUP = """
params = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
cube = tf.reshape(tf.range(24.0), [2, 3, 4])
"""
GATHER = {
    "third_positional_is_validate_indices": "result = tf.gather(params, [1, 0], 1)",
    "axis_none": "result = tf.gather(params, [1, 0], axis=None)",
    "axis_keyword": "result = tf.gather(params, [2, 0], axis=1)",
    "all_positional": "result = tf.gather(params, [2, 0], None, 1, 0)",
    "batch_dims": "result = tf.gather(params, [[2, 0], [1, 1]], batch_dims=1)",
    "batch_dims_negative": "result = tf.gather(params, [[2, 0], [1, 1]], batch_dims=-1)",
    "batch_dims_axis": "result = tf.gather(cube, [[0, 3], [1, 1]], axis=2, batch_dims=1)",
    "batch_dims_negative_axis": "result = tf.gather(cube, [[0, 3], [1, 1]], axis=-1, batch_dims=1)",
    "batch_dims_two": "result = tf.gather(cube, [[[0], [3], [2]], [[1], [1], [0]]], batch_dims=2)",
    "batch_dims_scalar_per_row": "result = tf.gather(params, [2, 0], batch_dims=1)",
    "batch_dims_gradient": "w = tf.constant([[[1.0, 2.0]] * 3, [[3.0, 4.0]] * 3])\n"
                           "with tf.GradientTape() as t:\n    t.watch(cube)\n"
                           "    y = tf.reduce_sum(w * tf.gather(cube, [[0, 3], [1, 1]], axis=2, batch_dims=1))\n"
                           "result = tf.convert_to_tensor(t.gradient(y, cube))",
    "batch_dims_above_rank": "result = tf.gather(params, [[2, 0], [1, 1]], batch_dims=3)",
    "batch_dims_above_axis": "result = tf.gather(cube, [[0], [1]], axis=0, batch_dims=1)",
    "batch_dims_mismatch": "result = tf.gather(params, [[0], [1], [0]], batch_dims=1)",
    "batch_dims_out_of_range": "result = tf.gather(params, [[2, 3], [1, 1]], batch_dims=1)",
}

OPERATOR_SETUP = """
x = tf.constant([0.5, 2.0, -1.0])
a = tf.constant([6, 3])
b = tf.constant([3, 5])
"""
OPERATORS = {
    "eq_none": "result = x == None",
    "ne_none": "result = x != None",
    "none_eq": "result = None == x",
    "eq_tensor": "result = x == tf.constant([0.5, 1.0, -1.0])",
    "eq_shapes_apart": "result = x == [0.5, 2.0]",
    "ne_shapes_apart": "result = x != tf.constant([[0.5], [2.0]]) * tf.ones([2, 2])",
    "eq_broadcast": "result = x == [[0.5], [2.0]]",
    "eq_dtypes_apart": "result = x == tf.constant([1, 2, 3])",
    "variable_eq_none": "result = tf.Variable([1.0]) == None",
    "variable_ne_shapes_apart": "result = tf.Variable([1.0, 2.0]) != x",
    "and_bool": "result = (x > 0) & (x < 1)",
    "or_bool": "result = (x > 0) | (x < 1)",
    "xor_bool": "result = (x > 0) ^ (x < 1)",
    "invert_bool": "result = ~(x > 0)",
    "and_python_bool": "result = True & (x > 0)",
    "or_python_bool": "result = (x > 0) | False",
    "xor_list": "result = (x > 0) ^ [True, True, False]",
    "and_int": "result = a & b",
    "or_int": "result = a | b",
    "xor_int": "result = a ^ b",
    "invert_int": "result = ~a",
    "rand_int": "result = 3 & a",
    "ror_int": "result = 8 | a",
    "xor_uint8": "result = tf.constant([200, 7], tf.uint8) ^ tf.constant([255, 1], tf.uint8)",
    "invert_uint8": "result = ~tf.constant([200, 0], tf.uint8)",
    "invert_int64": "result = ~tf.constant([0, 5], tf.int64)",
    "and_float": "result = x & x",
    "invert_float": "result = ~x",
    "and_bool_int": "result = (x > 0) & a",
    "and_int32_int64": "result = a & tf.constant([1, 2], tf.int64)",
}

LABELS_SETUP = """
logits = tf.constant([[1.0, 2.0, 0.5], [0.5, -1.0, 3.0]])
"""
LABELS = {
    "int32": "result = tf.nn.softmax_cross_entropy_with_logits(labels=[[0, 1, 0], [1, 0, 1]], logits=logits)",
    "int64": "result = tf.nn.softmax_cross_entropy_with_logits(tf.constant([[0, 1, 0], [2, 0, 1]], tf.int64), "
             "logits)",
    "float64_logits": "result = tf.nn.softmax_cross_entropy_with_logits([[0, 1, 0]], tf.cast(logits[:1], "
                      "tf.float64))",
    "float64_labels": "result = tf.nn.softmax_cross_entropy_with_logits(tf.constant([[0.0, 1.0, 0.0]], tf.float64), "
                      "logits[:1])",
    "bool_labels": "result = tf.nn.softmax_cross_entropy_with_logits([[False, True, False]], logits[:1])",
    "float_list_float64_logits": "result = tf.nn.softmax_cross_entropy_with_logits([[0.1, 0.9, 0.0]], "
                                 "tf.cast(logits[:1], tf.float64))",
    "int_logits": "result = tf.nn.softmax_cross_entropy_with_logits([[0.0, 1.0]], [[1, 2]])",
    "axis": "result = tf.nn.softmax_cross_entropy_with_logits([[0, 1], [1, 0], [0, 0]], logits, axis=0)",
    "gradient": "labels = tf.constant([[0, 1, 0], [1, 0, 0]])\n"
                "with tf.GradientTape() as t:\n    t.watch(logits)\n"
                "    y = tf.nn.softmax_cross_entropy_with_logits(labels, logits)\n"
                "result = t.gradient(y, logits)",
}

GROUPS = {
    "upstream_zero": ("c = tf.constant(0.0)\n", {k: NESTED.format(expression=e) for k, e in THROUGH_SQRT.items()}),
    "upstream_one": ("c = tf.constant(1.0)\n", {k: NESTED.format(expression=e) for k, e in THROUGH_SQRT.items()}),
    "gather": (GATHER_SETUP, GATHER),
    "operators": (OPERATOR_SETUP, OPERATORS),
    "labels": (LABELS_SETUP, LABELS),
}


def main() -> None:
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf
    records = {group: {name: run(tf, setup, code) for name, code in cases.items()}
               for group, (setup, cases) in GROUPS.items()}
    OUT.write_text(json.dumps(records, indent=1, sort_keys=True) + "\n")
    print(f"wrote {OUT}: {sum(len(r) for r in records.values())} records")


if __name__ == "__main__":
    main()
