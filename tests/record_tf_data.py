"""Record what TensorFlow 2.21's tf.data reports (run by hand, never by CI).

    /tmp/tfvenv/bin/python tests/record_tf_data.py      # writes tests/data/tf_data.json

Each scenario is a dataset built by a function of the ``tf`` module (TensorFlow here,
minitape in tests/test_data_tf.py); what is recorded is plain data: the elements, the
element_spec and repr, the cardinality and ``len`` (or the error it raises).  Random
order (``shuffle``) is not recorded: TF's random streams are not minitape's; the tests check
shuffle's properties instead.  Errors are recorded as their type and text.
"""
from __future__ import annotations

import json
import pathlib
from typing import Any

import numpy as np

OUT = pathlib.Path(__file__).parent / "data" / "tf_data.json"


def plain(value: Any) -> Any:
    """Elements as JSON: arrays as nested lists (with their dtype), bytes as text, datasets as their elements."""
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, tuple | list):
        return [plain(item) for item in value]
    if hasattr(value, "element_spec") and hasattr(value, "reduce"):
        return ["dataset", [plain(item) for item in value]]
    if hasattr(value, "numpy"):
        value = value.numpy()
    if isinstance(value, bytes):
        return value.decode()
    array = np.asarray(value)
    if array.dtype.kind == "S":
        return [plain(item) for item in array.tolist()] if array.ndim else array.item().decode()
    return [array.dtype.name, array.tolist()]


def report(tf: Any, build: Any) -> dict[str, Any]:
    """What a user sees of one dataset, or the error building or iterating it raises."""
    try:
        ds = build(tf)
        found = {"repr": repr(ds), "spec": repr(ds.element_spec), "cardinality": int(ds.cardinality())}
        try:
            found["len"] = len(ds)
        except TypeError as error:
            found["len"] = [type(error).__name__, str(error)]
        if found["cardinality"] != -1:
            found["elements"] = [plain(element) for element in ds]
        else:
            found["elements"] = [plain(element) for element in ds.take(7)]
        return found
    except Exception as error:      # noqa: BLE001 -- the error is what is recorded
        return {"error": [type(error).__name__, str(error).split("\n")[0]]}


def _generator_values(tf: Any) -> Any:
    def pairs():
        for i in range(3):
            yield i, [float(i)] * i
    return tf.data.Dataset.from_generator(pairs, output_signature=(tf.TensorSpec((), tf.int64),
                                                                   tf.TensorSpec((None,), tf.float32)))


def _generator_old_style(tf: Any) -> Any:
    def rows():
        yield {"a": 1, "b": [1.0, 2.0]}
        yield {"a": 2, "b": [3.0, 4.0]}
    return tf.data.Dataset.from_generator(rows, output_types={"a": tf.int32, "b": tf.float32},
                                          output_shapes={"a": (), "b": (2,)})


def _generator_args(tf: Any) -> Any:
    def count(n):
        yield from range(int(n))
    return tf.data.Dataset.from_generator(count, output_types=tf.int64, args=(3,))


def _generator_wrong_shape(tf: Any) -> Any:
    return tf.data.Dataset.from_generator(lambda: iter([[1, 2, 3]]), output_signature=tf.TensorSpec((), tf.int32))


def _generator_wrong_type(tf: Any) -> Any:
    return tf.data.Dataset.from_generator(lambda: iter(["x"]), output_signature=tf.TensorSpec((), tf.int32))


def _generator_float_to_int(tf: Any) -> Any:
    return tf.data.Dataset.from_generator(lambda: iter([1.5, 2.0]), output_signature=tf.TensorSpec((), tf.int32))


def _images(tf: Any) -> Any:
    x, y = np.arange(24, dtype=np.uint8).reshape(6, 2, 2), np.arange(6)
    return tf.data.Dataset.from_tensor_slices((x, y)).map(lambda i, l: (tf.cast(i, tf.float32) / 255.0, l)).batch(4)


def _zip_nested(tf: Any) -> Any:
    r = tf.data.Dataset.range
    return tf.data.Dataset.zip((r(3), (r(4), r(5).map(lambda x: x * 2))))


def _zip_dict(tf: Any) -> Any:
    r = tf.data.Dataset.range
    return tf.data.Dataset.zip({"a": r(2), "b": r(3).map(lambda x: tf.cast(x, tf.float32))})


def _padded(tf: Any) -> Any:
    lengths = tf.data.Dataset.range(1, 5).map(lambda n: tf.fill([n], n))
    return lengths.padded_batch(2, padded_shapes=[5], padding_values=tf.constant(-1, tf.int64))


