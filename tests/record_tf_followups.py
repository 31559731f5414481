"""Record what TensorFlow 2.21 (Keras 3) answers on the follow-ups of issues #23 and #24, for
tests/test_followups_tf.py (run by hand, never by CI).

    TF_ENABLE_ONEDNN_OPTS=0 /tmp/tfvenv/bin/python tests/record_tf_followups.py   # writes tests/data/tf_followups.json

Each case is a few lines run with ``tf`` (and ``np``) bound, leaving its answer in ``result``, recorded as
``record_tf_refusals.run`` does: a tensor (value, shape, dtype), a list of them, or an exception (type and text).
"""
from __future__ import annotations

import pathlib

from record_tf_refusals import record

OUT = pathlib.Path(__file__).parent / "data" / "tf_followups.json"

_I8 = "i8 = lambda v: tf.constant(v, tf.int8)\n"
#: The logic ops at the top level and tf.math, and tf.bitwise: values, dtypes, and what each refuses.
LOGIC = {
    "logical_and": "result = tf.logical_and([True, False], [True, True])",
    "logical_or": "result = tf.logical_or([True, False], [False, False])",
    "logical_not": "result = tf.logical_not([True, False])",
    "math_logical_xor": "result = tf.math.logical_xor([True, False], [True, True])",
    "logical_and_ints": "result = tf.logical_and(tf.constant([1, 0]), tf.constant([1, 1]))",
    "bitwise_and": "result = tf.bitwise.bitwise_and(tf.constant([12, 10]), 6)",
    "bitwise_or_uint8": "result = tf.bitwise.bitwise_or(tf.constant([12, 3], tf.uint8), tf.constant([1, 4], tf.uint8))",
    "bitwise_xor_int64": "result = tf.bitwise.bitwise_xor(tf.constant([12, -1], tf.int64), tf.constant([5, 7], tf.int64))",
    "invert_uint8": "result = tf.bitwise.invert(tf.constant([0, 5], tf.uint8))",
    "invert_int16": "result = tf.bitwise.invert(tf.constant([0, -5], tf.int16))",
    "bitwise_and_bools": "result = tf.bitwise.bitwise_and(tf.constant([True]), tf.constant([True]))",
    "bitwise_and_floats": "result = tf.bitwise.bitwise_and(tf.constant([1.0]), tf.constant([1.0]))",
    "left_shift": "result = tf.bitwise.left_shift([1, 2], [3, 1])",
    "left_shift_int8_wraps": _I8 + "result = tf.bitwise.left_shift(i8([1, 64, -1, 3]), i8([1, 2, 7, 9]))",
    "left_shift_clamped": "result = tf.bitwise.left_shift(tf.constant([5, 5]), tf.constant([-1, 40]))",
    "left_shift_int64": "result = tf.bitwise.left_shift(tf.constant([1], tf.int64), tf.constant([63], tf.int64))",
    "left_shift_uint16": "result = tf.bitwise.left_shift(tf.constant([1, 3], tf.uint16), tf.constant([15, 16], tf.uint16))",
    "left_shift_broadcast": "result = tf.bitwise.left_shift(tf.constant([[1], [2]]), tf.constant([0, 1, 2]))",
    "right_shift_signed": "result = tf.bitwise.right_shift(tf.constant([-8, -8, 8, 8]), tf.constant([1, 40, -1, 33]))",
    "right_shift_uint8": "result = tf.bitwise.right_shift(tf.constant([200, 200], tf.uint8), tf.constant([1, 9], tf.uint8))",
    "left_shift_mixed": "result = tf.bitwise.left_shift(tf.constant([1], tf.int8), tf.constant([1], tf.int32))",
    "right_shift_floats": "result = tf.bitwise.right_shift(tf.constant([1.0]), tf.constant([1.0]))",
}

#: A Python number past the tensor's dtype: TF gives inf (floats) or wraps (ints), and prints nothing.
OVERFLOW = {
    "float32_times_1e40": "result = tf.ones(2) * 1e40",
    "float32_times_10_pow_40": "result = 10**40 * tf.ones(2)",
    "float16_plus_1e6": "result = tf.constant(1.0, tf.float16) + 1e6",
    "float64_times_1e300": "result = tf.constant([1e300], tf.float64) * 1e300",
    "int8_plus_300": "result = tf.constant(3, tf.int8) + 300",
    "int8_vector_plus_300": "result = tf.constant([3, -3], tf.int8) + 300",
    "uint8_minus_1": "result = tf.constant([3], tf.uint8) - 4",
}

_PADDED = ("x = np.array([[[1.0, 2.0], [0.0, 0.0], [3.0, -1.0]], [[0.5, 0.5], [0.0, 0.0], [0.0, 0.0]],"
           " [[0.0, 0.0], [2.0, 0.0], [-1.0, 1.0]]], np.float32)\n")
