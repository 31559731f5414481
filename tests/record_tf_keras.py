"""Record TensorFlow 2.21's Keras figures for tests/test_keras_tf.py (run by hand, never by CI).

    /tmp/tfvenv/bin/python tests/record_tf_keras.py      # writes tests/data/tf_keras.npz

Three kinds of record, each built the same way in both libraries from the specs below,
with the same weights (drawn here by NumPy and set into the layers):

* ``layer/<case>``: one layer's output for a seeded input, and the gradients of
  ``sum(output * upstream)`` with respect to the input and to each trainable weight; for
  BatchNormalization the moving statistics after the call too.
* ``recompute_bn``: a BatchNormalization layer called (training) under ``tf.recompute_grad``,
  then differentiated: its moving mean after the forward pass and after the backward pass
  (TF 2.21 updates it a second time while recomputing; minitape does not, on purpose).
* ``fit/<case>``: a model compiled and fitted with ``shuffle=False``: its initial and final
  weights, ``history.history`` (keys in TF's order), ``evaluate`` and ``predict``.

The specs are plain data, imported by the test; the model builders take the Keras module as
an argument (``keras`` here, ``minitape.keras`` in the test), so both build the same thing.
"""
from __future__ import annotations

import json
import math
import pathlib
from typing import Any

import numpy as np

OUT = pathlib.Path(__file__).parent / "data" / "tf_keras.npz"

# name: (layer class, constructor kwargs, input shape, call kwargs)
LAYERS = {
    "conv_same_relu": ("Conv2D", {"filters": 3, "kernel_size": 3, "padding": "same", "activation": "relu"},
                       (2, 5, 5, 2), {}),
    "conv_valid_strided": ("Conv2D", {"filters": 4, "kernel_size": (3, 2), "strides": 2}, (2, 7, 6, 3), {}),
    "conv_dilated_no_bias": ("Conv2D", {"filters": 2, "kernel_size": 3, "dilation_rate": 2, "padding": "same",
                                        "use_bias": False}, (1, 6, 6, 2), {}),
    "max_pool_same": ("MaxPooling2D", {"pool_size": 3, "strides": 2, "padding": "same"}, (2, 5, 6, 3), {}),
    "max_pool_default": ("MaxPooling2D", {}, (2, 5, 4, 2), {}),
    "avg_pool_valid": ("AveragePooling2D", {"pool_size": 2}, (2, 5, 5, 2), {}),
    "avg_pool_same": ("AveragePooling2D", {"pool_size": 3, "strides": 2, "padding": "same"}, (1, 5, 5, 2), {}),
    "global_avg_pool": ("GlobalAveragePooling2D", {}, (2, 4, 4, 3), {}),
    "bn_training": ("BatchNormalization", {}, (4, 3, 3, 2), {"training": True}),
    "bn_inference": ("BatchNormalization", {}, (4, 3, 3, 2), {"training": False}),
    "bn_axis1": ("BatchNormalization", {"axis": 1, "momentum": 0.9, "epsilon": 0.01}, (3, 4, 2), {"training": True}),
    "bn_default_call": ("BatchNormalization", {}, (5, 3), {}),
    "layer_norm": ("LayerNormalization", {}, (3, 5), {}),
    "layer_norm_axes": ("LayerNormalization", {"axis": [1, 2], "epsilon": 0.1}, (2, 3, 4), {}),
    "dense_softmax": ("Dense", {"units": 4, "activation": "softmax"}, (3, 5), {}),
    "flatten": ("Flatten", {}, (2, 3, 2, 2), {}),
    "activation_tanh": ("Activation", {"activation": "tanh"}, (2, 3), {}),
    "embedding": ("Embedding", {"input_dim": 6, "output_dim": 3}, (2, 4), {}),
}

