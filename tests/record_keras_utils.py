"""Record Keras 3.15's ``keras.backend``, ``keras.utils`` and ``keras.random`` answers for tests/test_keras_utils.py
(run by hand, never by CI).

    /tmp/tfvenv/bin/python tests/record_keras_utils.py      # writes tests/data/keras_utils.json

Each case is a function of a Keras namespace (TensorFlow's ``tf.keras``, or ``minitape.keras``) and
``np``, run on fixed inputs; ``describe`` turns what it returns into plain data (arrays and tensors as
values, dtype and shape; Pillow images as mode, size and pixels; exceptions as type and text).
"""
from __future__ import annotations

import io
import json
import pathlib
from typing import Any

import numpy as np

OUT = pathlib.Path(__file__).parent / "data" / "keras_utils.json"
PIXELS = (np.arange(4 * 6 * 3).reshape(4, 6, 3) % 7 / 7.0).astype("float32")


def _names(keras: Any) -> list[str]:
    keras.backend.clear_session()
    first = [keras.layers.Dense(1).name, keras.layers.Dense(1).name]
    keras.backend.clear_session()
    return first + [keras.layers.Dense(1).name, keras.backend.get_uid("dense"), keras.backend.get_uid("other")]


def _saved(keras: Any, x: Any, **load: Any) -> Any:
    file = io.BytesIO()
    keras.utils.save_img(file, x, file_format="png")
    return keras.utils.img_to_array(keras.utils.load_img(io.BytesIO(file.getvalue()), **load))


def _set_value(keras: Any, tf: Any) -> Any:
    v = tf.Variable([1.0, 2.0])
    keras.backend.set_value(v, [3, 4])
    return v.numpy()


