"""Record where TensorFlow 2.21 refuses a value, and what it returns at the edges of windows, for
tests/test_refusals_tf.py (issue #23; run by hand, never by CI).

    TF_ENABLE_ONEDNN_OPTS=0 /tmp/tfvenv/bin/python tests/record_tf_refusals.py   # writes tests/data/tf_refusals.json

Each case is a few lines run with ``tf`` (and ``np``) bound, leaving its answer in ``result``: a
tensor (recorded as value, shape and dtype), a string, or a list of them; or an exception (its
type's name and ``str(error)``).  The test runs the same lines with ``tf`` bound to minitape.

TF's filter gradient of a convolution whose output is empty is whatever memory it allocated (not
zeros), so the window cases record only its shape; the test checks minitape's is zeros.
"""
from __future__ import annotations

import json
import os
import pathlib
from typing import Any

import numpy as np

OUT = pathlib.Path(__file__).parent / "data" / "tf_refusals.json"

#: Python literals TF has no dtype for: ints beyond int64, floats beyond float32 (when inferred), bools among numbers.
CONSTANTS = {
    "int_2_63": "result = tf.constant(2**63)",
    "int_2_63_variable": "result = tf.Variable(2**63)",
    "int_2_63_int64": "result = tf.constant(2**63, dtype=tf.int64)",
    "int_2_63_int32": "result = tf.constant(2**63, dtype=tf.int32)",
    "int_2_63_float32": "result = tf.constant(2**63, dtype=tf.float32)",
    "int_2_64": "result = tf.constant(2**64)",
    "int_below_int64": "result = tf.constant(-2**63 - 1)",
    "int64_bounds": "result = tf.constant([2**63 - 1, -2**63])",
    "int_2_40_int32_wraps": "result = tf.constant(2**40, dtype=tf.int32)",
    "int_300_uint8_wraps": "result = tf.constant(300, dtype=tf.uint8)",
    "list_2_63": "result = tf.constant([1, 2**63])",
    "nested_2_63": "result = tf.constant([[1], [2**63]])",
    "list_2_63_float": "result = tf.constant([2**63, 1.5])",
    "list_2_63_float32": "result = tf.constant([1, 2**63], dtype=tf.float32)",
    "convert_2_63": "result = tf.convert_to_tensor(2**63)",
    "int64_plus_2_63": "result = tf.ones(2, tf.int64) + 2**63",
    "float_1e40": "result = tf.constant(1e40)",
    "float_minus_1e40": "result = tf.constant(-1e40)",
    "float_3_5e38": "result = tf.constant(3.5e38)",
    "float_3_4e38": "result = tf.constant(3.4e38)",
    "float_1e40_variable": "result = tf.Variable(1e40)",
    "float_1e40_nested": "result = tf.constant([[1.0], [-1e40]])",
    "float_1e40_with_int": "result = tf.constant([1, 1e40])",
    "float_1e40_float32": "result = tf.constant(1e40, dtype=tf.float32)",
    "float_1e40_float64": "result = tf.constant(1e40, dtype=tf.float64)",
    "float_1e40_numpy": "result = tf.constant(np.array(1e40))",
    "float_inf": "result = tf.constant([float('inf'), -float('inf')])",
    "float_times_1e40": "result = tf.ones(2) * 1e40",
    "bool_int": "result = tf.constant([True, 2])",
    "bool_float": "result = tf.constant([True, 2.0])",
    "bool_int_nested": "result = tf.constant([[True], [2]])",
    "bool_int_variable": "result = tf.Variable([True, 2])",
    "bool_int_int32": "result = tf.constant([True, 2], dtype=tf.int32)",
    "bools": "result = tf.constant([True, False])",
    "int_float": "result = tf.constant([1, 2.5])",
    "big_endian_float32": "result = tf.constant(np.array([1, 2], dtype='>f4'))",
    "big_endian_int32": "result = tf.constant(np.array([1, 2], dtype='>i4'))",
    "big_endian_int16": "result = tf.constant(np.array([300, -2], dtype='>i2'))",
    "big_endian_uint16": "result = tf.convert_to_tensor(np.array([1, 2], dtype='>u2'))",
    "big_endian_as_float64": "result = tf.constant(np.array([1, 2], dtype='>f4'), dtype=tf.float64)",
    "big_endian_variable": "v = tf.Variable(np.array([[1, 2]], dtype='>f8'))\nresult = [v.read_value(), v + 1.0]",
    "big_endian_operand": "result = [tf.ones(2) + np.array([1, 2], dtype='>f4'), tf.reduce_sum(np.array([1, 2], dtype='>i8'))]",
}

