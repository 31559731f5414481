"""Record what TensorFlow 2.21 answers for sorting, segment sums, cumprod, round and eager control flow,
for tests/test_sorting_control_tf.py (issue #25; run by hand, never by CI).

    TF_ENABLE_ONEDNN_OPTS=0 /tmp/tfvenv/bin/python tests/record_tf_sorting_control.py   # writes tests/data/tf_sorting_control.json

Each case is a few lines run with ``tf`` (and ``np``) bound, leaving its answer in ``result``: a tensor
(value, shape, dtype), None, a plain value, or a list of them; or an exception (type and ``str(error)``).
``grad(f, x)`` gives the value of ``f(x)`` and the gradient of its sum weighted by 1, 2, 3... with respect
to ``x`` (None where TF has none).
"""
from __future__ import annotations

import json
import os
import pathlib
from typing import Any

import numpy as np

OUT = pathlib.Path(__file__).parent / "data" / "tf_sorting_control.json"

PRELUDE = """
x = tf.constant([[3., 1., 2., 1.], [1., 5., 5., -2.]])
v = tf.constant([1., 2., 3.])
def grad(f, a):
    a = tf.constant(a, tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(a)
        y = f(a)
        w = tf.reshape(tf.range(1, tf.size(y) + 1, dtype=y.dtype), tf.shape(y))
        loss = tf.reduce_sum(y * w)
    return [y, tape.gradient(loss, a)]
"""

SORTING = {
    "top_k": "result = list(tf.math.top_k(x, 2))",
    "top_k_type": "result = type(tf.math.top_k(x)).__name__",
    "top_k_fields": "result = list(tf.math.top_k(x)._fields)",
    "top_k_int64": "result = list(tf.math.top_k(x, k=tf.constant(3), index_type=tf.int64))",
    "top_k_ints": "result = list(tf.math.top_k([1, 2, 3], 2))",
    "top_k_zero": "result = list(tf.math.top_k(x, 0))",
    "top_k_nan": "result = list(tf.math.top_k([np.nan, 1.0, -np.inf, 3.0], 4))",
    "top_k_grad": "result = grad(lambda a: tf.math.top_k(a, 3).values, [[3., 1., 2., 1.], [1., 5., 5., -2.]])",
    "top_k_too_many": "result = tf.math.top_k(x, 5)",
    "top_k_negative": "result = tf.math.top_k(x, -1)",
    "top_k_scalar": "result = tf.math.top_k(tf.constant(3.0), 1)",
    "top_k_list_k": "result = tf.math.top_k(x, [2])",
    "top_k_float_k": "result = tf.math.top_k(x, 2.0)",
    "top_k_bool": "result = tf.math.top_k([True, False], 1)",
    "sort": "result = tf.sort(x)",
    "sort_descending_axis_0": "result = tf.sort(x, axis=0, direction='DESCENDING')",
    "sort_3d_axis_1": "result = tf.sort(tf.reshape(tf.range(24.0) % 5, (2, 3, 4)), axis=1)",
    "sort_nan": "result = [tf.sort([np.nan, 1.0, -np.inf, 3.0]), tf.sort([np.nan, 1.0, -np.inf, 3.0], direction='DESCENDING')]",
    "sort_int_min": "result = tf.sort(tf.constant([-2**31, 5, 0], tf.int32))",
    "sort_uint8": "result = [tf.sort(tf.constant([3, 1], tf.uint8)), tf.sort(tf.constant([3, 1], tf.uint8), direction='DESCENDING')]",
    "sort_empty": "result = tf.sort(tf.ones((2, 0)))",
    "sort_grad": "result = grad(lambda a: tf.sort(a, axis=0), [[3., 1., 2.], [1., 5., 5.], [0., -1., 7.]])",
    "sort_grad_descending": "result = grad(lambda a: tf.sort(a, direction='DESCENDING'), [[3., 1., 2.], [1., 5., 5.]])",
    "sort_bad_direction": "result = tf.sort(x, direction='down')",
    "sort_axis_out_of_range": "result = tf.sort(x, axis=2)",
    "sort_negative_axis_out_of_range": "result = tf.sort(x, axis=-3)",
    "sort_scalar": "result = tf.sort(tf.constant(3.0))",
    "sort_list_axis": "result = tf.sort(x, axis=[0])",
    "sort_bool": "result = tf.sort([True, False])",
    "argsort": "result = tf.argsort(x)",
    "argsort_descending_stable": "result = tf.argsort(x, direction='DESCENDING', stable=True)",
    "argsort_ties": "result = [tf.argsort([1, 1, 1, 0]), tf.argsort([1, 1, 1, 0], direction='DESCENDING')]",
    "argsort_nan": "result = tf.argsort([np.nan, 1.0, -np.inf, 3.0])",
    "argsort_signed_zeros": "result = tf.argsort([0.0, -0.0, 0.0])",
    "argsort_axis_0": "result = tf.argsort([[1., 1.], [0., 1.]], axis=0)",
    "argsort_bad_direction": "result = tf.argsort(x, direction='x')",
    "argsort_axis_out_of_range": "result = tf.argsort(v, axis=-2)",
}

