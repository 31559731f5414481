"""Record TensorFlow 2.21's Keras (3.15) for tests/test_keras_attention_tf.py (run by hand, never by CI).

    /tmp/tfvenv/bin/python tests/record_tf_attention.py      # writes tests/data/tf_attention.json

The sequence and image layers of issue #25 on fixed weights: each case builds a layer, sets its
weights with ``set_weights`` to values drawn from a seeded NumPy generator, calls it, and records
the outputs, the gradients of a fixed weighted sum of the outputs with respect to every input and
every weight, the weights' paths and shapes and ``count_params()``.  Each case is a function of the
Keras module and of a tensor module (``tensorflow`` / ``minitape``) returning plain data, so the
test runs the same function with minitape.  ``transformer`` is a pre-norm block (LayerNormalization,
causal MultiHeadAttention, a two-Dense MLP, residual adds): its loss and gradients plain and under
``tf.recompute_grad``.
"""
from __future__ import annotations

import json
import pathlib
from collections.abc import Callable
from typing import Any

import numpy as np

OUT = pathlib.Path(__file__).parent / "data" / "tf_attention.json"


def values(shape: tuple[int, ...], seed: int, scale: float = 0.5) -> np.ndarray:
    """Fixed float32 values of ``shape``: the same in both runs."""
    return (np.random.default_rng(seed).normal(size=shape) * scale).astype(np.float32)


def check(k: Any, tf: Any, layer: Any, inputs: list[np.ndarray], call: Callable, seed: int = 0) -> dict[str, Any]:
    """Build ``layer`` by calling it, set fixed weights, and record outputs and gradients of a weighted sum.

    ``call(layer, tensors)`` calls the layer on the input tensors (as it needs: positionally, as a list...).
    """
    tensors = [tf.constant(x) for x in inputs]
    call(layer, tensors)
    layer.set_weights([values(w.shape, seed + 100 + i) for i, w in enumerate(layer.get_weights())])
    with tf.GradientTape() as tape:
        tape.watch(tensors)
        outputs = call(layer, tensors)
        outputs = list(outputs) if isinstance(outputs, tuple | list) else [outputs]
        loss = tf.add_n([tf.reduce_sum(out * values(tuple(out.shape), seed + 200 + i, 1.0))
                         for i, out in enumerate(outputs)])
    grads = tape.gradient(loss, tensors + list(layer.trainable_weights))
    return {"outputs": [np.asarray(out).tolist() for out in outputs],
            "grads": [None if g is None else np.asarray(g).tolist() for g in grads],
            "weights": [[w.path, list(w.shape)] for w in layer.weights],
            "params": int(layer.count_params())}


def seq(*shape: int, seed: int = 1) -> np.ndarray:
    return values(shape, seed, 1.0)


def causal_then_mask(b: int, t: int) -> np.ndarray:
    """A ``(b, t, t)`` attention mask with a row masked throughout (query 0 of example 0 sees nothing)."""
    mask = np.ones((b, t, t), bool)
    mask[0, 0, :] = False
    mask[1, :, 2] = False
    return mask


def mha(**options: Any) -> Callable:
    return lambda k: k.layers.MultiHeadAttention(name="mha", **options)


MHA_CASES: dict[str, tuple[Callable, list, Callable]] = {
    "mha_self": (mha(num_heads=2, key_dim=3), [seq(2, 4, 5)], lambda layer, x: layer(x[0], x[0])),
    "mha_cross_key": (mha(num_heads=2, key_dim=3, value_dim=2, output_shape=6),
                      [seq(2, 4, 5), seq(2, 3, 4, seed=2), seq(2, 3, 7, seed=3)],
                      lambda layer, x: layer(x[0], x[1], key=x[2])),
    "mha_causal": (mha(num_heads=2, key_dim=3), [seq(2, 4, 5)],
                   lambda layer, x: layer(x[0], x[0], use_causal_mask=True)),
    "mha_causal_scores": (mha(num_heads=2, key_dim=3), [seq(2, 4, 5)],
                          lambda layer, x: layer(x[0], x[0], use_causal_mask=True, return_attention_scores=True)),
    "mha_attention_mask": (mha(num_heads=3, key_dim=2), [seq(2, 4, 5)],
                           lambda layer, x: layer(x[0], x[0], attention_mask=causal_then_mask(2, 4))),
    "mha_attention_mask_scores": (mha(num_heads=3, key_dim=2), [seq(2, 4, 5)],
                                  lambda layer, x: layer(x[0], x[0], attention_mask=causal_then_mask(2, 4),
                                                         return_attention_scores=True)),
    "mha_mask_and_causal": (mha(num_heads=1, key_dim=4, use_bias=False), [seq(2, 4, 5)],
                            lambda layer, x: layer(x[0], x[0], attention_mask=causal_then_mask(2, 4),
                                                   use_causal_mask=True)),
    "mha_value_mask": (mha(num_heads=2, key_dim=2), [seq(2, 4, 5), seq(2, 3, 5, seed=2)],
                       lambda layer, x: layer(x[0], x[1], value_mask=np.array([[1, 1, 0], [1, 0, 0]], bool))),
    "mha_query_mask_argument": (mha(num_heads=2, key_dim=2), [seq(2, 4, 5)],
                                lambda layer, x: layer(x[0], x[0],
                                                       query_mask=np.array([[1, 1, 0, 0], [1, 0, 0, 0]], bool))),
    "mha_dropout_inference": (mha(num_heads=2, key_dim=2, dropout=0.5), [seq(2, 4, 5)],
                              lambda layer, x: layer(x[0], x[0], attention_mask=causal_then_mask(2, 4))),
}