RANGES = {
    "up_backwards": "result = tf.range(5, 1)",
    "down": "result = tf.range(5, 1, -1)",
    "down_backwards": "result = tf.range(1, 5, -1)",
    "float_backwards": "result = tf.range(5.0, 1.5)",
    "float_down_backwards": "result = tf.range(1, 5, -1.5)",
    "negative_limit": "result = tf.range(-3)",
    "empty": "result = tf.range(3, 3)",
    "zero": "result = tf.range(0)",
    "delta_zero": "result = tf.range(1, 5, 0)",
    "delta_zero_backwards": "result = tf.range(5, 1, 0)",
    "dtype_float64_backwards": "result = tf.range(5, 1, dtype=tf.float64)",
}

_M = "m = tf.reshape(tf.range(6.0), (2, 3))\n"
DIAGONALS = {f"k_{k}".replace("-", "minus_"): f"{_M}result = tf.linalg.diag_part(m, k={k})"
             for k in (-3, -2, -1, 0, 1, 2, 3, 5)}
DIAGONALS.update({
    "tall_k_2": "result = tf.linalg.diag_part(tf.ones((3, 2)), k=2)",
    "tall_k_minus_2": "result = tf.linalg.diag_part(tf.ones((3, 2)), k=-2)",
    "batch_k_3": "result = tf.linalg.diag_part(tf.ones((4, 2, 3)), k=3)",
    "no_rows_k_0": "result = tf.linalg.diag_part(tf.zeros((0, 3)))",
    "no_rows_k_1": "result = tf.linalg.diag_part(tf.zeros((0, 3)), k=1)",
    "no_rows_k_5": "result = tf.linalg.diag_part(tf.zeros((0, 3)), k=5)",
    "no_columns_k_minus_1": "result = tf.linalg.diag_part(tf.zeros((2, 0)), k=-1)",
    "empty_k_0": "result = tf.linalg.diag_part(tf.zeros((0, 0)))",
})

#: ``scatter_div``: the variable's value after the call, and the error (type and text) or "ok"; indices are code.
_SCATTER = """
v = tf.Variable(np.array({value!r}, np.{dtype}))
try:
    v.scatter_div(tf.IndexedSlices(np.array({updates!r}, np.{dtype}), {indices}))
    outcome = ["ok"]
except Exception as error:
    outcome = [type(error).__name__, str(error)]
result = outcome + [v.read_value()]
"""
SCATTERS = {
    "float_by_zero": ([1.0, 2.0], [0.0], [0], "float32"),
    "float_rows_by_zero": ([[1.0, 2.0], [0.0, -1.0]], [[0.0, 0.0]], [0], "float32"),
    "float64_zero_by_zero": ([1.0, 0.0], [0.0], [1], "float64"),
    "float_one_zero_among": ([4.0, 2.0], [2.0, 0.0], [0, 1], "float32"),
    "int_by_zero": ([1, 2], [0], [0], "int32"),
    "int_rows_by_zero": ([[1, 2], [3, 4]], [[0, 1]], [0], "int32"),
    "int64_rows_by_zero": ([[1, 2], [3, 4]], [[2, 0]], [1], "int64"),
    "int_truncates": ([7, -7], [2, 2], [0, 1], "int32"),
    "float_divides": ([[1.0, 2.0], [3.0, 4.0]], [[2.0, 4.0]], [1], "float32"),
    "zero_and_bad_index": ([1.0, 2.0], [0.0], [5], "float32"),
    "bad_index": ([1.0, 2.0], [2.0], [5], "float32"),
    "by_zero_tensor_indices": ([1.0, 2.0], [0.0], "tf.constant([1])", "float32"),     # TF then prints "name: "
    "bad_tensor_index": ([1.0, 2.0], [2.0], "tf.constant([5])", "float32"),
}
SCATTER_CASES = {name: _SCATTER.format(value=value, updates=updates, indices=indices, dtype=dtype)
                 for name, (value, updates, indices, dtype) in SCATTERS.items()}