ROUNDING = {
    "round_halves": "result = tf.round([0.5, 1.5, 2.5, -0.5, -1.5, 2.4, -2.6])",
    "round_float64": "result = tf.round(tf.constant([2.5, 3.5], tf.float64))",
    "round_ints": "result = [tf.round([1, 2]), tf.round(tf.constant([2], tf.uint8))]",
    "round_math": "result = tf.math.round(tf.constant([0.5, -3.5], tf.float16))",
    "round_grad": "result = grad(tf.round, [0.3, 1.7])",
    "round_bool": "result = tf.round([True])",
    "cumprod": "result = tf.math.cumprod([1., 2., 3.])",
    "cumprod_exclusive_reverse": "result = [tf.math.cumprod([1., 2., 3.], exclusive=e, reverse=r) for e in (False, True) for r in (False, True)]",
    "cumsum_exclusive_reverse": "result = [tf.cumsum([1., 2., 3.], exclusive=e, reverse=r) for e in (False, True) for r in (False, True)]",
    "cumprod_ints": "result = tf.math.cumprod([1, 2, 3])",
    "cumprod_axis_1": "result = tf.math.cumprod([[1., 0., 2.], [3., 4., 0.5]], axis=1)",
    "cumprod_grad": "result = grad(lambda a: tf.math.cumprod(a, axis=1), [[1.5, 2., -1.], [3., 0.5, 2.]])",
    "cumprod_grad_exclusive_reverse": "result = grad(lambda a: tf.math.cumprod(a, exclusive=True, reverse=True), [1.5, 2., -1., 0.7])",
    "cumprod_bad_axis": "result = tf.math.cumprod([1., 2., 3.], axis=1)",
    "cumprod_list_axis": "result = tf.math.cumprod([1., 2.], axis=[0])",
    "cumprod_bool": "result = tf.math.cumprod([True])",
}
#: TF's cumprod gradient divides by x (``div_no_nan``): where x holds a 0 it is 0, which is wrong.  Recorded to
#: show it; the test checks minitape's exact value there instead.
ZERO_GRADIENTS = {
    "cumprod_grad_with_zero": "result = grad(tf.math.cumprod, [2., 0., 3., 4.])",
}

SEGMENTS = {
    "segment_sum": "result = tf.math.segment_sum([1., 2., 3., 4.], [0, 0, 2, 2])",
    "segment_sum_rows": "result = tf.math.segment_sum([[1., 2.], [3., 4.]], [1, 1])",
    "segment_sum_ints": "result = tf.math.segment_sum([1, 2], [0, 0])",
    "segment_sum_empty": "result = tf.math.segment_sum(tf.ones((0,)), tf.zeros((0,), tf.int32))",
    "segment_sum_grad": "result = grad(lambda a: tf.math.segment_sum(a, [0, 0, 1, 3]), [[1., 2.], [3., 4.], [5., 6.], [7., 8.]])",
    "segment_sum_not_sorted": "result = tf.math.segment_sum([1., 2., 3., 4.], [0, 2, 1, 2])",
    "segment_sum_negative": "result = tf.math.segment_sum([1., 2., 3., 4.], [-1, 0, 1, 2])",
    "segment_sum_all_negative": "result = tf.math.segment_sum([1., 2.], [2, -1])",
    "segment_sum_too_few_ids": "result = tf.math.segment_sum([1., 2., 3., 4.], [0, 0, 1])",
    "segment_sum_matrix_ids": "result = tf.math.segment_sum([1., 2.], [[0, 0]])",
    "segment_sum_float_ids": "result = tf.math.segment_sum([1., 2.], [0.0, 0.0])",
    "unsorted_segment_sum": "result = tf.math.unsorted_segment_sum([1., 2., 3., 4.], [0, 2, 1, 2], 4)",
    "unsorted_segment_sum_negative_id": "result = tf.math.unsorted_segment_sum([1., 2., 3., 4.], [0, 2, -1, 2], 3)",
    "unsorted_segment_sum_matrix_ids": "result = tf.math.unsorted_segment_sum([[1., 2.], [3., 4.]], [[0, 1], [1, 1]], 2)",
    "unsorted_segment_sum_grad": "result = grad(lambda a: tf.math.unsorted_segment_sum(a, [2, -1, 2, 0], 3), [[1., 2.], [3., 4.], [5., 6.], [7., 8.]])",
    "unsorted_segment_sum_out_of_range": "result = tf.math.unsorted_segment_sum([1., 2., 3., 4.], [0, 2, 5, 2], 3)",
    "unsorted_segment_sum_shape": "result = tf.math.unsorted_segment_sum([1., 2., 3., 4.], [0, 2, 1], 3)",
    "unsorted_segment_sum_no_segments": "result = tf.math.unsorted_segment_sum([[1., 2.], [3., 4.]], [1, 1], 0)",
    "unsorted_segment_sum_negative_count": "result = tf.math.unsorted_segment_sum([[1., 2.], [3., 4.]], [1, 1], -1)",
}