# name: (builder, compile kwargs, fit kwargs, data: (examples, labels kind, classes))
FITS = {
    "cnn_adam": ("small_cnn", {"optimizer": ("Adam", {"learning_rate": 0.01}), "loss": "sparse_categorical_crossentropy",
                               "metrics": ["accuracy"]},
                 {"batch_size": 4, "epochs": 3, "shuffle": False, "validation": True}, (10, "sparse", 3)),
    "mlp_sgd_onehot": ("layer_norm_mlp", {"optimizer": ("SGD", {"learning_rate": 0.1, "momentum": 0.9}),
                                          "loss": "categorical_crossentropy",
                                          "metrics": ["categorical_accuracy", "accuracy"]},
                       {"batch_size": 5, "epochs": 3, "shuffle": False, "validation": False}, (12, "onehot", 3)),
    "embedding_rmsprop_mse": ("embedding_regressor", {"optimizer": "rmsprop", "loss": "mse", "metrics": ["mse"]},
                              {"batch_size": 5, "epochs": 2, "shuffle": False, "validation_split": 0.25},
                              (12, "regression", 40)),
    "residual_sgd": ("residual", {"optimizer": "sgd", "loss": "sparse_categorical_crossentropy",
                                  "metrics": ["sparse_categorical_accuracy"]},
                     {"batch_size": 3, "epochs": 2, "shuffle": False, "validation": True}, (7, "sparse", 2)),
}


def small_cnn(keras: Any) -> Any:
    layers = keras.layers
    return keras.Sequential([
        layers.Conv2D(4, 3, padding="same", activation="relu", kernel_initializer="he_normal"),
        layers.BatchNormalization(),
        layers.MaxPooling2D(),
        layers.Conv2D(6, 3, activation="relu"),
        layers.AveragePooling2D(2, padding="same"),
        layers.Flatten(),
        layers.Dense(3, activation="softmax"),
    ])


def layer_norm_mlp(keras: Any) -> Any:
    layers = keras.layers
    return keras.Sequential([layers.Dense(8, activation="tanh"), layers.LayerNormalization(),
                             layers.Dense(3, activation="softmax")])


def embedding_regressor(keras: Any) -> Any:
    layers = keras.layers
    return keras.Sequential([layers.Embedding(40, 4), layers.Flatten(), layers.Dense(1)])


def residual(keras: Any) -> Any:
    """Conv-BN-ReLU-Conv-BN + skip, then pooling and a softmax: a subclassed model, as in the notebook."""
    layers = keras.layers

    class Residual(keras.Model):
        def __init__(self) -> None:
            super().__init__()
            self.conv1 = layers.Conv2D(3, 3, padding="same")
            self.bn1 = layers.BatchNormalization()
            self.conv2 = layers.Conv2D(3, 3, padding="same")
            self.bn2 = layers.BatchNormalization()
            self.add = layers.Add()
            self.pool = layers.GlobalAveragePooling2D()
            self.out = layers.Dense(2, activation="softmax")

        def call(self, x: Any, training: Any = None) -> Any:
            h = keras.activations.relu(self.bn1(self.conv1(x)))     # training reaches bn1 from the outer call
            h = self.bn2(self.conv2(h), training=training)
            return self.out(self.pool(keras.activations.relu(self.add([x, h]))))

    return Residual()


def named_cnn(keras: Any) -> Any:
    """A CNN whose layers are all named, for comparing ``summary()`` text."""
    layers = keras.layers
    return keras.Sequential([
        layers.Conv2D(4, 3, name="conv"), layers.BatchNormalization(name="batch_normalization"),
        layers.MaxPooling2D(name="pool"), layers.Flatten(name="flatten"),
        layers.Dense(10, activation="softmax", name="classifier_with_a_long_name"),
    ], name="named_cnn")


def record_summary(keras: Any, record: dict[str, Any]) -> None:
    """``summary()`` after one epoch of ``fit`` (so output shapes and the optimiser's variables are known)."""
    model = named_cnn(keras)
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
    model.fit(np.ones((4, 6, 6, 1), "float32"), np.zeros(4, "int32"), verbose=0)
    printed: list[str] = []
    model.summary(print_fn=lambda text, **kwargs: printed.append(text))
    record["summary/named_cnn"] = np.array("".join(printed))


