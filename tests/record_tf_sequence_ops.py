"""Record TensorFlow 2.21's answers for the sequence ops of issue #25 (split, unstack, gather_nd, scatter_nd,
tensor_scatter_nd_*, roll, reverse, meshgrid, repeat, sequence_mask, linalg.band_part), for
tests/test_sequence_ops_tf.py (run by hand, never by CI):

    TF_ENABLE_ONEDNN_OPTS=0 /tmp/tfvenv/bin/python tests/record_tf_sequence_ops.py   # writes tests/data/tf_sequence_ops.json

Each case is a few lines run with ``tf`` (and ``np``) bound, leaving its answer in ``result``; the helper
``grads(f, *xs)`` gives ``[f(*xs), d sum(w * f)/dx for each x]`` with fixed weights ``w`` (a list output is
concatenated flat first).  Errors are recorded as their type's name and text (``record_tf_refusals.run``).
"""
from __future__ import annotations

import json
import os
import pathlib

from record_tf_refusals import run as _run

OUT = pathlib.Path(__file__).parent / "data" / "tf_sequence_ops.json"

GRADS = '''
def grads(f, *xs):
    xs = [tf.constant(x, tf.float64) for x in xs]
    with tf.GradientTape() as tape:
        tape.watch(xs)
        out = f(*xs)
        flat = tf.concat([tf.reshape(o, [-1]) for o in (out if isinstance(out, list) else [out])], 0)
        w = tf.constant(np.linspace(0.5, 1.5, int(flat.shape[0])), tf.float64)
        total = tf.reduce_sum(flat * w)
    return [out, *tape.gradient(total, xs, unconnected_gradients="zero")]
'''
M = "np.arange(24.0).reshape(2, 3, 4) * 0.5 - 3.0"