def attention(**options: Any) -> Callable:
    return lambda k: k.layers.Attention(name="att", **options)


ATTENTION_CASES = {
    "attention_dot": (attention(), [seq(2, 3, 4), seq(2, 5, 4, seed=2)], lambda layer, x: layer([x[0], x[1]])),
    "attention_scale_key": (attention(use_scale=True), [seq(2, 3, 4), seq(2, 5, 4, seed=2), seq(2, 5, 4, seed=3)],
                            lambda layer, x: layer(x, return_attention_scores=True)),
    "attention_concat": (attention(use_scale=True, score_mode="concat"), [seq(2, 3, 4), seq(2, 5, 4, seed=2)],
                         lambda layer, x: layer([x[0], x[1]], return_attention_scores=True)),
    "attention_causal": (attention(), [seq(2, 4, 3)], lambda layer, x: layer([x[0], x[0]], use_causal_mask=True)),
    "attention_masks": (attention(), [seq(2, 3, 4), seq(2, 5, 4, seed=2)],
                        lambda layer, x: layer([x[0], x[1]], mask=[np.array([[1, 1, 0], [1, 0, 1]], bool),
                                                                   np.array([[1, 1, 1, 0, 0], [1, 0, 1, 0, 1]],
                                                                            bool)],
                                               use_causal_mask=True)),
}


def single(make: Callable, *shape: int, **call_options: Any) -> tuple[Callable, list, Callable]:
    return make, [seq(*shape)], lambda layer, x: layer(x[0], **call_options)


