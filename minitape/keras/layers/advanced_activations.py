"""Activation layers with an argument or a weight: ``Softmax`` (an axis, a mask), ``LeakyReLU``, ``PReLU``.

>>> import minitape as tf
>>> tf.keras.layers.LeakyReLU()(tf.constant([-1.0, 2.0])).numpy()      # Keras 3's slope: 0.3
array([-0.3,  2. ], dtype=float32)
>>> tf.keras.layers.Softmax()(tf.constant([[1.0, 1.0, 5.0]]), mask=tf.constant([[True, True, False]])).numpy()
array([[0.5, 0.5, 0. ]], dtype=float32)
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from minitape import ops
from minitape.core import dtypes
from minitape.core.tensor import Tensor
from minitape.keras import constraints, initializers, regularizers
from minitape.keras.layers.core import Layer

# What a masked position's logit becomes: exp of it is 0 next to any real logit.
LARGE_NEGATIVE = -1e9


def as_bool_mask(mask: Any) -> Tensor:
    """A mask as booleans: kept where true, or where a number is above 0.5, as Keras reads a float mask.

    >>> import minitape as tf
    >>> from minitape.keras.layers.advanced_activations import as_bool_mask
    >>> as_bool_mask(tf.constant([0.0, 1.0])).numpy()
    array([False,  True])
    """
    mask = ops.as_operand(mask)
    return mask if mask.dtype == dtypes.bool else ops.greater(mask, ops.cast(0.5, mask.dtype))


def masked_softmax(logits: Tensor, mask: Any = None, axis: int | tuple[int, ...] = -1) -> Tensor:
    """Softmax over ``axis`` (one axis or several) where ``mask`` keeps; 0 where it does not.

    A masked logit is replaced by -1e9 before the softmax, so it gets no weight (and no gradient);
    a row masked throughout comes out all 0, not uniform.

    >>> import minitape as tf
    >>> from minitape.keras.layers.advanced_activations import masked_softmax
    >>> masked_softmax(tf.zeros((1, 2, 2)), axis=(1, 2)).numpy()
    array([[[0.25, 0.25],
            [0.25, 0.25]]], dtype=float32)
    """
    if mask is not None:
        mask = as_bool_mask(mask)
        logits = ops.where(mask, logits, ops.cast(LARGE_NEGATIVE, logits.dtype))
    if isinstance(axis, int) or len(axis) == 1:
        probs = ops.softmax(logits, axis=axis if isinstance(axis, int) else axis[0])
    else:                       # several axes at once: exp(x - max) over their sum
        shifted = ops.exp(logits - ops.stop_gradient(ops.reduce_max(logits, axis=list(axis), keepdims=True)))
        probs = shifted / ops.reduce_sum(shifted, axis=list(axis), keepdims=True)
    return probs if mask is None else ops.where(mask, probs, ops.zeros_like(probs))


class Softmax(Layer):
    """``softmax`` over ``axis`` (an int or a tuple of axes) as a layer; ``mask`` (1 keeps, 0 drops) given at call.

    >>> import minitape as tf
    >>> tf.keras.layers.Softmax()(tf.constant([1.0, 2.0, 1.0])).numpy().round(4)
    array([0.2119, 0.5761, 0.2119], dtype=float32)
    """

    def __init__(self, axis: int | tuple[int, ...] = -1, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.axis = axis

    def call(self, inputs: Tensor, mask: Any = None) -> Tensor:
        """The softmax of ``inputs`` over ``axis``; masked entries are 0 (see ``masked_softmax``).

        ``mask`` must broadcast to ``inputs``: each of its axes 1 or the input's, none extra.

        >>> import minitape as tf
        >>> tf.keras.layers.Softmax().call(tf.ones((2, 3)), mask=tf.ones((4,)))
        Traceback (most recent call last):
        ...
        ValueError: The `mask` must be broadcastable to `inputs`. Each mask dimension must be 1 or match the corresponding input dimension. Received: inputs.shape=(2, 3), mask.shape=(4,)
        """
        if mask is not None:
            mask = ops.as_operand(mask)
            if mask.ndim > inputs.ndim:
                raise ValueError(f"The `mask` must be broadcastable to `inputs` and must not have more dimensions. "
                                 f"Received: inputs.shape={tuple(inputs.shape)}, mask.shape={tuple(mask.shape)}")
            if any(m not in (1, i) for m, i in zip(mask.shape[::-1], inputs.shape[::-1])):
                raise ValueError(f"The `mask` must be broadcastable to `inputs`. Each mask dimension must be 1 or "
                                 f"match the corresponding input dimension. Received: "
                                 f"inputs.shape={tuple(inputs.shape)}, mask.shape={tuple(mask.shape)}")
        return masked_softmax(inputs, mask, self.axis if isinstance(self.axis, int) else tuple(self.axis))


class LeakyReLU(Layer):
    """``x`` where ``x > 0``, else ``negative_slope * x``; Keras 3's default slope is 0.3 (``tf.nn``'s is 0.2).

    >>> import minitape as tf
    >>> tf.keras.layers.LeakyReLU(negative_slope=0.1)(tf.constant([-2.0, 3.0])).numpy()
    array([-0.2,  3. ], dtype=float32)
    """

    def __init__(self, negative_slope: float = 0.3, **kwargs: Any) -> None:
        if "alpha" in kwargs:                  # Keras 2's name for it, still read (Keras warns)
            negative_slope = kwargs.pop("alpha")
        super().__init__(**kwargs)
        if negative_slope is None or negative_slope < 0:
            raise ValueError(f"The negative_slope value of a Leaky ReLU layer cannot be None or negative value. "
                             f"Expected a float. Received: negative_slope={negative_slope}")
        self.negative_slope = negative_slope

    def call(self, inputs: Tensor) -> Tensor:
        """``tf.nn.leaky_relu(inputs, alpha=negative_slope)``.

        >>> import minitape as tf
        >>> tf.keras.layers.LeakyReLU().call(tf.constant([-1.0])).numpy()
        array([-0.3], dtype=float32)
        """
        return ops.leaky_relu(inputs, alpha=self.negative_slope)


class PReLU(Layer):
    """A leaky ReLU whose slope is learned: ``relu(x) - alpha * relu(-x)``, one ``alpha`` per input entry.

    ``alpha`` has the input's shape without the batch axis; ``shared_axes`` (1-based, as the
    input's axes are counted) share one slope along those axes, e.g. ``[1, 2]`` for one per channel
    of an image.  It starts at ``alpha_initializer`` (zeros: a plain ReLU).

    >>> import minitape as tf
    >>> prelu = tf.keras.layers.PReLU(shared_axes=[1, 2], alpha_initializer=tf.keras.initializers.Constant(0.5))
    >>> prelu(tf.fill((1, 4, 4, 3), -2.0))[0, 0, 0].numpy(), tuple(prelu.alpha.shape)
    (array([-1., -1., -1.], dtype=float32), (1, 1, 3))
    """

    def __init__(self, alpha_initializer: str | Callable = "Zeros", alpha_regularizer: Any = None,
                 alpha_constraint: Any = None, shared_axes: int | list[int] | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.alpha_initializer = initializers.get(alpha_initializer)
        self.alpha_regularizer = regularizers.get(alpha_regularizer)
        self.alpha_constraint = constraints.get(alpha_constraint)
        self.shared_axes = None if shared_axes is None else list(
            [shared_axes] if isinstance(shared_axes, int) else shared_axes)

    def build(self, input_shape: tuple[int, ...]) -> None:
        """Create ``alpha``: the input's shape after the batch axis, with 1 on each shared axis.

        >>> import minitape as tf
        >>> prelu = tf.keras.layers.PReLU(shared_axes=1)
        >>> prelu.build((None, 5, 3))
        >>> tuple(prelu.alpha.shape)
        (1, 3)
        """
        shape = [1 if axis in (self.shared_axes or ()) else size for axis, size in enumerate(input_shape) if axis]
        self.alpha = self.add_weight(shape=tuple(shape), initializer=self.alpha_initializer, name="alpha",
                                     regularizer=self.alpha_regularizer, constraint=self.alpha_constraint)

    def call(self, inputs: Tensor) -> Tensor:
        """``relu(inputs) - alpha * relu(-inputs)``.

        >>> import minitape as tf
        >>> prelu = tf.keras.layers.PReLU(alpha_initializer="ones")
        >>> prelu.build((None, 2))
        >>> prelu.call(tf.constant([[-3.0, 3.0]])).numpy()
        array([[-3.,  3.]], dtype=float32)
        """
        return ops.relu(inputs) - self.alpha * ops.relu(-inputs)