CASES = {
    # split
    "split_count": "result = tf.split(tf.reshape(tf.range(12), (2, 6)), 3, axis=1)",
    "split_sizes": "result = tf.split(tf.range(6), [2, -1, 3])",
    "split_sizes_axis_minus_1": "result = tf.split(tf.zeros((2, 3)), [1, 2], axis=-1)",
    "split_count_tensor": "result = tf.split(tf.range(6), tf.constant(2))",
    "split_sizes_tensor": "result = tf.split(tf.range(6), tf.constant([1, 5]))",
    "split_zero_size": "result = tf.split(tf.range(3), [0, 3])",
    "split_bool": "result = tf.split(tf.constant([True, False, True, True]), 2)",
    "split_grads": f"result = grads(lambda x: tf.split(x, [1, -1, 2], axis=2), {M})",
    "split_count_does_not_divide": "result = tf.split(tf.range(6), 4)",
    "split_sizes_do_not_add_up": "result = tf.split(tf.range(6), [2, 2])",
    "split_sizes_too_big": "result = tf.split(tf.zeros((2, 3)), [1, -1, 3], axis=1)",
    "split_two_unknown": "result = tf.split(tf.range(6), [2, -1, -1])",
    "split_one_unknown_alone": "result = tf.split(tf.range(6), [-1])",
    "split_negative_size": "result = tf.split(tf.zeros((2, 3)), [-2, 5], axis=1)",
    "split_zero_count": "result = tf.split(tf.range(6), 0)",
    "split_bad_axis": "result = tf.split(tf.range(6), 2, axis=3)",
    "split_bad_axis_sizes": "result = tf.split(tf.zeros((2, 3)), [1, 2], axis=-3)",
    "split_num_disagrees": "result = tf.split(tf.range(6), [2, 4], num=3)",
    "split_sizes_2d": "result = tf.split(tf.zeros((2, 3)), [[1, 2]], axis=1)",
    "split_float_count": "result = tf.split(tf.zeros((2, 3)), 1.5, axis=1)",
    # unstack
    "unstack": "result = tf.unstack(tf.reshape(tf.range(6), (2, 3)))",
    "unstack_axis_1": "result = tf.unstack(tf.reshape(tf.range(6.0), (2, 3)), axis=1)",
    "unstack_axis_minus_1_num": "result = tf.unstack(tf.zeros((2, 3)), num=3, axis=-1)",
    "unstack_vector": "result = tf.unstack([1, 2, 3])",
    "unstack_grads": f"result = grads(lambda x: tf.unstack(x, axis=1), {M})",
    "unstack_num_disagrees": "result = tf.unstack(tf.zeros((2, 3)), num=3)",
    "unstack_scalar": "result = tf.unstack(tf.zeros(()))",
    "unstack_bad_axis": "result = tf.unstack(tf.zeros((2, 3)), axis=2)",
    # gather_nd
    "gather_nd_entries": "result = tf.gather_nd(tf.reshape(tf.range(6.0), (3, 2)), [[1, 0], [2, 1], [1, 0]])",
    "gather_nd_rows": "result = tf.gather_nd(tf.reshape(tf.range(6), (3, 2)), [[2], [0]])",
    "gather_nd_nested": "result = tf.gather_nd(tf.reshape(tf.range(24), (2, 3, 4)), [[[0, 1], [1, 2]], [[1, 0], [0, 0]]])",
    "gather_nd_empty_vectors": "result = tf.gather_nd(tf.reshape(tf.range(6), (3, 2)), tf.zeros((2, 0), tf.int32))",
    "gather_nd_batch_dims": "result = tf.gather_nd(tf.reshape(tf.range(24.0), (2, 3, 4)), [[1], [2]], batch_dims=1)",
    "gather_nd_batch_dims_vectors": "result = tf.gather_nd(tf.reshape(tf.range(24), (2, 3, 4)), [[[1, 3], [0, 0]], [[2, 1], [1, 1]]], batch_dims=1)",
    "gather_nd_int64_indices": "result = tf.gather_nd([10, 20, 30], tf.constant([[2], [0]], tf.int64))",
    "gather_nd_bool": "result = tf.gather_nd([True, False], [[1]])",
    "gather_nd_grads": f"result = grads(lambda x: tf.gather_nd(x, [[1, 2], [0, 0], [1, 2]]), {M})",
    "gather_nd_batch_grads": f"result = grads(lambda x: tf.gather_nd(x, [[[2], [2]], [[0], [1]]], batch_dims=1), {M})",
    "gather_nd_out_of_range": "result = tf.gather_nd(tf.reshape(tf.range(6.0), (3, 2)), [[1, 5]])",
    "gather_nd_negative": "result = tf.gather_nd(tf.reshape(tf.range(6.0), (3, 2)), [[-1]])",
    "gather_nd_out_of_range_nested": "result = tf.gather_nd(tf.zeros((2, 3)), [[[1], [2]]])",
    "gather_nd_out_of_range_batch": "result = tf.gather_nd(tf.zeros((2, 3)), [[[1], [1]], [[0], [3]]], batch_dims=1)",
    "gather_nd_vector_too_long": "result = tf.gather_nd(tf.zeros((3, 2)), [[1, 1, 1]])",
    "gather_nd_scalar_indices": "result = tf.gather_nd(tf.zeros((3, 2)), 1)",
    "gather_nd_float_indices": "result = tf.gather_nd(tf.zeros((3, 2)), [[1.0]])",
    "gather_nd_negative_batch_dims": "result = tf.gather_nd(tf.zeros((2, 3)), [[[1], [2]]], batch_dims=-1)",
    "gather_nd_batch_dims_too_big": "result = tf.gather_nd(tf.zeros((2, 3, 4)), [1, 2], batch_dims=1)",
    # scatter_nd
    "scatter_nd_entries": "result = tf.scatter_nd([[0, 1], [1, 0], [0, 1]], [1.0, 2.0, 4.0], [2, 2])",
    "scatter_nd_rows": "result = tf.scatter_nd([[1], [3]], [[1, 2], [3, 4]], [4, 2])",
    "scatter_nd_int64_shape": "result = tf.scatter_nd([[1]], [1.0], tf.constant([3], tf.int64))",
    "scatter_nd_bool": "result = tf.scatter_nd([[1], [1]], [True, True], [3])",
    "scatter_nd_grads": "result = grads(lambda u: tf.scatter_nd([[1, 0], [0, 2], [1, 0]], u, [2, 3, 2]), np.arange(6.0).reshape(3, 2) - 2.5)",
    "scatter_nd_out_of_range": "result = tf.scatter_nd([[5]], [1.0], [3])",
    "scatter_nd_out_of_range_second": "result = tf.scatter_nd([[1, 2], [3, 0]], [1.0, 2.0], [2, 3])",
    "scatter_nd_updates_too_deep": "result = tf.scatter_nd([[1]], [[1.0, 2.0]], [3])",
    "scatter_nd_updates_outer": "result = tf.scatter_nd([[1]], [1.0, 2.0], [3])",
    "scatter_nd_vector_too_long": "result = tf.scatter_nd([[1, 1, 1]], [1.0], [3, 2])",
    "scatter_nd_vector_indices": "result = tf.scatter_nd([1], [1.0], [3])",
    "scatter_nd_negative_shape": "result = tf.scatter_nd([[1]], [1.0], [-3])",
    "scatter_nd_scalar_shape": "result = tf.scatter_nd([[1]], [1.0], 3)",
    # tensor_scatter_nd_*
    "update": "result = tf.tensor_scatter_nd_update([1.0, 2.0, 3.0, 4.0], [[3], [1]], [30.0, 10.0])",
    "update_repeated_last_wins": "result = tf.tensor_scatter_nd_update([1.0, 2.0, 3.0], [[1], [1]], [5.0, 6.0])",
    "update_rows": "result = tf.tensor_scatter_nd_update(tf.zeros((2, 3)), [[1]], [[1.0, 2.0, 3.0]])",
    "update_int": "result = tf.tensor_scatter_nd_update([[1, 2], [3, 4]], [[0, 1]], [9])",
    "update_bool": "result = tf.tensor_scatter_nd_update([True, False], [[1]], [True])",
    "update_grads": f"result = grads(lambda x, u: tf.tensor_scatter_nd_update(x, [[1, 2], [0, 0]], u), {M}, np.ones((2, 4)) * 0.25)",
    "update_out_of_range": "result = tf.tensor_scatter_nd_update([1.0, 2.0, 3.0], [[4]], [5.0])",
    "update_out_of_range_second": "result = tf.tensor_scatter_nd_update(tf.zeros((2, 3)), [[1, 2], [3, 0]], [1.0, 2.0])",
    "update_outer_mismatch": "result = tf.tensor_scatter_nd_update([1.0, 2.0], [[1]], [1.0, 2.0])",
    "update_outer_mismatch_nested": "result = tf.tensor_scatter_nd_update(tf.zeros((2, 3)), [[[1]]], [[1.0, 2.0, 3.0]])",
    "update_inner_rank": "result = tf.tensor_scatter_nd_update(tf.zeros((2, 3)), [[1, 1, 1]], [1.0])",
    "update_inner_size": "result = tf.tensor_scatter_nd_update(tf.zeros((2, 3)), [[1]], [[1.0, 2.0]])",
    "update_scalar_indices": "result = tf.tensor_scatter_nd_update(tf.zeros((2, 3)), 1, [[1.0, 2.0, 3.0]])",
    "add": "result = tf.tensor_scatter_nd_add([1.0, 2.0, 3.0], [[1], [1], [0]], [5.0, 6.0, 1.0])",
    "add_int_rows": "result = tf.tensor_scatter_nd_add([[1, 2], [3, 4]], [[1]], [[10, 20]])",
    "sub_int": "result = tf.tensor_scatter_nd_sub([1, 2], [[1]], [5])",
    "add_grads": f"result = grads(lambda x, u: tf.tensor_scatter_nd_add(x, [[1, 2], [1, 2]], u), {M}, np.ones((2, 4)) * 0.25)",
    "sub_grads": f"result = grads(lambda x, u: tf.tensor_scatter_nd_sub(x, [[0], [1]], u), {M}, np.ones((2, 3, 4)))",
    "add_bool": "result = tf.tensor_scatter_nd_add([True, False], [[1]], [True])",
    "add_out_of_range": "result = tf.tensor_scatter_nd_add([1.0, 2.0], [[2]], [1.0])",
    # roll
    "roll": "result = tf.roll(tf.range(5), 2, 0)",
    "roll_negative": "result = tf.roll(tf.range(5), -7, 0)",
    "roll_lists": "result = tf.roll(tf.reshape(tf.range(6), (2, 3)), [1, -1], [0, 1])",
    "roll_axis_twice": "result = tf.roll(tf.range(5), [1, 2], [0, 0])",
    "roll_bool": "result = tf.roll([True, False, False], 1, 0)",
    "roll_grads": f"result = grads(lambda x: tf.roll(x, [1, 3], [2, -2]), {M})",
    "roll_bad_axis": "result = tf.roll(tf.range(5), 2, 1)",
    "roll_sizes_differ": "result = tf.roll(tf.range(5), [1, 2], 0)",
    "roll_float_shift": "result = tf.roll(tf.range(5), 1.0, 0)",
    # reverse
    "reverse": "result = tf.reverse(tf.reshape(tf.range(6), (2, 3)), [1])",
    "reverse_both": "result = tf.reverse(tf.reshape(tf.range(6), (2, 3)), [0, -1])",
    "reverse_none": "result = tf.reverse(tf.zeros((2, 3)), [])",
    "reverse_bool": "result = tf.reverse([True, False], [0])",
    "reverse_grads": f"result = grads(lambda x: tf.reverse(x, [0, 2]), {M})",
    "reverse_twice": "result = tf.reverse(tf.range(5), [0, 0])",
    "reverse_bad_axis": "result = tf.reverse(tf.range(5), [1])",
    "reverse_scalar_axis": "result = tf.reverse(tf.range(5), 0)",
    # meshgrid
    "meshgrid_xy": "result = tf.meshgrid([1, 2, 3], [4, 5])",
    "meshgrid_ij": "result = tf.meshgrid([1, 2, 3], [4, 5], indexing='ij')",
    "meshgrid_three": "result = tf.meshgrid([1.0, 2.0], [3.0], [4.0, 5.0, 6.0])",
    "meshgrid_one": "result = tf.meshgrid([1, 2])",
    "meshgrid_matrix_and_scalar": "result = tf.meshgrid([[1, 2]], 3)",
    "meshgrid_none": "result = tf.meshgrid()",
    "meshgrid_grads": "result = grads(lambda x, y: tf.meshgrid(x, y), np.array([1.0, 2.0, 3.0]), np.array([-1.0, 0.5]))",
    "meshgrid_ij_grads": "result = grads(lambda x, y, z: tf.meshgrid(x, y, z, indexing='ij'), np.array([1.0, 2.0]), np.array([3.0]), np.array([-1.0, 0.5, 2.0]))",
    "meshgrid_dtypes_differ": "result = tf.meshgrid([1, 2, 3], [4.0, 5.0])",
    "meshgrid_bad_indexing": "result = tf.meshgrid([1, 2], [3, 4], indexing='ji')",
    "meshgrid_bad_keyword": "result = tf.meshgrid([1, 2], [3, 4], foo=1)",
    # repeat
    "repeat_flat": "result = tf.repeat([[1, 2], [3, 4]], 2)",
    "repeat_per_row": "result = tf.repeat([[1, 2], [3, 4]], [1, 2], axis=0)",
    "repeat_per_column": "result = tf.repeat([[1, 2], [3, 4]], [3, 0], axis=1)",
    "repeat_axis_minus_1": "result = tf.repeat([[1.0, 2.0]], 2, axis=-1)",
    "repeat_scalar": "result = tf.repeat(3, 2)",
    "repeat_bool": "result = tf.repeat([True, False], 2)",
    "repeat_grads": f"result = grads(lambda x: tf.repeat(x, [2, 0, 1], axis=1), {M})",
    "repeat_flat_grads": f"result = grads(lambda x: tf.repeat(x, 2), {M})",
    "repeat_counts_mismatch": "result = tf.repeat([[1, 2], [3, 4]], [1, 2, 3], axis=0)",
    "repeat_counts_2d": "result = tf.repeat([1, 2], [[1, 2]])",
    "repeat_bad_axis": "result = tf.repeat([1, 2], 2, axis=1)",
    "repeat_negative": "result = tf.repeat([1, 2], -1)",
    # sequence_mask
    "sequence_mask": "result = tf.sequence_mask([1, 3, 2], 5)",
    "sequence_mask_default_maxlen": "result = tf.sequence_mask([[1, 3], [2, 0]])",
    "sequence_mask_float32": "result = tf.sequence_mask([1, 3, 2], 5, dtype=tf.float32)",
    "sequence_mask_int64_lengths": "result = tf.sequence_mask(tf.constant([2, 1], tf.int64), 3, dtype=tf.int32)",
    "sequence_mask_float_lengths": "result = tf.sequence_mask([1.5, 3.0, 2.0], 5)",
    "sequence_mask_float_maxlen": "result = tf.sequence_mask([1, 2], 3.0)",
    "sequence_mask_short": "result = tf.sequence_mask([1, 2], 1)",
    "sequence_mask_negative_length": "result = tf.sequence_mask([1, -2], 3)",
    "sequence_mask_scalar": "result = tf.sequence_mask(2, 3)",
    "sequence_mask_maxlen_list": "result = tf.sequence_mask([1, 2], [3])",
    "sequence_mask_negative_maxlen": "result = tf.sequence_mask([1, 2], -1)",
    # band_part
    "band_part_upper": "result = tf.linalg.band_part(tf.ones((3, 3)), 0, -1)",
    "band_part_causal": "result = tf.linalg.band_part(tf.ones((2, 3, 4)), -1, 0)",
    "band_part_tridiagonal": "result = tf.linalg.band_part(tf.reshape(tf.range(1, 13), (3, 4)), 1, 1)",
    "band_part_all": "result = tf.linalg.band_part(tf.ones((2, 3)), -5, -1)",
    "band_part_bool": "result = tf.linalg.band_part(tf.ones((3, 3), tf.bool), 0, 1)",
    "band_part_tensor_bounds": "result = tf.linalg.band_part(tf.ones((3, 3)), tf.constant(1), tf.constant(0))",
    "band_part_grads": f"result = grads(lambda x: tf.linalg.band_part(x, 1, 2), {M})",
    "band_part_too_many_rows": "result = tf.linalg.band_part(tf.ones((3, 3)), 4, 1)",
    "band_part_too_many_columns": "result = tf.linalg.band_part(tf.ones((2, 3)), 1, 4)",
    "band_part_vector": "result = tf.linalg.band_part(tf.ones((3,)), 0, 1)",
    "band_part_float_bound": "result = tf.linalg.band_part(tf.ones((2, 3)), 1.0, 1)",
}


def run(tf, code: str):
    """``code`` run after the ``grads`` helper, as ``record_tf_refusals.run`` runs a case."""
    return _run(tf, GRADS + code)


def main() -> None:
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf
    records = {name: run(tf, code) for name, code in CASES.items()}
    OUT.write_text(json.dumps(records, indent=1, sort_keys=True) + "\n")
    print(f"wrote {OUT}: {len(records)} records")


if __name__ == "__main__":
    main()
