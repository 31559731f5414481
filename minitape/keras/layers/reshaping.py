"""Layers that rearrange each example's entries without weights: ``Flatten``, ``Reshape``, ``Permute``,
``RepeatVector``.  The batch axis is never touched.

>>> import minitape as tf
>>> tf.keras.layers.Flatten()(tf.ones((2, 4, 4, 3))).shape
TensorShape([2, 48])
>>> tf.keras.layers.Reshape((-1, 2))(tf.ones((2, 6))).shape
TensorShape([2, 3, 2])
"""
from __future__ import annotations

from typing import Any

import numpy as np

from minitape import ops
from minitape.core.tensor import Tensor
from minitape.keras.layers import checks
from minitape.keras.layers.core import Layer


class Flatten(Layer):
    """Keep the batch axis, flatten the rest: ``(batch, h, w, c)`` becomes ``(batch, h·w·c)``.

    >>> import minitape as tf
    >>> tf.keras.layers.Flatten()(tf.constant([1.0, 2.0])).shape          # a vector: one feature per example
    TensorShape([2, 1])
    """

    def call(self, inputs: Tensor) -> Tensor:
        """``tf.reshape(inputs, (batch, -1))``.

        >>> import minitape as tf
        >>> tf.keras.layers.Flatten().call(tf.reshape(tf.range(4.0), (1, 2, 2))).numpy()
        array([[0., 1., 2., 3.]], dtype=float32)
        """
        return ops.reshape(inputs, (len(inputs), -1))


def _target_shape(shape: tuple, target: tuple) -> tuple:
    """``target`` with its one ``-1`` worked out from ``shape`` (an example's shape), as Keras'
    ``compute_reshape_output_shape`` checks it."""
    size, known = int(np.prod(shape)), int(np.prod([n for n in target if n != -1]))
    if -1 in target:
        if known == 0 or size % known:
            raise ValueError(f"The total size of the tensor must be unchanged. Received: input_shape={shape}, "
                             f"target_shape={target}")
        return tuple(size // known if n == -1 else n for n in target)
    if known != size:
        raise ValueError(f"The total size of the tensor must be unchanged. Received: input_shape={shape}, "
                         f"target_shape={target}")
    return target


class Reshape(Layer):
    """Give each example the shape ``target_shape`` (one entry may be ``-1``: worked out from the others).

    >>> import minitape as tf
    >>> tf.keras.layers.Reshape((3, 4))(tf.ones((5, 12))).shape
    TensorShape([5, 3, 4])
    """

    def __init__(self, target_shape: tuple[int, ...], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        target_shape = tuple(target_shape)
        if sum(n == -1 for n in target_shape) > 1 or not all(isinstance(n, int) and (n > 0 or n == -1)
                                                             for n in target_shape):
            raise ValueError(f"There must be at most one unknown dimension (-1) in target_shape, and the other "
                             f"sizes must be positive integers. Received: target_shape={target_shape}")
        self.target_shape = target_shape

    def call(self, inputs: Tensor) -> Tensor:
        """``tf.reshape(inputs, (batch, *target_shape))``, after checking the sizes agree.

        >>> import minitape as tf
        >>> tf.keras.layers.Reshape((4,)).call(tf.ones((2, 3)))
        Traceback (most recent call last):
        ...
        ValueError: The total size of the tensor must be unchanged. Received: input_shape=(3,), target_shape=(4,)
        """
        shape = _target_shape(tuple(inputs.shape[1:]), self.target_shape)
        return ops.reshape(inputs, (len(inputs), *shape))


class Permute(Layer):
    """Reorder an example's axes: ``dims`` numbers them from 1 (the batch axis stays first).

    >>> import minitape as tf
    >>> tf.keras.layers.Permute((2, 1))(tf.ones((4, 10, 64))).shape
    TensorShape([4, 64, 10])
    """

    def __init__(self, dims: tuple[int, ...], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.dims = tuple(dims)
        if sorted(dims) != list(range(1, len(dims) + 1)):
            raise ValueError(f"Invalid permutation argument `dims` for Permute Layer. The set of indices in `dims` "
                             f"must be consecutive and start from 1. Received dims={dims}")

    def call(self, inputs: Tensor) -> Tensor:
        """``tf.transpose(inputs, (0, *dims))``.

        >>> import minitape as tf
        >>> tf.keras.layers.Permute((2, 1)).call(tf.constant([[[1.0, 2.0]]])).numpy()
        array([[[1.],
                [2.]]], dtype=float32)
        """
        checks.ndim(self, inputs, len(self.dims) + 1)
        return ops.transpose(inputs, (0, *self.dims))


class RepeatVector(Layer):
    """Repeat each example's vector ``n`` times: ``(batch, features)`` becomes ``(batch, n, features)`` (an
    encoder's summary fed to each step of a decoder).

    >>> import minitape as tf
    >>> tf.keras.layers.RepeatVector(3)(tf.constant([[1.0, 2.0]])).numpy()
    array([[[1., 2.],
            [1., 2.],
            [1., 2.]]], dtype=float32)
    """

    def __init__(self, n: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if not isinstance(n, int) or isinstance(n, bool):
            raise TypeError(f"Expected an integer value for `n`, got {type(n)}.")
        if n <= 0:
            raise ValueError(f"Argument `n` should be a positive integer. Received: n={n}")
        self.n = n

    def call(self, inputs: Tensor) -> Tensor:
        """A new axis after the batch axis, broadcast to ``n`` (its gradient sums the copies).

        >>> import minitape as tf
        >>> tf.keras.layers.RepeatVector(2).call(tf.ones((5, 3))).shape
        TensorShape([5, 2, 3])
        """
        checks.ndim(self, inputs, 2)
        return ops.broadcast_to(ops.expand_dims(inputs, 1), (len(inputs), self.n, inputs.shape[1]))