def _padded_tuple(tf: Any) -> Any:
    ds = tf.data.Dataset.range(1, 4).map(lambda n: (tf.fill([n, 2], 1.0), n))
    return ds.padded_batch(2, drop_remainder=True)


def _window_tuple(tf: Any) -> Any:
    return tf.data.Dataset.zip((tf.data.Dataset.range(5), tf.data.Dataset.range(5))).window(2, shift=2, stride=2)


# name -> a function of tf building the dataset
DATASETS: dict[str, Any] = {
    "slices_list": lambda tf: tf.data.Dataset.from_tensor_slices([1, 2, 3]),
    "slices_floats": lambda tf: tf.data.Dataset.from_tensor_slices([[1.0, 2.0], [3.0, 4.0]]),
    "slices_array64": lambda tf: tf.data.Dataset.from_tensor_slices(np.arange(6.0).reshape(3, 2)),
    "slices_tensor": lambda tf: tf.data.Dataset.from_tensor_slices(tf.constant([[1, 2], [3, 4]])),
    "slices_tuple": lambda tf: tf.data.Dataset.from_tensor_slices((np.ones((3, 2), np.float32), np.arange(3))),
    "slices_dict": lambda tf: tf.data.Dataset.from_tensor_slices({"b": [1.0, 2.0], "a": [[1, 2], [3, 4]]}),
    "slices_nested": lambda tf: tf.data.Dataset.from_tensor_slices(({"x": [1, 2], "y": [3.0, 4.0]}, [5, 6])),
    "slices_strings": lambda tf: tf.data.Dataset.from_tensor_slices(["ab", "c"]),
    "slices_scalar": lambda tf: tf.data.Dataset.from_tensor_slices(5),
    "slices_mismatch": lambda tf: tf.data.Dataset.from_tensor_slices(([1, 2, 3], [1, 2])),
    "tensors": lambda tf: tf.data.Dataset.from_tensors(([1, 2], 3.0)),
    "range_1": lambda tf: tf.data.Dataset.range(4),
    "range_3": lambda tf: tf.data.Dataset.range(10, 2, -3),
    "range_dtype": lambda tf: tf.data.Dataset.range(3, output_type=tf.int32),
    "range_empty": lambda tf: tf.data.Dataset.range(0),
    "generator": _generator_values,
    "generator_old_style": _generator_old_style,
    "generator_args": _generator_args,
    "generator_wrong_shape": _generator_wrong_shape,
    "generator_wrong_type": _generator_wrong_type,
    "generator_float_to_int": _generator_float_to_int,
    "zip_args": lambda tf: tf.data.Dataset.zip(tf.data.Dataset.range(2), tf.data.Dataset.range(5, 9)),
    "zip_nested": _zip_nested,
    "zip_dict": _zip_dict,
    "zip_not_dataset": lambda tf: tf.data.Dataset.zip((tf.data.Dataset.range(2), [1, 2])),
    "zip_infinite": lambda tf: tf.data.Dataset.zip(tf.data.Dataset.range(2).repeat(), tf.data.Dataset.range(3)),
    "concatenate": lambda tf: tf.data.Dataset.range(2).concatenate(tf.data.Dataset.range(10, 12)),
    "concatenate_relaxed": lambda tf: tf.data.Dataset.from_tensors([1, 2]).concatenate(
        tf.data.Dataset.from_tensors([3])),
    "concatenate_bad": lambda tf: tf.data.Dataset.range(2).concatenate(tf.data.Dataset.from_tensors(1.0)),
    "batch": lambda tf: tf.data.Dataset.range(7).batch(3),
    "batch_drop": lambda tf: tf.data.Dataset.range(7).batch(3, drop_remainder=True),
    "batch_tuple": lambda tf: tf.data.Dataset.from_tensor_slices((np.ones((5, 2)), np.arange(5))).batch(2),
    "batch_dict_drop": lambda tf: tf.data.Dataset.from_tensor_slices({"x": np.ones((5, 2))}).batch(2, True),
    "batch_zero": lambda tf: tf.data.Dataset.range(3).batch(0),
    "batch_ragged": lambda tf: tf.data.Dataset.range(1, 4).map(lambda n: tf.fill([n], n)).batch(2),
    "batch_batch": lambda tf: tf.data.Dataset.range(8).batch(2).batch(2, drop_remainder=True),
    "batch_repeat": lambda tf: tf.data.Dataset.range(5).batch(2).repeat(),
    "padded": _padded,
    "padded_tuple": _padded_tuple,
    "unbatch": lambda tf: tf.data.Dataset.range(6).batch(4).unbatch(),
    "unbatch_known": lambda tf: tf.data.Dataset.range(6).batch(2, drop_remainder=True).unbatch(),
    "unbatch_tuple": lambda tf: tf.data.Dataset.from_tensors(([[1, 2], [3, 4]], [5, 6])).unbatch(),
    "map": lambda tf: tf.data.Dataset.range(4).map(lambda x: x * x),
    "map_parallel": lambda tf: tf.data.Dataset.range(4).map(lambda x: x + 1, num_parallel_calls=tf.data.AUTOTUNE),
    "map_tuple_args": lambda tf: tf.data.Dataset.from_tensor_slices(([1, 2], [3, 4])).map(lambda a, b: a * b),
    "map_dict_arg": lambda tf: tf.data.Dataset.from_tensor_slices({"a": [1, 2], "b": [3, 4]}).map(
        lambda d: d["a"] + d["b"]),
    "map_to_tuple": lambda tf: tf.data.Dataset.range(3).map(lambda x: (x, tf.cast(x, tf.float32) / 2)),
    "map_to_list": lambda tf: tf.data.Dataset.range(2).map(lambda x: [x, x + 1]),
    "map_to_dict": lambda tf: tf.data.Dataset.range(2).map(lambda x: {"v": x, "w": tf.fill([2], x)}),
    "map_python_number": lambda tf: tf.data.Dataset.range(2).map(lambda x: 1.5),
    "map_images": _images,
    "filter": lambda tf: tf.data.Dataset.range(10).filter(lambda x: x % 3 == 0),
    "filter_not_bool": lambda tf: tf.data.Dataset.range(10).filter(lambda x: x),
    "flat_map": lambda tf: tf.data.Dataset.range(4).flat_map(lambda n: tf.data.Dataset.range(n)),
    "flat_map_slices": lambda tf: tf.data.Dataset.from_tensors([[1, 2], [3, 4]]).flat_map(
        tf.data.Dataset.from_tensor_slices),
    "interleave": lambda tf: tf.data.Dataset.range(1, 4).interleave(
        lambda n: tf.data.Dataset.from_tensors(n).repeat(n), cycle_length=2),
    "interleave_block": lambda tf: tf.data.Dataset.range(1, 4).interleave(
        lambda n: tf.data.Dataset.range(10 * n, 10 * n + 4), cycle_length=2, block_length=3),
    "repeat_3": lambda tf: tf.data.Dataset.range(2).repeat(3),
    "repeat_forever": lambda tf: tf.data.Dataset.range(3).repeat(),
    "repeat_zero": lambda tf: tf.data.Dataset.range(3).repeat(0),
    "repeat_empty_forever": lambda tf: tf.data.Dataset.range(0).repeat(),
    "repeat_unknown": lambda tf: tf.data.Dataset.range(3).filter(lambda x: x > 0).repeat(2),
    "take": lambda tf: tf.data.Dataset.range(10).take(3),
    "take_all": lambda tf: tf.data.Dataset.range(3).take(-1),
    "take_more": lambda tf: tf.data.Dataset.range(3).take(10),
    "take_forever": lambda tf: tf.data.Dataset.range(3).repeat().take(5),
    "take_unknown": lambda tf: tf.data.Dataset.range(5).filter(lambda x: x > 1).take(2),
    "take_zero_unknown": lambda tf: tf.data.Dataset.range(5).filter(lambda x: x > 1).take(0),
    "skip": lambda tf: tf.data.Dataset.range(5).skip(2),
    "skip_all": lambda tf: tf.data.Dataset.range(5).skip(-1),
    "skip_more": lambda tf: tf.data.Dataset.range(5).skip(9),
    "skip_forever": lambda tf: tf.data.Dataset.range(5).repeat().skip(3),
    "take_while": lambda tf: tf.data.Dataset.range(10).take_while(lambda x: x < 4),
    "enumerate": lambda tf: tf.data.Dataset.from_tensor_slices(["a", "b"]).enumerate(start=5),
    "cache": lambda tf: tf.data.Dataset.range(3).map(lambda x: x * 2).cache(),
    "prefetch": lambda tf: tf.data.Dataset.range(3).prefetch(tf.data.AUTOTUNE),
    "prefetch_batch": lambda tf: tf.data.Dataset.range(5).batch(2).prefetch(1),
    "window": lambda tf: tf.data.Dataset.range(7).window(3),
    "window_shift": lambda tf: tf.data.Dataset.range(7).window(3, shift=1),
    "window_drop": lambda tf: tf.data.Dataset.range(7).window(3, shift=2, drop_remainder=True),
    "window_stride": lambda tf: tf.data.Dataset.range(10).window(3, shift=4, stride=2),
    "window_big_shift": lambda tf: tf.data.Dataset.range(10).window(2, shift=5),
    "window_tuple": _window_tuple,
    "window_flat_map": lambda tf: tf.data.Dataset.range(6).window(3, 1, drop_remainder=True).flat_map(
        lambda w: w.batch(3)),
    "shuffle_zero": lambda tf: tf.data.Dataset.range(3).shuffle(0),
    "shuffle_card": lambda tf: tf.data.Dataset.range(3).shuffle(10).batch(3).map(tf.reduce_sum),
    "autotune": lambda tf: tf.data.Dataset.from_tensors([tf.data.AUTOTUNE, tf.data.experimental.AUTOTUNE,
                                                         tf.data.INFINITE_CARDINALITY, tf.data.UNKNOWN_CARDINALITY]),
}