LAYER_CASES = {
    "conv1d_valid": single(lambda k: k.layers.Conv1D(3, 3, name="c"), 2, 7, 4),
    "conv1d_same_strides": single(lambda k: k.layers.Conv1D(3, 4, strides=2, padding="same", name="c"), 2, 7, 4),
    "conv1d_causal_dilated": single(lambda k: k.layers.Conv1D(3, 3, padding="causal", dilation_rate=2,
                                                              activation="tanh", name="c"), 2, 9, 2),
    "conv1d_valid_dilated": single(lambda k: k.layers.Conv1D(2, 2, dilation_rate=3, use_bias=False, name="c"),
                                   1, 8, 3),
    "conv2d_transpose_valid": single(lambda k: k.layers.Conv2DTranspose(3, 3, name="ct"), 2, 3, 4, 2),
    "conv2d_transpose_strided_same": single(lambda k: k.layers.Conv2DTranspose(3, (3, 2), strides=2,
                                                                               padding="same", name="ct"), 2, 3, 4, 2),
    "conv2d_transpose_strided_valid": single(lambda k: k.layers.Conv2DTranspose(2, 2, strides=(3, 2), name="ct"),
                                             1, 3, 3, 2),
    "conv2d_transpose_small_kernel": single(lambda k: k.layers.Conv2DTranspose(2, 1, strides=3, padding="same",
                                                                               name="ct"), 1, 2, 3, 2),
    "conv2d_transpose_output_padding_valid": single(lambda k: k.layers.Conv2DTranspose(
        2, 3, strides=2, output_padding=1, name="ct"), 1, 3, 2, 2),
    "conv2d_transpose_output_padding_same": single(lambda k: k.layers.Conv2DTranspose(
        2, 3, strides=(2, 3), padding="same", output_padding=(1, 2), name="ct"), 1, 3, 2, 2),
    "max_pooling1d": single(lambda k: k.layers.MaxPooling1D(name="p"), 2, 7, 3),
    "max_pooling1d_same": single(lambda k: k.layers.MaxPooling1D(3, strides=2, padding="same", name="p"), 2, 7, 3),
    "average_pooling1d": single(lambda k: k.layers.AveragePooling1D(3, strides=1, name="p"), 2, 5, 3),
    "global_average_pooling1d": single(lambda k: k.layers.GlobalAveragePooling1D(name="p"), 2, 5, 3),
    "global_average_pooling1d_mask": single(lambda k: k.layers.GlobalAveragePooling1D(keepdims=True, name="p"),
                                            2, 5, 3, mask=np.array([[1, 1, 0, 1, 0], [0, 0, 0, 0, 1]], bool)),
    "global_max_pooling1d": single(lambda k: k.layers.GlobalMaxPooling1D(name="p"), 2, 5, 3),
    "upsampling2d_nearest": single(lambda k: k.layers.UpSampling2D((2, 3), name="u"), 2, 2, 3, 2),
    "upsampling2d_bilinear": single(lambda k: k.layers.UpSampling2D((3, 2), interpolation="bilinear", name="u"),
                                    2, 3, 4, 2),
    "zero_padding2d": single(lambda k: k.layers.ZeroPadding2D(((1, 0), (2, 3)), name="z"), 2, 2, 3, 2),
    "zero_padding2d_int": single(lambda k: k.layers.ZeroPadding2D(2, name="z"), 1, 2, 2, 1),
    "softmax": single(lambda k: k.layers.Softmax(name="s"), 2, 3, 4),
    "softmax_axis": single(lambda k: k.layers.Softmax(axis=1, name="s"), 2, 3, 4),
    "softmax_axes": single(lambda k: k.layers.Softmax(axis=(1, 2), name="s"), 2, 3, 4),
    "softmax_mask": single(lambda k: k.layers.Softmax(name="s"), 2, 3, 4,
                           mask=np.array([[1, 1, 0, 1], [0, 0, 0, 0], [1, 0, 0, 0]], bool)),
    "softmax_float_mask": single(lambda k: k.layers.Softmax(name="s"), 2, 3, 4, mask=np.array([0.0, 0.7, 1.0, 0.2],
                                                                                            np.float32)),
    "leaky_relu": single(lambda k: k.layers.LeakyReLU(name="l"), 2, 3, 4),
    "leaky_relu_slope": single(lambda k: k.layers.LeakyReLU(negative_slope=0.05, name="l"), 2, 3, 4),
    "prelu": single(lambda k: k.layers.PReLU(name="p"), 2, 3, 4),
    "prelu_shared": single(lambda k: k.layers.PReLU(shared_axes=[1, 2], name="p"), 2, 3, 3, 2),
}


def layer_case(spec: tuple[Callable, list, Callable]) -> Callable:
    make, inputs, call = spec
    return lambda k, tf: check(k, tf, make(k), inputs, call)


def refused(make: Callable) -> Callable:
    def case(k: Any, tf: Any) -> str:
        try:
            make(k, tf)
        except Exception as error:      # noqa: BLE001 -- the recorded outcome is the exception's type
            return type(error).__name__
        return "accepted"
    return case


REFUSALS = {
    "leaky_relu_negative_slope": lambda k, tf: k.layers.LeakyReLU(negative_slope=-1.0),
    "conv2d_causal_padding": lambda k, tf: k.layers.Conv2D(2, 3, padding="causal"),
    "conv1d_strides_and_dilation": lambda k, tf: k.layers.Conv1D(2, 3, strides=2, dilation_rate=2),
    "conv2d_transpose_output_padding_not_below_strides": lambda k, tf: k.layers.Conv2DTranspose(
        2, 3, strides=2, output_padding=2),
    # Keras' "same" size with output_padding, (n - 1) * s + k % 2 + p, is not always one conv2d can reach.
    "conv2d_transpose_output_padding_unreachable": lambda k, tf: k.layers.Conv2DTranspose(
        2, (3, 2), strides=(2, 3), padding="same", output_padding=(1, 0))(tf.ones((1, 3, 2, 2))),
    "conv2d_transpose_op_channels": lambda k, tf: tf.nn.conv2d_transpose(
        tf.ones((1, 3, 3, 3)), tf.ones((3, 3, 4, 2)), (1, 6, 6, 4), 2),
    "conv2d_transpose_op_output_channels": lambda k, tf: tf.nn.conv2d_transpose(
        tf.ones((1, 3, 3, 2)), tf.ones((3, 3, 4, 2)), (1, 6, 6, 3), 2),
    "conv2d_transpose_op_output_size": lambda k, tf: tf.nn.conv2d_transpose(
        tf.ones((1, 3, 3, 2)), tf.ones((3, 3, 4, 2)), (1, 8, 8, 4), 2),
    "mha_zero_heads": lambda k, tf: k.layers.MultiHeadAttention(0, 2),
    "attention_score_mode": lambda k, tf: k.layers.Attention(score_mode="add"),
    "attention_not_a_list": lambda k, tf: k.layers.Attention()(tf.ones((1, 2, 3))),
    "attention_one_input": lambda k, tf: k.layers.Attention()([tf.ones((1, 2, 3))]),
    "softmax_mask_too_long": lambda k, tf: k.layers.Softmax()(tf.ones((2, 3)), mask=tf.ones((4,))),
    "zero_padding2d_three_sides": lambda k, tf: k.layers.ZeroPadding2D((1, 2, 3)),
    "mha_value_and_key_lengths": lambda k, tf: k.layers.MultiHeadAttention(2, 2)(
        tf.ones((1, 3, 4)), tf.ones((1, 5, 4)), key=tf.ones((1, 6, 4))),
}


