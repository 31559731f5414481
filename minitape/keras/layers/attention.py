"""Attention: each query position takes a softmax-weighted mean of the values, weighted by how well its
query matches each key.

``Attention`` is the bare idea (Luong's dot-product attention: ``softmax(q kᵀ) v``);
``MultiHeadAttention`` (Vaswani et al.) first projects query, key and value into ``num_heads``
smaller spaces, attends in each, scaled by ``1 / sqrt(key_dim)``, and projects the heads back.
Masks say which pairs may attend: ``use_causal_mask`` lets position ``t`` see only ``<= t``
(a language model must not read ahead), ``attention_mask`` any ``(batch, T, S)`` pattern.

>>> import minitape as tf
>>> mha = tf.keras.layers.MultiHeadAttention(num_heads=2, key_dim=4, name="mha")
>>> x = tf.ones((3, 5, 8))
>>> mha(x, x, use_causal_mask=True).shape
TensorShape([3, 5, 8])
>>> [(v.path, tuple(v.shape)) for v in mha.weights][:2]
[('mha/query/kernel', (8, 2, 4)), ('mha/query/bias', (2, 4))]
"""
from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

from minitape import ops
from minitape.core import backends
from minitape.core.tensor import Tensor
from minitape.keras import initializers
from minitape.keras.keras_tensor import is_symbolic
from minitape.keras.layers.activation import Dropout
from minitape.keras.layers.advanced_activations import as_bool_mask, masked_softmax
from minitape.keras.layers.core import Layer, kernel_and_bias_options


def causal_mask(queries: int, keys: int) -> Tensor:
    """``(1, queries, keys)`` booleans, true where key position ``s <= t``, the query's: the past and present.

    >>> from minitape.keras.layers.attention import causal_mask
    >>> causal_mask(3, 3).numpy()[0].astype(int)
    array([[1, 0, 0],
           [1, 1, 0],
           [1, 1, 1]])
    """
    return _causal(queries, keys, 3, backends.current())


# Just an optimization: the mask depends on the lengths only, so it is made once per pair of lengths (number
# of axes, backend) and shared; values never change.  Made before a tape, it is not counted in what the tape
# holds, as the weights are not.  It saves 5 ops a call, about 80 µs of each attention's forward pass.
@functools.lru_cache(maxsize=64)
def _causal(queries: int, keys: int, ndim: int, backend: backends.Backend) -> Tensor:
    """``causal_mask(queries, keys)`` with ``ndim`` axes, the leading ones of length 1, made on ``backend``."""
    lead = (1,) * (ndim - 2)
    return ops.greater_equal(ops.reshape(ops.range(queries), (*lead, queries, 1)),
                             ops.reshape(ops.range(keys), (*lead, 1, keys)))


def _all(*masks: Any) -> Tensor | None:
    """The logical and of the masks given (None ones left out); None if none is given."""
    combined = None
    for mask in masks:
        if mask is not None:
            mask = as_bool_mask(mask)
            combined = mask if combined is None else ops.logical_and(combined, mask)
    return combined


class _Projection(Layer):
    """A learned linear map as an einsum (Keras' ``EinsumDense`` for the shapes attention needs): ``kernel`` of
    ``kernel_shape``, ``bias`` of ``bias_shape``; ``call(x)`` is ``einsum(equation, x, kernel) + bias``."""

    def __init__(self, equation: str, kernel_shape: tuple[int, ...], bias_shape: tuple[int, ...],
                 owner: MultiHeadAttention, name: str) -> None:
        super().__init__(name=name, activity_regularizer=owner.projections_activity_regularizer)
        self.equation, self.kernel_shape, self.bias_shape = equation, kernel_shape, bias_shape
        self._owner = owner          # not a sub-layer: the layer whose options it takes

    def build(self, input_shape: tuple[int, ...] | None) -> None:
        owner = self._owner
        self.kernel = self.add_weight(self.kernel_shape, owner.kernel_initializer, name="kernel",
                                      regularizer=owner.kernel_regularizer, constraint=owner.kernel_constraint)
        self.bias = self.add_weight(self.bias_shape, owner.bias_initializer, name="bias",
                                    regularizer=owner.bias_regularizer,
                                    constraint=owner.bias_constraint) if owner.use_bias else None

    def call(self, inputs: Tensor) -> Tensor:
        if self.bias is not None:               # the einsum contracts inputs' trailing axes with kernel's first
            return ops.dense(inputs, self.kernel, self.bias, axes=len(self.kernel_shape) - len(self.bias_shape))
        return ops.einsum(self.equation, inputs, self.kernel)