CASES: dict[str, Any] = {
    # keras.backend
    "clear_session_names": lambda keras, tf: _names(keras),
    "settings": lambda keras, tf: [keras.backend.epsilon(), keras.backend.floatx(),
                                   keras.backend.image_data_format(), keras.backend.backend()],
    "config": lambda keras, tf: [keras.config.epsilon(), keras.config.floatx(), keras.config.backend()],
    "get_value_variable": lambda keras, tf: keras.backend.get_value(tf.Variable([1.0, 2.0])),
    "get_value_scalar": lambda keras, tf: keras.backend.get_value(tf.constant(1.5)),
    "get_value_ints": lambda keras, tf: keras.backend.get_value(tf.constant([1, 2])),
    "set_value": _set_value,
    "std": lambda keras, tf: keras.backend.std(tf.constant([[1.0, 3.0], [2.0, 2.0]]), axis=1),
    "std_keepdims": lambda keras, tf: keras.backend.std(tf.constant([[1.0, 3.0]]), axis=1, keepdims=True),
    "std_all": lambda keras, tf: keras.backend.std(tf.constant([[1.0, 3.0], [2.0, 6.0]])),
    "std_ints": lambda keras, tf: keras.backend.std(tf.constant([[1, 3]])),
    "constant_ints": lambda keras, tf: keras.backend.constant([1, 2]),
    "constant_dtype": lambda keras, tf: keras.backend.constant(1.0, dtype="float64"),
    "square": lambda keras, tf: keras.backend.square(tf.constant([2.0, -3.0])),
    "transpose": lambda keras, tf: keras.backend.transpose(tf.constant([[1.0, 2.0, 3.0]])),
    "random_normal": lambda keras, tf: [keras.backend.random_normal((2, 3)).shape.as_list(),
                                        keras.backend.random_normal((2,)).dtype.name],
    "is_keras_tensor": lambda keras, tf: [keras.backend.is_keras_tensor(keras.Input((2,))),
                                          keras.backend.is_keras_tensor(tf.ones(2))],
    "standardize_dtype": lambda keras, tf: [keras.backend.standardize_dtype(d) for d in ("float32", tf.int64)],
    "result_type": lambda keras, tf: [keras.backend.result_type("int32", "float32"),
                                      keras.backend.result_type("int32", "int64"),
                                      keras.backend.result_type("float32", "float64")],
    # keras.utils: data
    "to_categorical": lambda keras, tf: keras.utils.to_categorical(np.array([0, 2, 1]), 3),
    "to_categorical_column": lambda keras, tf: keras.utils.to_categorical([[1], [0]]),
    "to_categorical_2d": lambda keras, tf: keras.utils.to_categorical(np.array([[1, 2], [0, 1]])),
    "to_categorical_tensor": lambda keras, tf: keras.utils.to_categorical(tf.constant([1, 0]), 2),
    "normalize": lambda keras, tf: keras.utils.normalize(np.array([[3.0, 4.0], [0.0, 0.0]])),
    "normalize_l1_axis0": lambda keras, tf: keras.utils.normalize(np.array([[3, 4], [1, 0]]), axis=0, order=1),
    "pad_sequences": lambda keras, tf: keras.utils.pad_sequences([[1, 2], [3]], maxlen=3),
    "pad_sequences_post": lambda keras, tf: keras.utils.pad_sequences([[1, 2, 3, 4], [3]], maxlen=3,
                                                                       padding="post", truncating="post", value=9),
    "pad_sequences_longest": lambda keras, tf: keras.utils.pad_sequences([[1, 2, 3, 4], [3], []]),
    "pad_sequences_floats": lambda keras, tf: keras.utils.pad_sequences([[1.5], [2.5, 3.5]], dtype="float32"),
    "pad_sequences_bad": lambda keras, tf: keras.utils.pad_sequences([[1]], padding="mid"),
    # keras.utils: images
    "array_to_img": lambda keras, tf: keras.utils.array_to_img(PIXELS),
    "array_to_img_gray": lambda keras, tf: keras.utils.array_to_img(PIXELS[:, :, :1]),
    "array_to_img_unscaled": lambda keras, tf: keras.utils.array_to_img(PIXELS * 100, scale=False),
    "img_to_array": lambda keras, tf: keras.utils.img_to_array(keras.utils.array_to_img(PIXELS)),
    "img_to_array_first": lambda keras, tf: keras.utils.img_to_array(keras.utils.array_to_img(PIXELS),
                                                                     data_format="channels_first"),
    "roundtrip": lambda keras, tf: _saved(keras, PIXELS),
    "load_gray_resized": lambda keras, tf: _saved(keras, PIXELS, color_mode="grayscale", target_size=(2, 3)),
    "load_rgba": lambda keras, tf: _saved(keras, PIXELS, color_mode="rgba"),
    "load_bilinear": lambda keras, tf: _saved(keras, PIXELS, target_size=(3, 3), interpolation="bilinear"),
    "load_aspect": lambda keras, tf: _saved(keras, PIXELS, target_size=(4, 2), keep_aspect_ratio=True),
    "load_bad_mode": lambda keras, tf: _saved(keras, PIXELS, color_mode="cmyk"),
    # keras.random
    "random_dtypes": lambda keras, tf: [keras.random.normal((2, 3), seed=1).shape.as_list(),
                                        keras.random.uniform((2,), seed=1).dtype.name,
                                        keras.random.randint((3,), 0, 5, seed=1).dtype.name,
                                        keras.random.categorical(np.log([[0.5, 0.5]]), 4, seed=1).shape.as_list()],
    "random_int_seed_repeats": lambda keras, tf: bool(np.array_equal(keras.random.normal((3,), seed=5),
                                                                     keras.random.normal((3,), seed=5))),
    "random_generator_advances": lambda keras, tf: (
        lambda g: bool(np.array_equal(keras.random.normal((3,), seed=g), keras.random.normal((3,), seed=g))))(
        keras.random.SeedGenerator(3)),
}


def describe(result: Any) -> Any:
    """Plain data for what a case returned."""
    if isinstance(result, BaseException):
        return {"raises": type(result).__name__, "text": str(result)}
    if hasattr(result, "getpixel"):                               # a Pillow image
        return {"mode": result.mode, "size": list(result.size), "pixels": np.asarray(result).tolist()}
    if isinstance(result, list):
        return [describe(item) for item in result]
    if isinstance(result, (bool, int, float, str)):
        return result
    array = np.asarray(result)
    kind = "ndarray" if isinstance(result, np.ndarray) else "numpy scalar" if isinstance(result, np.generic) \
        else "tensor"
    return {"value": array.tolist(), "dtype": array.dtype.name, "shape": list(array.shape), "type": kind}


def run(name: str, keras: Any, tf: Any) -> Any:
    try:
        return describe(CASES[name](keras, tf))
    except Exception as error:  # noqa: BLE001  (what is raised is recorded)
        return describe(error)


if __name__ == "__main__":
    import tensorflow as tf
    OUT.write_text(json.dumps({name: run(name, tf.keras, tf) for name in CASES}, indent=1) + "\n")
    print(OUT)