CONTROL = {
    "cond_python": "result = tf.cond(True, lambda: 1., lambda: 2.)",
    "cond_tensor": "result = tf.cond(tf.constant(False), lambda: v, lambda: v * 2)",
    "cond_structure": "result = list(tf.cond(True, lambda: (v, 1), lambda: (v, 2)))",
    "cond_grad": "result = grad(lambda a: tf.cond(tf.reduce_sum(a) > 0, lambda: a * a, lambda: -a), [1., -0.5])",
    "cond_vector_pred": "result = tf.cond(v > 1, lambda: 1., lambda: 2.)",
    "cond_no_false_fn": "result = tf.cond(True, lambda: 1.)",
    "cond_no_true_fn": "result = tf.cond(True, None, lambda: 1.)",
    "cond_not_callable": "result = tf.cond(True, 3, lambda: 1.)",
    "cond_none_pred": "result = tf.cond(None, lambda: 1., lambda: 2.)",
    "map_fn": "result = tf.map_fn(lambda e: e * 2, v)",
    "map_fn_rows": "result = tf.map_fn(lambda r: tf.reduce_sum(r), x)",
    "map_fn_signature": "result = tf.map_fn(lambda e: tf.cast(e, tf.int32), v, fn_output_signature=tf.int32)",
    "map_fn_dtype": "result = tf.map_fn(lambda e: tf.cast(e, tf.int32), v, dtype=tf.int32)",
    "map_fn_tuple_out": "result = list(tf.map_fn(lambda e: (e, e * 2), v, fn_output_signature=(tf.float32, tf.float32)))",
    "map_fn_tuple_in": "result = list(tf.map_fn(lambda e: (e[0], e[1]), (v, tf.constant([1, 2, 3]))))",
    "map_fn_dict_in": "result = tf.map_fn(lambda e: e['a'] * e['b'], {'a': v, 'b': v}, fn_output_signature=tf.float32)",
    "map_fn_number_out": "result = tf.map_fn(lambda e: 1.0, v)",
    "map_fn_empty_spec": "result = tf.map_fn(lambda e: e, tf.zeros((0, 2)), fn_output_signature=tf.TensorSpec([2], tf.float32))",
    "map_fn_grad": "result = grad(lambda a: tf.map_fn(lambda r: tf.reduce_sum(r * r) * r, a), [[1., 2.], [3., -1.]])",
    "map_fn_wrong_dtype": "result = tf.map_fn(lambda e: tf.cast(e, tf.int32), v)",
    "map_fn_wrong_structure": "result = tf.map_fn(lambda e: (e, e * 2), v)",
    "map_fn_scalar": "result = tf.map_fn(lambda e: e, tf.constant(1.0))",
    "map_fn_mismatched": "result = tf.map_fn(lambda e: e, (v, tf.constant([1., 2.])))",
    "map_fn_ragged": "result = tf.map_fn(lambda e: tf.range(e), tf.constant([1, 2]))",
    "map_fn_none_out": "result = tf.map_fn(lambda e: None, v)",
    "scan": "result = tf.scan(lambda a, e: a + e, v)",
    "scan_initializer": "result = tf.scan(lambda a, e: a + e, v, initializer=10.)",
    "scan_reverse": "result = [tf.scan(lambda a, e: a + e, v, reverse=True), tf.scan(lambda a, e: a * e, v, initializer=tf.constant(1.), reverse=True)]",
    "scan_structure": "result = list(tf.scan(lambda a, e: (a[0] + e, a[1] * e), v, initializer=(0., 1.)))",
    "scan_tuple_elems": "result = tf.scan(lambda a, e: a + e[0] * e[1], (v, v), initializer=0.)",
    "scan_rows": "result = tf.scan(lambda a, e: a + e, tf.ones((2, 2)))",
    "scan_empty_initializer": "result = tf.scan(lambda a, e: a + e, tf.zeros((0,)), initializer=1.)",
    "scan_grad": "result = grad(lambda a: tf.scan(lambda t, e: t * e + 1.0, a, initializer=tf.constant(0.5, tf.float64)), [1., 2., -1.])",
    "scan_grad_reverse": "result = grad(lambda a: tf.scan(lambda t, e: t * e, a, reverse=True), [1., 2., -1.5])",
    "scan_empty": "result = tf.scan(lambda a, e: a + e, tf.zeros((0,)))",
    "scan_scalar": "result = tf.scan(lambda a, e: a + e, tf.constant(1.))",
    "scan_wrong_structure": "result = tf.scan(lambda a, e: (a, a), v, initializer=0.)",
    "scan_wrong_dtype": "result = tf.scan(lambda a, e: tf.cast(a, tf.float64) + 1., v)",
    "scan_int_initializer": "result = tf.scan(lambda a, e: a + e, v, initializer=1)",
    "scan_growing": "result = tf.scan(lambda a, e: tf.concat([a, e], 0), tf.ones((2, 1)))",
    "scan_not_callable": "result = tf.scan(3, v)",
    "vectorized_map": "result = tf.vectorized_map(lambda e: e * 2, v)",
    "vectorized_map_rows": "result = tf.vectorized_map(lambda r: tf.reduce_sum(r), tf.ones((2, 3)))",
    "vectorized_map_tuple": "result = [tf.vectorized_map(lambda e: e[0] + e[1], (v, v)), *tf.vectorized_map(lambda e: (e, e), v)]",
    "vectorized_map_constant": "result = tf.vectorized_map(lambda e: 1.0, v)",
    "vectorized_map_cast": "result = tf.vectorized_map(lambda e: tf.cast(e, tf.int32), v)",
    "vectorized_map_matmul": "result = tf.vectorized_map(lambda m: tf.matmul(m, m), tf.reshape(tf.range(18.0), (2, 3, 3)))",
    "vectorized_map_empty": "result = tf.vectorized_map(lambda e: e, tf.zeros((0, 2)))",
    "vectorized_map_grad": "result = grad(lambda a: tf.vectorized_map(lambda r: tf.tanh(r) * tf.reduce_sum(r), a), [[1., 2.], [0.5, -1.]])",
    "vectorized_map_scalar": "result = tf.vectorized_map(lambda e: e, tf.constant(1.0))",
}