def others(tf: Any) -> dict[str, Any]:
    """Answers that are not a dataset's elements: reduce, as_numpy_iterator, experimental.cardinality."""
    ds = tf.data.Dataset.range(5)
    words = tf.data.Dataset.from_tensor_slices(["x", "yz"])
    found = {
        "reduce_sum": plain(ds.reduce(np.int64(0), lambda s, x: s + x)),
        "reduce_tuple": plain(ds.reduce((np.int64(0), np.int64(1)), lambda s, x: (s[0] + x, s[1] * (x + 1)))),
        "numpy_iterator_ints": [repr(v) for v in ds.take(2).as_numpy_iterator()],
        "numpy_iterator_strings": [repr(v) for v in words.as_numpy_iterator()],
        "numpy_iterator_batch": [repr(v) for v in ds.batch(3).as_numpy_iterator()],
        "numpy_iterator_dict": [repr(v) for v in tf.data.Dataset.from_tensor_slices({"a": [1]}).as_numpy_iterator()],
        "experimental_cardinality": int(tf.data.experimental.cardinality(ds.repeat())),
        "iter_first": repr(type(next(iter(ds))).__name__),
    }
    try:
        list(ds.window(2).as_numpy_iterator())
    except TypeError as error:
        found["numpy_iterator_window"] = [type(error).__name__, str(error)]
    return found