class MultiHeadAttention(Layer):
    """Multi-head attention on ``(batch, steps, features)`` sequences: ``call(query, value, key=None, ...)``.

    Its weights are four projections, each a ``kernel`` and (``use_bias``) a ``bias``, in this
    order: ``query`` ``(d_q, num_heads, key_dim)``, ``key`` ``(d_k, num_heads, key_dim)``, ``value``
    ``(d_v, num_heads, value_dim)`` and ``attention_output`` ``(num_heads, value_dim, d_out)``, where
    ``d_out`` is ``output_shape`` or the query's features.  ``value_dim`` defaults to ``key_dim``.

    >>> import minitape as tf
    >>> mha = tf.keras.layers.MultiHeadAttention(num_heads=4, key_dim=2, value_dim=3, output_shape=6)
    >>> out, scores = mha(tf.ones((2, 5, 8)), tf.ones((2, 7, 4)), return_attention_scores=True)
    >>> out.shape, scores.shape, mha.count_params()
    (TensorShape([2, 5, 6]), TensorShape([2, 4, 5, 7]), 250)
    """

    def __init__(self, num_heads: int, key_dim: int, value_dim: int | None = None, dropout: float = 0.0,
                 use_bias: bool = True, output_shape: int | tuple[int] | None = None, attention_axes: Any = None,
                 kernel_initializer: str | Callable = "glorot_uniform", bias_initializer: str | Callable = "zeros",
                 kernel_regularizer: Any = None, bias_regularizer: Any = None, activity_regularizer: Any = None,
                 kernel_constraint: Any = None, bias_constraint: Any = None, seed: int | None = None,
                 **kwargs: Any) -> None:
        for argument, value in (("num_heads", num_heads), ("key_dim", key_dim)):
            if not isinstance(value, int) or value <= 0:
                raise ValueError(f"Received an invalid value for argument `{argument}`, expected a positive "
                                 f"integer. Received: {argument}={value}")
        if value_dim is not None and (not isinstance(value_dim, int) or value_dim <= 0):
            raise ValueError(f"Received an invalid value for argument `value_dim`, expected a positive integer or "
                             f"`None`. Received: value_dim={value_dim}")
        super().__init__(**kwargs)
        if attention_axes not in (None, 1, (1,), [1], -2, (-2,), [-2]):
            raise ValueError(f"MultiHeadAttention: attention_axes={attention_axes!r} is not supported by minitape, "
                             f"which attends over the steps of (batch, steps, features) inputs; leave it None.")
        self.num_heads, self.key_dim, self.value_dim = num_heads, key_dim, value_dim or key_dim
        self.dropout, self.use_bias, self.seed = dropout, use_bias, seed
        self.output_shape_option = (output_shape,) if isinstance(output_shape, int) else output_shape
        if self.output_shape_option is not None and len(self.output_shape_option) != 1:
            raise ValueError(f"MultiHeadAttention: output_shape={output_shape!r} is not supported by minitape; give "
                             f"one integer, the output's features.")
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        kernel_and_bias_options(self, kernel_regularizer, bias_regularizer, kernel_constraint, bias_constraint)
        self.projections_activity_regularizer = activity_regularizer     # Keras gives it to the projections
        self._dropout_layer = Dropout(dropout, seed=seed)

    def __call__(self, query: Any, value: Any = None, key: Any = None, **kwargs: Any) -> Any:
        # Keras 3 builds from the shapes of all three inputs, not only the first.
        if value is None:
            raise TypeError("MultiHeadAttention.call() missing 1 required positional argument: 'value'")
        if not self.built and not is_symbolic((query, value, key)):
            with self._calling():
                self.build(tuple(query.shape), tuple(value.shape), None if key is None else tuple(key.shape))
        return super().__call__(query, value, key, **kwargs)

    def build(self, query_shape: tuple[int, ...], value_shape: tuple[int, ...],
              key_shape: tuple[int, ...] | None = None) -> None:
        """Create the four projections for inputs of these shapes (``key_shape`` is ``value_shape`` if None).

        >>> import minitape as tf
        >>> mha = tf.keras.layers.MultiHeadAttention(num_heads=2, key_dim=3)
        >>> mha.build((None, 5, 4), (None, 6, 7))
        >>> [tuple(w.shape) for w in mha.get_weights()]
        [(4, 2, 3), (2, 3), (7, 2, 3), (2, 3), (7, 2, 3), (2, 3), (2, 3, 4), (4,)]
        """
        key_shape = value_shape if key_shape is None else key_shape
        if tuple(value_shape[1:-1]) != tuple(key_shape[1:-1]):
            raise ValueError(f"All dimensions of `value` and `key`, except the last one, must be equal. Received: "
                             f"value_shape={tuple(value_shape)} and key_shape={tuple(key_shape)}")
        for shape in (query_shape, value_shape, key_shape):
            if len(shape) != 3:
                raise ValueError(f"MultiHeadAttention: minitape attends over (batch, steps, features) inputs; got "
                                 f"an input of shape {tuple(shape)}.")
        heads, out = (self.num_heads, self.key_dim), (self.output_shape_option or query_shape[-1:])[0]
        self.query_dense = _Projection("btd,dnh->btnh", (query_shape[-1], *heads), heads, self, "query")
        self.key_dense = _Projection("btd,dnh->btnh", (key_shape[-1], *heads), heads, self, "key")
        values = (self.num_heads, self.value_dim)
        self.value_dense = _Projection("btd,dnh->btnh", (value_shape[-1], *values), values, self, "value")
        self.output_dense = _Projection("btnh,nhd->btd", (*values, out), (out,), self, "attention_output")
        for projection, shape in ((self.query_dense, query_shape), (self.key_dense, key_shape),
                                  (self.value_dense, value_shape), (self.output_dense, None)):
            with projection._calling():
                projection.build(shape)
            projection.built = True

    def call(self, query: Tensor, value: Tensor, key: Tensor | None = None, query_mask: Any = None,
             value_mask: Any = None, key_mask: Any = None, attention_mask: Any = None,
             return_attention_scores: bool = False, training: bool | None = None,
             use_causal_mask: bool = False) -> Tensor | tuple[Tensor, Tensor]:
        """Attend from ``query`` to ``value`` (compared through ``key``, ``value`` if None).

        The masks are and-ed: ``attention_mask`` ``(batch, T, S)`` (or broadcast to it), ``value_mask``
        and ``key_mask`` ``(batch, S)``, the causal mask.  As in Keras 3, ``query_mask`` given here is
        not read: Keras takes the query's mask only from a mask the query carries, which minitape's
        tensors do not.  ``return_attention_scores`` also returns the weights, ``(batch, heads, T, S)``.

        >>> import minitape as tf
        >>> mha = tf.keras.layers.MultiHeadAttention(num_heads=1, key_dim=2)
        >>> _, scores = mha(tf.ones((1, 3, 2)), tf.ones((1, 3, 2)), use_causal_mask=True,
        ...                 return_attention_scores=True)
        >>> scores[0, 0].numpy()
        array([[1.        , 0.        , 0.        ],
               [0.5       , 0.5       , 0.        ],
               [0.33333334, 0.33333334, 0.33333334]], dtype=float32)
        """
        key = value if key is None else key
        if use_causal_mask and attention_mask is None and value_mask is None and key_mask is None:
            # The causal mask alone: made once, with its 4 axes (one mask for every head).
            mask = _causal(query.shape[1], value.shape[1], 4, backends.current())
        else:
            mask = _all(attention_mask,
                        None if value_mask is None else ops.expand_dims(value_mask, -2),
                        None if key_mask is None else ops.expand_dims(key_mask, -2),
                        causal_mask(query.shape[1], value.shape[1]) if use_causal_mask else None)
        if mask is not None and mask.ndim < 4:          # one mask for every head
            mask = ops.reshape(mask, (*mask.shape[:-2], *[1] * (4 - mask.ndim), *mask.shape[-2:]))
        scale = 1.0 / math.sqrt(float(self.key_dim))
        # Keras' two paths: with dropout or scores returned, a masked softmax that gives a row masked
        # throughout all zeros; otherwise its fused attention (one primitive), where such a row is uniform.
        if not (self.dropout > 0 or return_attention_scores):
            attended = ops.dot_product_attention(self.query_dense(query), self.key_dense(key), self.value_dense(value),
                                                 mask=mask, scale=scale)
            return self.output_dense(attended)
        query = self.query_dense(query) * scale
        logits = ops.einsum("bsnh,btnh->bnts", self.key_dense(key), query)     # one (T, S) table per head
        scores = masked_softmax(logits, mask)
        attended = ops.einsum("bnts,bsnh->btnh", self._dropout_layer(scores, training=training),
                              self.value_dense(value))
        output = self.output_dense(attended)
        return (output, scores) if return_attention_scores else output