GROUPS = {"sorting": SORTING, "rounding": ROUNDING, "zero_gradients": ZERO_GRADIENTS, "segments": SEGMENTS,
          "control": CONTROL}
#: Errors whose text is TF's internals (a structure dump, a shape's internal name): the type must match, and the
#: message must name the op or the argument, but the words are minitape's.
TYPE_ONLY = {"top_k_bool", "sort_bool", "round_bool", "cumprod_bool", "segment_sum_float_ids", "map_fn_wrong_structure",
             "scan_scalar", "scan_wrong_structure", "scan_not_callable", "vectorized_map_scalar", "map_fn_none_out"}


def run(tf: Any, code: str) -> Any:
    namespace = {"tf": tf, "np": np}
    try:
        exec(PRELUDE + code, namespace)
    except Exception as error:  # noqa: BLE001 (the exception is the record)
        return {"error": type(error).__name__, "text": str(error)}
    return plain(namespace["result"])


def plain(value: Any) -> Any:
    if value is None or isinstance(value, str | int | float | bool):
        return value
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    array = np.asarray(value.numpy())
    return {"value": array.tolist(), "shape": list(array.shape), "dtype": value.dtype.name}


def main() -> None:
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf
    records = {group: {name: run(tf, code) for name, code in cases.items()} for group, cases in GROUPS.items()}
    OUT.write_text(json.dumps(records, indent=1, sort_keys=True) + "\n")
    print(f"wrote {OUT}: {sum(len(r) for r in records.values())} records")


if __name__ == "__main__":
    main()
