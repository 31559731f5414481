"""Record what TensorFlow 2.21 answers on the cases a fresh adversarial pass found minitape answering otherwise,
for tests/test_adversarial_regressions.py (issue #23; run by hand, never by CI).

    TF_ENABLE_ONEDNN_OPTS=0 /tmp/tfvenv/bin/python tests/record_tf_adversarial.py   # writes tests/data/tf_adversarial.json

Each case is a few lines run with ``tf`` (and ``np``) bound, leaving its answer in ``result``, recorded as
``record_tf_refusals.run`` does: a tensor (value, shape, dtype), a list of them, or an exception (type and text).
"""
from __future__ import annotations

import json
import os
import pathlib

from record_tf_refusals import run

OUT = pathlib.Path(__file__).parent / "data" / "tf_adversarial.json"

_MASK = "mask = tf.constant([True, False])\n"
#: A Python number TF will not convert to the tensor's dtype: an int is no bool, a bool no narrow int.
NUMBERS = {
    "bool_eq_3": _MASK + "result = mask == 3",
    "bool_eq_1": _MASK + "result = mask == 1",
    "bool_and_3": _MASK + "result = mask & 3",
    "bool_rand_3": _MASK + "result = 3 & mask",
    "bool_or_0": _MASK + "result = mask | 0",
    "bool_logical_and_1": _MASK + "result = tf.math.logical_and(mask, 1)",
    "bool_maximum_1": _MASK + "result = tf.maximum(mask, 1)",
    "bool_times_3": _MASK + "result = mask * 3",
    "bool_plus_1": _MASK + "result = mask + 1",
    "bool_eq_true": _MASK + "result = mask == True",
    "int8_eq_true": "result = tf.ones(2, tf.int8) == True",
    "uint8_and_true": "result = tf.ones(2, tf.uint8) & True",
    "int16_times_true": "result = tf.ones(2, tf.int16) * True",
    "uint16_plus_true": "result = tf.ones(2, tf.uint16) + True",
    "int32_and_true": "result = tf.ones(2, tf.int32) & True",
    "float32_times_true": "result = tf.ones(2) * True",
}

#: Edges of the sequence ops: empty lengths, scalars, num = 0, empty float indices.
EDGES = {
    "sequence_mask_no_lengths": "result = tf.sequence_mask(tf.constant([], tf.int32))",
    "sequence_mask_no_lengths_2d": "result = tf.sequence_mask(tf.zeros((2, 0), tf.int32))",
    "sequence_mask_negative_lengths": "result = tf.sequence_mask([-1, -2])",
    "repeat_scalar_axis_0": "result = tf.repeat(tf.constant(5.0), 2, axis=0)",
    "repeat_scalar_axis_minus_1": "result = tf.repeat(tf.constant(5.0), [3], axis=-1)",
    "repeat_scalar_axis_1": "result = tf.repeat(tf.constant(5.0), 2, axis=1)",
    "reverse_scalar": "result = tf.reverse(tf.constant(5.0), [0, -1])",
    "reverse_scalar_axis_1": "result = tf.reverse(tf.constant(5.0), [1])",
    "reverse_empty_axis_3": "result = tf.reverse(tf.zeros((0, 2)), [3])",
    "reverse_vector_axis_1": "result = tf.reverse(tf.constant([5.0]), [1])",
    "reverse_axis_none": "result = tf.reverse(tf.constant([5.0]), None)",
    "unstack_num_0": "result = tf.unstack(tf.zeros((2, 3)), num=0, axis=1)",
    "unstack_num_bad_axis": "result = tf.unstack(tf.zeros((3, 3)), num=3, axis=-3)",
    "unstack_bad_axis": "result = tf.unstack(tf.zeros((3, 3)), axis=-3)",
    "gather_axis_1_batch_dims_1": "result = tf.gather(tf.reshape(tf.range(24.0), (2, 3, 4)), [[0, 1], [1, 0]], "
                                  "axis=1, batch_dims=1)",
    "gather_axis_1_batch_dims_2": "result = tf.gather(tf.reshape(tf.range(24.0), (2, 3, 4)), [[0, 1], [1, 0]], "
                                  "axis=1, batch_dims=2)",
    "segment_sum_empty_float_ids": "result = tf.math.segment_sum(tf.zeros((0, 3)), tf.zeros((0,), tf.float32))",
    "gather_empty_float_indices": "result = tf.gather([1.0, 2.0], tf.zeros((0,), tf.float32))",
}

GROUPS = {"numbers": NUMBERS, "edges": EDGES}


def main() -> None:
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf
    records = {group: {name: run(tf, code) for name, code in cases.items()} for group, cases in GROUPS.items()}
    OUT.write_text(json.dumps(records, indent=1, sort_keys=True) + "\n")
    print(f"wrote {OUT}: {sum(len(r) for r in records.values())} records")


if __name__ == "__main__":
    main()
