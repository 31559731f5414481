"""Record TensorFlow 2.21's answers for tests/test_dialect_tf.py (run by hand, never by CI).

    /tmp/tfvenv/bin/python tests/record_tf_dialect.py      # writes tests/data/tf_dialect.json

Each case is a Python expression over ``tf`` and ``np``, evaluated once here with TensorFlow
and, in the test, with ``import minitape as tf``.  What is recorded is the result's ``repr``
(the expressions are written so that it names no library: shapes, dtypes, strings, numbers,
lists, or a tensor's ``.numpy()``), or the exception's type and message.  Cases in
``MESSAGES`` must also raise TF's message word for word; the others (an op refusing a dtype,
where TF prints its kernel registry) must raise TF's exception type.
"""
from __future__ import annotations

import json
import os
import pathlib

import numpy as np

OUT = pathlib.Path(__file__).parent / "data" / "tf_dialect.json"

S = "tf.TensorShape"
SHAPES = [
    f"str({S}([2, 3]))", f"str({S}([2]))", f"str({S}([]))", f"str({S}([None, 3]))", f"str({S}(None))",
    f"repr({S}([2, 3]))", f"repr({S}([]))", f"repr({S}([None, 3]))", f"repr({S}(None))",
    f"f'{{{S}([2, 3])}}'", f"'%s' % ({S}([4]),)", f"format({S}([2, 3]), '')",
    "str(tf.zeros((2, 3)).shape)", "repr(tf.zeros((2, 3)).shape)", "str(tf.constant(1.0).shape)",
    "f'{tf.ones((4, 1)).shape}'", "str(tf.Variable([1.0, 2.0]).shape)",
    f"{S}([2, 3]).as_list()", f"{S}([2, None]).as_list()", f"{S}(None).as_list()",
    f"{S}([2, 3]).rank", f"{S}(None).rank", f"{S}([2, 3]).ndims", f"{S}(None).ndims",
    f"{S}([2, None]).dims", f"{S}(None).dims", f"{S}([2, None]).dims[1].value", f"str({S}([None]).dims[0])",
    f"{S}([2, 3]).num_elements()", f"{S}([None, 3]).num_elements()", f"{S}(None).num_elements()",
    f"{S}([]).num_elements()",
    f"{S}([2, 3]).is_fully_defined()", f"{S}([None, 3]).is_fully_defined()", f"{S}(None).is_fully_defined()",
    f"{S}([2, 3]).is_compatible_with([None, 3])", f"{S}([2, 3]).is_compatible_with([2, 4])",
    f"{S}([2, 3]).is_compatible_with({S}(None))", f"{S}([2, 3]).is_compatible_with([2])",
    f"{S}([2, 3]).is_compatible_with((2, 3))",
    f"{S}([2, 3]).concatenate([4])", f"{S}([2, 3]).concatenate({S}(None))",
    f"{S}([2, None]).merge_with([None, 3])", f"{S}([2, 3]).merge_with([2, 4])", f"{S}([2, 3]).merge_with({S}(None))",
    f"{S}([2, 3]).merge_with([2])",
    f"len({S}([2, 3]))", f"len({S}(None))", f"list({S}([None, 3]))", f"list({S}(None))", f"tuple({S}([2, 3]))",
    f"{S}([2, 3])[0]", f"{S}([2, 3])[-1]", f"{S}([None, 3])[0]", f"{S}([2, 3])[5]", f"{S}([2, 3])[1:]",
    f"{S}([2, 3])[::-1]", f"{S}(None)[0]", f"{S}(None)[1:]", f"{S}(None)[1:3]", f"{S}([2, 3])['a']",
    f"{S}([2, 3])[np.int64(1)]", f"{S}([2, 3])[tf.constant(1)]", "tf.zeros((2, 3)).shape[1]",
    "type(tf.zeros((2, 3)).shape[1]).__name__", f"3 in {S}([2, 3])", f"isinstance({S}([2]), tuple)",
    f"{S}([2, 3]) == [2, 3]", f"{S}([2, 3]) == (2, 3)", f"{S}([2, 3]) == {S}([2, 3])", f"{S}([2, 3]) != [2, 3]",
    f"{S}([2, 3]) == [2, 4]", f"{S}([None, 3]) == [None, 3]", f"{S}(None) == {S}(None)", f"{S}([2, 3]) == None",
    f"{S}(None) == None", f"{S}([2, 3]) == 'a'", f"{S}([2]) == 2", f"(2, 3) == {S}([2, 3])", f"[2, 3] == {S}([2, 3])",
    f"{S}([2, 3]) == np.array([2, 3])", f"{S}([2, 3]) == [2, 3, 4]", f"{S}(None) != {S}(None)",
    "tf.zeros((2, 3)).shape == (2, 3)", "tf.constant(1.0).shape == ()", "tf.constant(1.0).shape == []",
    f"bool({S}([2, 3]))", f"bool({S}([]))", f"bool({S}(None))", "bool(tf.constant(1.0).shape)",
    f"{S}([2, 3]) + [4]", f"{S}([2, 3]) + (4,)", f"{S}([2]) + {S}([4])", f"[1] + {S}([2, 3])", f"(1,) + {S}([2, 3])",
    f"{S}([2, 3]) + {S}(None)", f"{S}([2, 3]) * 2", f"{S}([2]) < {S}([3])",
    f"hash({S}([2, 3])) == hash((2, 3))", f"hash({S}([None, 3])) == hash((None, 3))", f"{{{S}([2, 3]): 1}}[(2, 3)]",
    f"{S}((2, 3))", f"{S}(np.array([2, 3]))", f"{S}(5)", f"{S}({S}([1]))", f"{S}(tf.constant([2, 3]))",
    f"{S}([2.5])", f"{S}('a')", f"{S}([-1])",
    "np.zeros(tf.zeros((2, 3)).shape).shape", "tf.zeros(tf.ones((2, 3)).shape).shape",
    "tf.reshape(tf.range(6), tf.ones((3, 2)).shape).shape",
]
DTYPES = [
    "str(tf.float32)", "repr(tf.float32)", "str(tf.bool)", "repr(tf.bool)", "repr(tf.uint8)", "str(tf.int64)",
    "f'{tf.float16}'", "str(tf.constant([1.0]).dtype)", "repr(tf.constant([1]).dtype)", "str(tf.Variable(1.0).dtype)",
    "tf.float32.name", "tf.bool.name", "tf.uint8.name", "format(tf.float32, '')",
    "tf.float32 == 'float32'", "tf.float32 == 'float'", "tf.float32 == 'float64'", "tf.float32 == np.float32",
    "tf.float32 == np.dtype('float32')", "np.dtype('float32') == tf.float32", "np.float32 == tf.float32",
    "'float32' == tf.float32", "tf.float32 == 'foo'", "tf.float32 == None", "tf.float32 != None", "tf.float32 == 3",
    "tf.int32 == 3", "tf.float32 != 'float32'", "tf.float32 == float", "tf.int32 == int", "tf.float64 == float",
    "tf.bool == bool", "tf.float32 == tf.float32", "tf.float32 != tf.float64", "tf.uint8 == np.uint8",
    "tf.float32 == np.float64", "tf.float32 in ['float32']", "tf.float32 in [np.float32]", "np.float32 in (tf.float32,)",
    "tf.float32 in {'float32'}", "tf.float32 < tf.float64",
    "hash(tf.float32)", "hash(tf.uint8)", "{tf.float32: 1}[tf.float32]", "tf.float32.as_datatype_enum",
    "[d.is_floating for d in (tf.float16, tf.float32, tf.float64, tf.int32, tf.uint8, tf.bool)]",
    "[d.is_integer for d in (tf.float32, tf.int8, tf.int16, tf.int32, tf.int64, tf.uint8, tf.uint16, tf.bool)]",
    "[d.is_unsigned for d in (tf.float32, tf.int8, tf.int32, tf.uint8, tf.uint16, tf.bool)]",
    "[d.is_bool for d in (tf.float32, tf.int32, tf.bool)]", "[d.is_numeric for d in (tf.float32, tf.uint8, tf.bool)]",
    "[d.size for d in (tf.float16, tf.float32, tf.float64, tf.int8, tf.int16, tf.int32, tf.int64, tf.uint8, tf.uint16, tf.bool)]",
    "tf.float32.as_numpy_dtype", "tf.bool.as_numpy_dtype", "tf.uint8.as_numpy_dtype",
    "tf.float32.min", "tf.float32.max", "tf.float16.min", "tf.float64.max", "tf.int32.min", "tf.int64.max",
    "tf.uint8.max", "tf.uint8.min", "tf.int8.min", "tf.uint16.max", "tf.int16.max", "type(tf.int32.min).__name__",
    "tf.bool.min", "tf.bool.max",
    "tf.float32.real_dtype", "tf.int32.real_dtype", "tf.float32.base_dtype",
    "tf.float32.is_compatible_with(tf.float32)", "tf.float32.is_compatible_with('float64')",
    "tf.as_dtype('float32')", "tf.as_dtype(np.float32)", "tf.as_dtype(np.dtype('uint8'))", "tf.as_dtype('float')",
    "tf.as_dtype(float)", "tf.as_dtype(bool)", "tf.as_dtype('half')", "tf.as_dtype('double')", "tf.as_dtype(tf.float32)",
    "tf.as_dtype(np.int64)", "tf.as_dtype(np.bool_)", "tf.as_dtype(3)", "tf.as_dtype(4)", "tf.as_dtype('uint16')",
    "tf.as_dtype(int)", "tf.as_dtype('int')", "tf.as_dtype('foo')", "tf.as_dtype(None)",
    "tf.dtypes.float32", "tf.dtypes.bool", "tf.dtypes.uint8", "tf.dtypes.int8", "tf.dtypes.int16", "tf.dtypes.uint16",
    "tf.dtypes.half", "tf.dtypes.double", "tf.half", "tf.double", "tf.dtypes.as_dtype('int64')",
    "tf.dtypes.cast(tf.constant([1.5]), tf.int32).numpy()", "isinstance(tf.float32, tf.dtypes.DType)",
    "tf.DType is tf.dtypes.DType", "tf.float32 is tf.dtypes.float32",
]
U8 = "tf.constant(np.array([1, 2, 100], np.uint8))"
LABELS = "tf.constant(np.array([0, 2], np.uint8))"
PROBS = "tf.constant([[0.2, 0.3, 0.5], [0.1, 0.1, 0.8]])"
NARROW = [
    f"{U8}.numpy()", f"{U8}.dtype", f"tf.convert_to_tensor(np.uint8(3)).dtype", "tf.constant([1, 2], tf.uint8).numpy()",
    "tf.constant(-1, dtype=tf.uint8).numpy()", "tf.constant(300, dtype=tf.uint8).numpy()",
    "tf.constant([-1, 256], dtype=tf.uint8).numpy()", "tf.constant(200, dtype=tf.int8).numpy()",
    "tf.constant(-1, dtype=tf.uint16).numpy()", "tf.constant(2**31, dtype=tf.int32).numpy()",
    f"({U8} + 1).numpy()", f"({U8} + {U8}).numpy()", f"({U8} - {U8}).numpy()", f"({U8} * 3).numpy()",
    f"({U8} + 300).numpy()", f"({U8} + (-1)).numpy()", f"({U8} // 2).numpy()", f"({U8} % 3).numpy()",
    f"({U8} / {U8}).numpy()", f"({U8} / 2).numpy()", "(tf.constant(np.array([3], np.int16)) / 2).numpy()",
    "(tf.constant([3]) / 2).numpy()", f"({U8} == 1).numpy()", f"({U8} > 1).numpy()",
    f"tf.equal({U8}, 2).numpy()", f"tf.not_equal({U8}, {U8}).numpy()",
    f"tf.cast({U8}, tf.float32).numpy()", "tf.cast(tf.constant([1.7, -1.0, 300.0]), tf.uint8).numpy()",
    "tf.cast(tf.constant([1, -1, 300]), tf.uint8).numpy()", "tf.cast(tf.constant([1, -1, 300]), tf.int8).numpy()",
    f"tf.cast({U8}, tf.bool).numpy()",
    f"{U8}[0].numpy()", f"{U8}[1:].numpy()", f"{U8}[tf.newaxis].numpy()", f"{U8}[:, tf.newaxis].shape",
    "tf.newaxis is None", "tf.zeros((2, 3))[tf.newaxis, :, tf.newaxis].shape", "tf.zeros((2, 3))[..., tf.newaxis].shape",
    f"tf.gather({U8}, [0, 2]).numpy()", f"tf.one_hot({LABELS}, 3).numpy()",
    "tf.one_hot(tf.constant(np.array([0, 2], np.int8)), 3).numpy()",
    f"tf.reduce_sum({U8}).numpy()", f"tf.reduce_mean({U8}).numpy()", f"tf.reduce_max({U8}).numpy()",
    f"tf.reduce_min({U8}).numpy()", f"tf.maximum({U8}, 50).numpy()",
    f"tf.where({U8} > 1, {U8}, 0).numpy()", f"tf.square({U8}).numpy()", f"tf.reshape({U8}, (3, 1)).shape",
    f"tf.concat([{U8}, {U8}], 0).numpy()", f"tf.stack([{U8}, {U8}]).shape", "tf.zeros(2, tf.uint8).numpy()",
    "tf.ones(2, dtype='uint8').numpy()", f"tf.zeros_like({U8}).numpy()", f"tf.clip_by_value({U8}, 1, 2).numpy()",
    f"tf.Variable({U8}).dtype", "tf.abs(tf.constant(np.array([-3], np.int8))).numpy()",
    "(-tf.constant(np.array([3], np.int16))).numpy()",
    f"tf.keras.losses.sparse_categorical_crossentropy({LABELS}, {PROBS}).numpy()",
    f"tf.keras.losses.SparseCategoricalCrossentropy()({LABELS}, {PROBS}).numpy()",
    f"tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)({LABELS}, {PROBS}).numpy()",
    f"tf.keras.metrics.SparseCategoricalAccuracy().update_state({LABELS}, {PROBS}) or 'updated'",
    # what TF's kernels refuse for unsigned or narrow ints
    f"-{U8}", f"abs({U8})", f"tf.sign({U8})", f"{U8} ** 2", f"tf.sqrt({U8})", f"{U8} + 1.5",
    f"{U8} + tf.constant([1, 2, 3])", "tf.matmul(tf.ones((1, 1), tf.int8), tf.ones((1, 1), tf.int8))",
    f"tf.gather([10.0, 20.0, 30.0], {LABELS})", "tf.one_hot(tf.constant(np.array([0, 2], np.int16)), 3)",
    f"tf.nn.sparse_softmax_cross_entropy_with_logits({LABELS}, {PROBS})",
    "tf.constant([1.5], dtype=tf.uint8)",
]
CASES = SHAPES + DTYPES + NARROW
#: Cases whose exception message minitape must match word for word.
MESSAGES = {c for c in SHAPES if "merge_with" in c or "as_list" in c or "len(" in c or "list(" in c or "[-1]" in c
            or "[2.5]" in c or "('a')" in c} | {"tf.bool.min", "tf.bool.max"}


def record(tf: object, case: str) -> dict:
    """One case's answer: ``{"repr": ...}`` or ``{"raises": type name, "message": text}``."""
    try:
        value = eval(case, {"tf": tf, "np": np})
    except Exception as error:      # noqa: BLE001 - what is raised is what is recorded
        return {"raises": type(error).__name__, "message": str(error)}
    return {"repr": repr(value)}


def main() -> None:
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf
    OUT.write_text(json.dumps({case: record(tf, case) for case in CASES}, indent=1) + "\n")
    print(f"wrote {len(CASES)} cases to {OUT}")


if __name__ == "__main__":
    main()