_FIXED = ("rng = np.random.default_rng(0)\n"
          "model.set_weights([0.5 * rng.standard_normal(w.shape).astype(np.float32) for w in model.get_weights()])\n")
#: Keras 3 layers and their floats (compared to 1e-6): the masks they pass on, their dtypes.
KERAS = {
    "masking_values": _PADDED + "result = tf.keras.layers.Masking(0.0)(x)",
    "masking_mask": _PADDED + "result = tf.keras.layers.Masking(0.0).compute_mask(tf.constant(x))",
    "masking_other_value": _PADDED + "result = tf.keras.layers.Masking(0.5)(x)",
    "masking_lstm": _PADDED + "model = tf.keras.Sequential([tf.keras.layers.Masking(0.0), tf.keras.layers.LSTM(4)])\n"
                    "model.build((None, 3, 2))\n" + _FIXED + "result = model(x)",
    "masking_lstm_sequences": _PADDED + "model = tf.keras.Sequential([tf.keras.layers.Masking(0.0), "
                              "tf.keras.layers.LSTM(3, return_sequences=True)])\n"
                              "model.build((None, 3, 2))\n" + _FIXED + "result = model(x)",
    "dense_float64": "d = tf.keras.layers.Dense(3, dtype='float64', kernel_initializer='ones', bias_initializer='ones')\n"
                     "result = [d(np.ones((1, 2))), tf.identity(d.kernel), tf.identity(d.bias), d.dtype, "
                     "d.compute_dtype, d.variable_dtype]",
    "dense_float64_int_input": "result = tf.keras.layers.Dense(2, dtype='float64', kernel_initializer='ones')"
                               "(tf.constant([[1, 2]]))",
    "dense_float64_of_float32": "result = tf.keras.layers.Dense(2, dtype=tf.float64, kernel_initializer='ones')"
                                "(tf.constant([[0.1, 0.2]]))",
    "dense_default_casts_float64": "result = tf.keras.layers.Dense(2, kernel_initializer='ones')(tf.ones((1, 2), "
                                   "tf.float64))",
    "relu_default_casts_float64": "result = tf.keras.layers.ReLU()(tf.constant([-1.0, 2.0], tf.float64))",
    "relu_float64": "result = tf.keras.layers.ReLU(dtype='float64')(tf.constant([-1.0, 2.0]))",
    "dense_float16": "result = tf.keras.layers.Dense(2, dtype='float16', kernel_initializer='ones')(np.ones((1, 2)))",
    "conv2d_float64": "c = tf.keras.layers.Conv2D(2, 3, dtype='float64', kernel_initializer='ones')\n"
                      "result = [c(np.ones((1, 4, 4, 1))), tf.identity(c.kernel)]",
    "lstm_float64": "l = tf.keras.layers.LSTM(2, dtype='float64', kernel_initializer='ones', "
                    "recurrent_initializer='ones')\nresult = [l(0.1 * np.ones((1, 3, 2))), *map(tf.identity, l.weights)]",
    "sequential_float64_then_float32": "model = tf.keras.Sequential([tf.keras.layers.Dense(2, dtype='float64'), "
                                       "tf.keras.layers.Dense(1)])\nresult = model(np.ones((1, 2))).dtype.name",
    "dtype_unknown": "result = tf.keras.layers.Dense(2, dtype='float65')",
    "dtype_number": "result = tf.keras.layers.Dense(2, dtype=3)",
}
_FIT = ("model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer='ones', bias_initializer='zeros')])\n"
        "model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss={!r})\n"
        "x = np.array([[1.0, 2.0], [3.0, -1.0], [0.5, 0.5], [-2.0, 1.0]], np.float32)\n"
        "h = model.fit(x, np.array([1.0, 0.5, 2.0, 1.5], np.float32), epochs=3, batch_size=4, shuffle=False, verbose=0)\n"
        "result = [tf.constant(h.history['loss']), tf.identity(model.weights[0])]")
#: Losses compiled by their long names (labels (n,) against predictions (n, 1)): the history and the weights.
KERAS.update({f"compile_{name}": _FIT.format(name) for name in (
    "mean_absolute_error", "mean_squared_error", "mean_absolute_percentage_error", "mean_squared_logarithmic_error")})
KERAS["compile_logcosh"] = _FIT.format("logcosh")         # Keras 3 knows log_cosh only

GROUPS = {"logic": LOGIC, "overflow": OVERFLOW, "keras": KERAS}


def main() -> None:
    record(GROUPS, OUT)


if __name__ == "__main__":
    main()