BUILDERS = {f.__name__: f for f in (small_cnn, layer_norm_mlp, embedding_regressor, residual)}
INPUT_SHAPES = {"small_cnn": (6, 6, 1), "layer_norm_mlp": (4,), "embedding_regressor": (2,), "residual": (4, 4, 3)}


def layer_input(name: str) -> np.ndarray:
    """A seeded input: integer ids (some repeated) for an Embedding, normal floats otherwise."""
    rng = np.random.default_rng(sorted(LAYERS).index(name))
    cls, kwargs, shape, _ = LAYERS[name]
    if cls == "Embedding":
        return rng.integers(0, kwargs["input_dim"], shape).astype("int32")
    return rng.normal(size=shape).astype("float32")


def upstream(shape: tuple[int, ...]) -> np.ndarray:
    """The gradient flowing into a layer's output: the tests differentiate ``sum(output * upstream)``."""
    return np.random.default_rng(50).uniform(0.5, 1.5, shape).astype("float32")


def run_layer(tf: Any, layer: Any, name: str) -> tuple[Any, list]:
    """A layer case's output, and its gradients with respect to the input (unless it holds ids) and the
    trainable weights; ``tf`` is TensorFlow or minitape, which speak the same dialect here."""
    x = tf.constant(layer_input(name))
    sources = ([x] if x.dtype.is_floating else []) + list(layer.trainable_weights)
    with tf.GradientTape() as tape:
        tape.watch(sources[:1] if x.dtype.is_floating else [])
        out = layer(x, **LAYERS[name][3])
        loss = tf.reduce_sum(out * tf.constant(upstream(tuple(out.shape))))
    return out, tape.gradient(loss, sources)


def weights_for(shapes: list[tuple[int, ...]], names: list[str], seed: int) -> list[np.ndarray]:
    """Seeded weights: variances positive, everything else normal(0, 0.5)."""
    rng = np.random.default_rng(seed)
    return [(rng.uniform(0.5, 1.5, shape) if "variance" in name else rng.normal(0, 0.5, shape)).astype("float32")
            for shape, name in zip(shapes, names)]


def fit_data(name: str) -> dict[str, np.ndarray]:
    """The examples of a fit case: inputs, labels, and validation inputs and labels."""
    builder, _, _, (examples, kind, classes) = FITS[name]
    rng = np.random.default_rng(1000 + sorted(FITS).index(name))

    def make(n: int) -> tuple[np.ndarray, np.ndarray]:
        shape = (n, *INPUT_SHAPES[builder])
        if kind == "regression":
            # Ids, none repeated: TF's embedding gradient is IndexedSlices, one slice per use, and Keras'
            # optimisers square each slice apart, so a repeated id would get another update than minitape's
            # dense gradient gives it (the sum of its slices, squared).
            x = rng.permutation(classes)[:math.prod(shape)].reshape(shape).astype("int32")
            y = rng.normal(size=(n, 1)).astype("float32")
        else:
            x = rng.normal(size=shape).astype("float32")
            y = rng.integers(0, classes, n)
            y = np.eye(classes, dtype="float32")[y] if kind == "onehot" else y.astype("int32")
        return x, y

    (x, y), (x_val, y_val) = make(examples), make(6)
    return {"x": x, "y": y, "x_val": x_val, "y_val": y_val}


def compile_args(keras: Any, name: str) -> dict[str, Any]:
    args = dict(FITS[name][1])
    if isinstance(args["optimizer"], tuple):
        cls, kwargs = args["optimizer"]
        args["optimizer"] = getattr(keras.optimizers, cls)(**kwargs)
    return args