def dropout_on_sequences(k: Any, tf: Any) -> dict[str, Any]:
    """``noise_shape=(None, 1, features)``: one mask per example and feature, shared by every step."""
    x = tf.ones((4, 6, 5))
    layer = k.layers.Dropout(0.5, noise_shape=(None, 1, 5), seed=3)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = layer(x, training=True)
    grad = np.asarray(tape.gradient(y, x))
    y = np.asarray(y)
    return {"shape": list(y.shape), "values": sorted(set(y.ravel().tolist())),
            "same_along_steps": bool((y == y[:, :1]).all()), "grad_is_output": bool((grad == y).all()),
            "inference_is_identity": bool((np.asarray(layer(x)) == 1).all())}


def transformer_block(k: Any, tf: Any) -> dict[str, Any]:
    """A pre-norm transformer block on fixed weights: the loss and gradients plain and under ``recompute_grad``."""
    d, heads = 6, 2
    norm1, norm2 = k.layers.LayerNormalization(name="ln1"), k.layers.LayerNormalization(name="ln2")
    attn = k.layers.MultiHeadAttention(heads, d // heads, name="attn")
    up, down = k.layers.Dense(12, activation="relu", name="up"), k.layers.Dense(d, name="down")

    def block(x):
        h = norm1(x)
        x = x + attn(h, h, use_causal_mask=True)
        return x + down(up(norm2(x)))

    x = tf.constant(seq(2, 5, d))
    block(x)
    layers = [norm1, attn, norm2, up, down]
    weights = [w for layer in layers for w in layer.trainable_weights]
    for i, w in enumerate(weights):
        w.assign(values(tuple(w.shape), 300 + i) + (1.0 if "gamma" in w.path else 0.0))
    target = values((2, 5, d), 400, 1.0)
    results = {}
    for mode, f in (("plain", block), ("recompute", tf.recompute_grad(block))):
        with tf.GradientTape() as tape:
            tape.watch(x)
            loss = tf.reduce_sum(f(x) * target)
        grads = tape.gradient(loss, [x] + weights)
        results[mode] = {"loss": float(loss), "grads": [np.asarray(g).tolist() for g in grads]}
    results["paths"] = [w.path for w in weights]
    return results


def summary(k: Any, tf: Any) -> list[str]:
    """A sequence model's summary: each layer's row (name and type, output shape, parameters), and the totals."""
    model = k.Sequential([k.Input((10, 3)), k.layers.Conv1D(4, 3, padding="causal", name="conv"),
                          k.layers.MaxPooling1D(name="pool"), k.layers.PReLU(name="prelu"),
                          k.layers.GlobalAveragePooling1D(name="gap"), k.layers.Dense(2, name="dense")], name="seq")
    lines = []
    model.summary(print_fn=lambda text, *args, **kwargs: lines.extend(text.splitlines()))
    rows = [[cell.strip() for cell in line.split("│")[1:-1]] for line in lines if line.startswith("│")]
    return rows + [line.strip() for line in lines if "params" in line]


CASES: dict[str, Callable[[Any, Any], Any]] = {
    **{name: layer_case(spec) for name, spec in {**MHA_CASES, **ATTENTION_CASES, **LAYER_CASES}.items()},
    **{f"refuses_{name}": refused(make) for name, make in REFUSALS.items()},
    "dropout_on_sequences": dropout_on_sequences,
    "transformer": transformer_block,
    "summary": summary,
}


def main() -> None:
    import keras
    import tensorflow as tf

    keras.utils.set_random_seed(0)
    recorded = {}
    for name, case in CASES.items():
        try:
            recorded[name] = case(keras, tf)
        except Exception as error:       # noqa: BLE001 -- the recorded outcome is the exception's type
            recorded[name] = {"error": f"{type(error).__name__}: {error}"[:300]}
            print(name, recorded[name])
    OUT.write_text(json.dumps(recorded, indent=None, separators=(",", ":")) + "\n")
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes, {len(recorded)} cases)")


if __name__ == "__main__":
    main()