def keras_on_datasets(tf: Any) -> dict[str, Any]:
    """Keras 3's fit, evaluate and predict on datasets of (x, y) and (x, y, sample_weight) batches."""
    import warnings

    x = np.linspace(-1, 1, 20, dtype=np.float32).reshape(10, 2)
    y = (x @ np.array([[1.5], [-0.5]], np.float32) + 0.25).astype(np.float32)
    w = np.array([1, 0, 2, 1, 1, 0, 1, 2, 1, 1], np.float32)
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer="ones", bias_initializer="zeros")])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse", metrics=["mse"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        weighted = tf.data.Dataset.from_tensor_slices((x, y, w)).batch(4)
        history = model.fit(weighted, epochs=2, validation_data=tf.data.Dataset.from_tensors((x, y)), verbose=0)
        repeated = tf.data.Dataset.from_tensor_slices((x, y)).batch(3).repeat()
        streamed = model.fit(repeated, epochs=2, steps_per_epoch=5, shuffle=False, verbose=0)
    return {
        "history": {name: [round(v, 5) for v in values] for name, values in history.history.items()},
        "streamed": {name: [round(v, 5) for v in values] for name, values in streamed.history.items()},
        "evaluate": [round(v, 5) for v in model.evaluate(tf.data.Dataset.from_tensor_slices((x, y, w)).batch(6),
                                                         verbose=0)],
        "predict": np.round(model.predict(tf.data.Dataset.from_tensor_slices(x).batch(4), verbose=0), 5).tolist(),
    }


def main() -> None:
    import tensorflow as tf

    record = {name: report(tf, build) for name, build in DATASETS.items()}
    record["others"] = others(tf)
    record["keras"] = keras_on_datasets(tf)
    record["versions"] = [tf.__version__]
    OUT.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(DATASETS)} datasets to {OUT}, TF {tf.__version__}")


if __name__ == "__main__":
    main()