#: conv2d and the pools where a window does not fit or a size is 0: the output, the input's gradient of
#: its sum, and (conv2d) the shape of the filters' gradient.
_CONV = """
x = tf.reshape(tf.range({n}, dtype=tf.float32), {image})
w = tf.ones({filters})
with tf.GradientTape() as tape:
    tape.watch([x, w])
    y = tf.nn.conv2d(x, w, {strides}, {padding!r})
result = [y, *{gradients}]
"""
CONVS = {
    "no_channels": ((1, 4, 4, 0), (2, 2, 0, 3), 1, "VALID"),
    "no_channels_same": ((1, 4, 4, 0), (2, 2, 0, 3), 1, "SAME"),
    "filter_depth_0": ((1, 4, 4, 2), (2, 2, 0, 3), 1, "VALID"),
    "filter_height_0": ((1, 4, 4, 1), (0, 2, 1, 3), 1, "VALID"),
    "filter_height_0_same": ((1, 4, 4, 1), (0, 2, 1, 3), 1, "SAME"),
    "filter_width_0": ((1, 4, 4, 1), (2, 0, 1, 3), 1, "VALID"),
    "filter_height_0_empty_image": ((1, 0, 4, 1), (0, 2, 1, 3), 1, "SAME"),
    "no_out_channels": ((1, 4, 4, 1), (2, 2, 1, 0), 1, "VALID"),
    "empty_image": ((1, 0, 0, 1), (2, 2, 1, 3), 1, "VALID"),
    "empty_image_same": ((1, 0, 0, 1), (2, 2, 1, 3), 1, "SAME"),
    "no_rows": ((1, 0, 4, 1), (1, 1, 1, 3), 1, "VALID"),
    "empty_batch": ((0, 4, 4, 1), (2, 2, 1, 3), 1, "VALID"),
    "window_too_big": ((1, 2, 2, 1), (3, 3, 1, 1), 1, "VALID"),
    "window_too_big_stride_2": ((1, 2, 2, 1), (3, 3, 1, 1), 2, "VALID"),
    "window_much_too_big_stride_2": ((1, 2, 2, 1), (5, 5, 1, 1), 2, "VALID"),
    "window_too_big_by_2": ((1, 2, 2, 1), (4, 4, 1, 1), 1, "VALID"),
    "one_pixel_window_2": ((1, 1, 1, 1), (2, 2, 1, 1), 1, "VALID"),
    "explicit_too_big": ((1, 2, 2, 1), (4, 4, 1, 1), 1, [[0, 0], [1, 0], [0, 1], [0, 0]]),
}
#: TF's Conv2DBackpropFilter crashes (SIGSEGV) on an empty output with stride 2: those record the output only.
_GRADIENTS = "(lambda gx, gw: [gx, tf.shape(gw)])(*tape.gradient(y, [x, w]))"
CONV_CASES = {name: _CONV.format(n=int(np.prod(image)), image=image, filters=filters, strides=strides, padding=padding,
                                 gradients=_GRADIENTS if strides == 1 else "[]")
              for name, (image, filters, strides, padding) in CONVS.items()}

_POOL = """
x = tf.reshape(tf.range({n}, dtype=tf.float32), {image})
with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.nn.{pool}(x, {ksize}, {strides}, {padding!r})
result = [y, tape.gradient(y, x)]
"""
POOLS = {
    "window_too_big": ((1, 2, 2, 1), 3, 1, "VALID"),
    "window_too_big_stride_2": ((1, 2, 2, 1), 3, 2, "VALID"),
    "window_too_big_by_2": ((1, 2, 2, 1), 4, 1, "VALID"),
    "window_too_tall": ((1, 2, 5, 1), [3, 2], 1, "VALID"),
    "empty_image": ((1, 0, 0, 1), 2, 1, "VALID"),
    "empty_image_same": ((1, 0, 0, 1), 2, 1, "SAME"),
    "no_channels": ((1, 2, 2, 0), 1, 1, "VALID"),
    "empty_batch": ((0, 3, 3, 2), 2, 1, "VALID"),
}
POOL_CASES = {f"{pool}_{name}": _POOL.format(n=int(np.prod(image)), image=image, pool=pool, ksize=ksize,
                                             strides=strides, padding=padding)
              for pool in ("max_pool2d", "avg_pool2d") for name, (image, ksize, strides, padding) in POOLS.items()}

GROUPS = {"constants": CONSTANTS, "ranges": RANGES, "diagonals": DIAGONALS, "scatter_div": SCATTER_CASES,
          "conv2d": CONV_CASES, "pools": POOL_CASES}


def run(tf: Any, code: str) -> Any:
    """What ``code`` leaves in ``result``, as plain data, or the exception it raises."""
    namespace = {"tf": tf, "np": np}
    try:
        exec(code, namespace)
    except Exception as error:  # noqa: BLE001 (the exception is the record)
        return {"error": type(error).__name__, "text": str(error)}
    return plain(namespace["result"])


def plain(value: Any) -> Any:
    """A result as JSON: tensors as ``{"value", "shape", "dtype"}``, strings as they are, lists item by item."""
    if isinstance(value, str):
        return value
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    array = value.numpy()
    return {"value": array.tolist(), "shape": list(array.shape), "dtype": value.dtype.name}


def record(groups: dict[str, dict[str, str]], out: pathlib.Path) -> None:
    """Run every case of ``groups`` with TensorFlow and write the answers, by group and name, to ``out``."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf
    records = {group: {name: run(tf, code) for name, code in cases.items()} for group, cases in groups.items()}
    out.write_text(json.dumps(records, indent=1, sort_keys=True) + "\n")
    print(f"wrote {out}: {sum(len(r) for r in records.values())} records")


def main() -> None:
    record(GROUPS, OUT)


if __name__ == "__main__":
    main()