class Attention(Layer):
    """Dot-product attention: ``call([query, value])`` or ``call([query, value, key])``, ``softmax(q kᵀ) v``.

    ``use_scale`` learns a scalar ``scale`` multiplying the scores; ``score_mode="concat"`` scores
    with ``sum(tanh(q + k))`` times a learned ``concat_score_weight`` instead.  ``mask`` is
    ``[query_mask, value_mask]``: a masked value is not attended to, a masked query's output is 0.

    >>> import minitape as tf
    >>> q, v = tf.constant([[[1.0, 0.0]]]), tf.constant([[[1.0, 0.0], [0.0, 1.0]]])
    >>> out, scores = tf.keras.layers.Attention()([q, v], return_attention_scores=True)
    >>> scores.numpy().round(3), out.numpy().round(3)
    (array([[[0.731, 0.269]]], dtype=float32), array([[[0.731, 0.269]]], dtype=float32))
    """

    def __init__(self, use_scale: bool = False, score_mode: str = "dot", dropout: float = 0.0,
                 seed: int | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if score_mode not in ("dot", "concat"):
            raise ValueError(f"Invalid value for argument score_mode. Expected one of {{'dot', 'concat'}}. "
                             f"Received: score_mode={score_mode}")
        self.use_scale, self.score_mode, self.dropout, self.seed = use_scale, score_mode, dropout, seed
        self._dropout_layer = Dropout(dropout, seed=seed)

    def build(self, input_shape: list[tuple[int, ...]]) -> None:
        """Create ``scale`` (with ``use_scale``) and ``concat_score_weight`` (``score_mode="concat"``), scalars at 1.

        >>> import minitape as tf
        >>> layer = tf.keras.layers.Attention(use_scale=True, score_mode="concat")
        >>> layer.build([(None, 2, 3), (None, 4, 3)])
        >>> [v.name for v in layer.weights]
        ['scale', 'concat_score_weight']
        """
        _check_inputs(self, input_shape)
        self.scale = self.add_weight(shape=(), initializer="ones", name="scale") if self.use_scale else None
        self.concat_score_weight = (self.add_weight(shape=(), initializer="ones", name="concat_score_weight")
                                    if self.score_mode == "concat" else None)

    def scores(self, query: Tensor, key: Tensor) -> Tensor:
        """``(batch, Tq, Tv)`` scores: ``q kᵀ`` (times ``scale``), or ``w * sum(tanh(scale * (q + k)))`` (concat).

        >>> import minitape as tf
        >>> layer = tf.keras.layers.Attention()
        >>> layer.build([(1, 1, 2), (1, 2, 2)])
        >>> layer.scores(tf.constant([[[1.0, 2.0]]]), tf.constant([[[1.0, 0.0], [0.0, 1.0]]])).numpy()
        array([[[1., 2.]]], dtype=float32)
        """
        if self.score_mode == "dot":
            scores = ops.matmul(query, key, transpose_b=True)
            return scores if self.scale is None else scores * self.scale
        pairs = ops.expand_dims(query, -2) + ops.expand_dims(key, -3)
        pairs = pairs if self.scale is None else self.scale * pairs
        return self.concat_score_weight * ops.reduce_sum(ops.tanh(pairs), axis=-1)

    def call(self, inputs: list[Tensor], mask: list[Any] | None = None, training: bool | None = False,
             return_attention_scores: bool = False, use_causal_mask: bool = False) -> Tensor | tuple[Tensor, Tensor]:
        """``softmax(scores) @ value``, masked (a masked score has 1e9 taken off), zeros where the query is masked.

        >>> import minitape as tf
        >>> x = tf.ones((1, 2, 1))
        >>> tf.keras.layers.Attention()([x, x], mask=[tf.constant([[True, False]]), None]).numpy().ravel()
        array([1., 0.], dtype=float32)
        """
        _check_inputs(self, inputs, mask)
        query, value = inputs[0], inputs[1]
        key = inputs[2] if len(inputs) > 2 else value
        query_mask, value_mask = (mask[0], mask[1]) if mask else (None, None)
        scores = self.scores(query, key)
        keep = _all(None if value_mask is None else ops.expand_dims(value_mask, -2),
                    causal_mask(scores.shape[-2], scores.shape[-1]) if use_causal_mask else None)
        if keep is not None:
            scores = ops.where(keep, scores, scores - 1e9)
        weights = ops.softmax(scores, axis=-1)
        output = ops.matmul(self._dropout_layer(weights, training=training), value)
        if query_mask is not None:
            output = ops.where(ops.expand_dims(as_bool_mask(query_mask), -1), output, ops.zeros_like(output))
        return (output, weights) if return_attention_scores else output


def _check_inputs(layer: Layer, inputs: Any, mask: Any = None) -> None:
    """Keras' checks: ``inputs`` a list of 2 or 3 (query, value, key), ``mask`` a list of 2 or 3."""
    name = type(layer).__name__
    if not isinstance(inputs, list):
        raise ValueError(f"{name} layer must be called on a list of inputs, namely [query, value] or "
                         f"[query, value, key]. Received: inputs={inputs}.")
    if not 2 <= len(inputs) <= 3:
        raise ValueError(f"{name} layer accepts inputs list of length 2 or 3, namely [query, value] or "
                         f"[query, value, key]. Received length: {len(inputs)}.")
    if mask is not None and (not isinstance(mask, list) or not 2 <= len(mask) <= 3):
        raise ValueError(f"{name} layer mask must be a list of length 2 or 3, namely [query_mask, value_mask]. "
                         f"Received: mask={mask}.")