def fit_args(name: str, data: dict[str, np.ndarray]) -> dict[str, Any]:
    args = dict(FITS[name][2])
    if args.pop("validation", False):
        args["validation_data"] = (data["x_val"], data["y_val"])
    return args


def record_layers(keras: Any, tf: Any, record: dict[str, Any]) -> None:
    for name, (cls, kwargs, shape, _) in sorted(LAYERS.items()):
        layer = getattr(keras.layers, cls)(**kwargs)
        layer.build(shape)
        if layer.weights:
            layer.set_weights(weights_for([tuple(w.shape) for w in layer.weights], [w.name for w in layer.weights],
                                          seed=sorted(LAYERS).index(name)))
        out, grads = run_layer(tf, layer, name)
        record[f"layer/{name}/output"] = out.numpy()
        for k, g in enumerate(grads):
            record[f"layer/{name}/grad{k}"] = tf.convert_to_tensor(g).numpy()     # an Embedding's is IndexedSlices
        for k, w in enumerate(layer.weights):
            record[f"layer/{name}/weight{k}"] = np.asarray(w.numpy())     # after the call: moving statistics moved


def record_recompute_bn(keras: Any, tf: Any, record: dict[str, Any]) -> None:
    bn = keras.layers.BatchNormalization()
    x = tf.constant(np.random.default_rng(7).normal(size=(4, 3)).astype("float32"))
    bn.build(x.shape)
    block = tf.recompute_grad(lambda x: bn(x, training=True))
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_sum(block(x) ** 2 * x)
    record["recompute_bn/x"] = x.numpy()
    record["recompute_bn/after_forward"] = np.asarray(bn.moving_mean.numpy())
    grads = tape.gradient(loss, [x, *bn.trainable_weights])
    record["recompute_bn/after_backward"] = np.asarray(bn.moving_mean.numpy())
    for k, g in enumerate(grads):
        record[f"recompute_bn/grad{k}"] = g.numpy()


def record_fits(keras: Any, record: dict[str, Any]) -> None:
    for name in sorted(FITS):
        keras.utils.set_random_seed(sorted(FITS).index(name))
        builder = FITS[name][0]
        data = fit_data(name)
        model = BUILDERS[builder](keras)
        model(data["x"][:1])                                      # build
        model.set_weights(weights_for([tuple(w.shape) for w in model.weights], [w.name for w in model.weights],
                                      seed=100 + sorted(FITS).index(name)))
        record[f"fit/{name}/weight_names"] = np.array(json.dumps([w.name for w in model.weights]))
        for k, w in enumerate(model.get_weights()):
            record[f"fit/{name}/initial{k}"] = w
        model.compile(**compile_args(keras, name))
        history = model.fit(data["x"], data["y"], verbose=0, **fit_args(name, data))
        record[f"fit/{name}/history"] = np.array(json.dumps(history.history))
        record[f"fit/{name}/evaluate"] = np.array(model.evaluate(data["x_val"], data["y_val"], verbose=0))
        record[f"fit/{name}/predict"] = model.predict(data["x_val"], verbose=0)
        for k, w in enumerate(model.get_weights()):
            record[f"fit/{name}/final{k}"] = w


def main() -> None:
    import os
    os.environ["COLUMNS"] = "200"           # Keras' table is 88 wide unless the terminal is narrower
    import keras
    import tensorflow as tf

    record: dict[str, Any] = {}
    record_layers(keras, tf, record)
    record_recompute_bn(keras, tf, record)
    record_fits(keras, record)
    record_summary(keras, record)
    OUT.parent.mkdir(exist_ok=True)
    np.savez_compressed(OUT, tf_version=np.array(tf.__version__), keras_version=np.array(keras.__version__), **record)
    print(f"wrote {len(LAYERS)} layers, {len(FITS)} fits, {OUT.stat().st_size} bytes, TF {tf.__version__}, "
          f"Keras {keras.__version__}, to {OUT}")


if __name__ == "__main__":
    main()
