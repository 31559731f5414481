"""Merging layers: several inputs combined into one.  ``Add`` is a residual connection's join,
``Concatenate`` the join of a multi-input model's branches.

Each has a function form, as Keras 3 does: ``layers.add([a, b])`` is ``layers.Add()([a, b])``.

>>> import minitape as tf
>>> tf.keras.layers.Add()([tf.ones((2, 3)), tf.ones((2, 3))]).numpy()
array([[2., 2., 2.],
       [2., 2., 2.]], dtype=float32)
>>> tf.keras.layers.concatenate([tf.ones((2, 3)), tf.zeros((2, 1))]).shape
TensorShape([2, 4])
"""
from __future__ import annotations

import functools
from typing import Any

from minitape import ops
from minitape.core.tensor import Tensor
from minitape.keras.layers.core import Layer


def _listed(inputs: Any) -> list:
    """``inputs`` as the list a merge layer needs, or Keras' error for a single tensor."""
    if not isinstance(inputs, list | tuple):
        raise ValueError(f"A merge layer should be called on a list of inputs. Received: inputs={inputs} "
                         f"(not a list of tensors)")
    return list(inputs)


def _broadcast_shape(shape1: tuple, shape2: tuple) -> tuple:
    """The shape two inputs (past the batch axis) broadcast to, as Keras' ``_compute_elemwise_op_output_shape``."""
    if len(shape1) < len(shape2):
        shape1, shape2 = shape2, shape1
    out = list(shape1[:len(shape1) - len(shape2)])
    for i, j in zip(shape1[len(shape1) - len(shape2):], shape2):
        if i is None or j is None:
            out.append(None)
        elif i == 1 or j == 1:
            out.append(j if i == 1 else i)
        elif i != j:
            raise ValueError(f"Inputs have incompatible shapes. Received shapes {tuple(shape1)} and {tuple(shape2)}")
        else:
            out.append(i)
    return tuple(out)


class Merge(Layer):
    """The base of the entry-by-entry merges: inputs of shapes that broadcast, one ``_merge`` of two of them.

    Inputs of lower rank get axes of size 1 after the batch axis first, as Keras 3 does.

    >>> import minitape as tf
    >>> tf.keras.layers.Multiply()([tf.ones((2, 3)), tf.fill((2, 1), 5.0)]).numpy()
    array([[5., 5., 5.],
           [5., 5., 5.]], dtype=float32)
    """

    def build(self, input_shape: Any) -> None:
        """Check that the inputs are a list with one batch size whose shapes broadcast.

        >>> import minitape as tf
        >>> tf.keras.layers.Add().build([(None, 3), (None, 4)])
        Traceback (most recent call last):
        ...
        ValueError: Inputs have incompatible shapes. Received shapes (3,) and (4,)
        """
        if not isinstance(input_shape, list | tuple) or not all(isinstance(s, tuple) for s in input_shape):
            raise ValueError(f"A merge layer should be called on a list of inputs. Received: "
                             f"input_shape={input_shape} (not a list of shapes)")
        if len({shape[0] for shape in input_shape if shape} - {None}) > 1:
            raise ValueError(f"Cannot merge tensors with different batch sizes. Received tensors with shapes "
                             f"{list(input_shape)}")
        functools.reduce(_broadcast_shape, [tuple(shape[1:]) for shape in input_shape])
        super().build(input_shape)

    def call(self, inputs: list[Tensor]) -> Tensor:
        """The inputs, brought to one rank, folded together by ``_merge``.

        >>> import minitape as tf
        >>> tf.keras.layers.Add().call([tf.constant(1.0), tf.constant(2.0)]).numpy()
        np.float32(3.0)
        """
        inputs = _listed(inputs)
        rank = max(x.ndim for x in inputs)
        inputs = [x if x.ndim == rank else ops.reshape(x, [len(x), *[1] * (rank - x.ndim), *x.shape[1:]])
                  for x in inputs]
        return self._fold(inputs)

    def _fold(self, inputs: list[Tensor]) -> Tensor:
        return functools.reduce(self._merge, inputs)

    def _merge(self, x: Tensor, y: Tensor) -> Tensor:
        raise NotImplementedError


class Add(Merge):
    """The sum of a list of inputs (the skip connection of a residual block).

    >>> import minitape as tf
    >>> x = tf.constant([[1.0, 2.0]])
    >>> tf.keras.layers.Add()([x, 10 * x, 100 * x]).numpy()
    array([[111., 222.]], dtype=float32)
    """
    _merge = staticmethod(ops.add)


class Multiply(Merge):
    """The entry-by-entry product of a list of inputs (a gate, for example).

    >>> import minitape as tf
    >>> tf.keras.layers.Multiply()([tf.constant([[2.0, 3.0]]), tf.constant([[4.0, 5.0]])]).numpy()
    array([[ 8., 15.]], dtype=float32)
    """
    _merge = staticmethod(ops.multiply)


class Maximum(Merge):
    """The entry-by-entry maximum of a list of inputs.

    >>> import minitape as tf
    >>> tf.keras.layers.Maximum()([tf.constant([[2.0, 3.0]]), tf.constant([[4.0, 1.0]])]).numpy()
    array([[4., 3.]], dtype=float32)
    """
    _merge = staticmethod(ops.maximum)


class Minimum(Merge):
    """The entry-by-entry minimum of a list of inputs.

    >>> import minitape as tf
    >>> tf.keras.layers.Minimum()([tf.constant([[2.0, 3.0]]), tf.constant([[4.0, 1.0]])]).numpy()
    array([[2., 1.]], dtype=float32)
    """
    _merge = staticmethod(ops.minimum)


class Average(Merge):
    """The entry-by-entry mean of a list of inputs (an ensemble's averaged prediction).

    >>> import minitape as tf
    >>> tf.keras.layers.Average()([tf.constant([[2.0, 3.0]]), tf.constant([[4.0, 1.0]])]).numpy()
    array([[3., 2.]], dtype=float32)
    """

    def _fold(self, inputs: list[Tensor]) -> Tensor:
        return functools.reduce(ops.add, inputs) / len(inputs)


class Subtract(Merge):
    """The difference of exactly two inputs, ``inputs[0] - inputs[1]``.

    >>> import minitape as tf
    >>> tf.keras.layers.Subtract()([tf.constant([[5.0]]), tf.constant([[3.0]])]).numpy()
    array([[2.]], dtype=float32)
    """
    _merge = staticmethod(ops.subtract)

    def build(self, input_shape: Any) -> None:
        """Check that there are two inputs, then as every merge.

        >>> import minitape as tf
        >>> tf.keras.layers.Subtract().build([(None, 3)] * 3)
        Traceback (most recent call last):
        ...
        ValueError: A `Subtract` layer should be called on exactly 2 inputs. Received: input_shape=[(None, 3), (None, 3), (None, 3)]
        """
        if isinstance(input_shape, list | tuple) and len(input_shape) != 2:
            raise ValueError(f"A `Subtract` layer should be called on exactly 2 inputs. Received: "
                             f"input_shape={list(input_shape)}")
        super().build(input_shape)


class Concatenate(Layer):
    """Join a list of inputs along ``axis`` (the last by default); the other axes must agree.

    >>> import minitape as tf
    >>> tf.keras.layers.Concatenate(axis=1)([tf.ones((2, 3)), tf.zeros((2, 2))]).numpy()
    array([[1., 1., 1., 0., 0.],
           [1., 1., 1., 0., 0.]], dtype=float32)
    """

    def __init__(self, axis: int = -1, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.axis = axis

    def build(self, input_shape: Any) -> None:
        """Check that the inputs are a list of shapes equal but on ``axis`` (unknown sizes match any).

        >>> import minitape as tf
        >>> tf.keras.layers.Concatenate().build([(None, 3, 2), (None, 4, 2)])
        Traceback (most recent call last):
        ...
        ValueError: A `Concatenate` layer requires inputs with matching shapes except for the concatenation axis. Received: input_shape=[(None, 3, 2), (None, 4, 2)]
        """
        if not isinstance(input_shape, list | tuple) or not all(isinstance(s, tuple) for s in input_shape):
            raise ValueError(f"A `Concatenate` layer should be called on a list of at least 1 input. Received: "
                             f"input_shape={input_shape}")
        error = ValueError(f"A `Concatenate` layer requires inputs with matching shapes except for the "
                           f"concatenation axis. Received: input_shape={list(input_shape)}")
        if len({len(shape) for shape in input_shape}) != 1:
            raise error
        kept = [[n for i, n in enumerate(shape) if i != self.axis % len(shape)] for shape in input_shape]
        if any(len({n for n in sizes if n is not None}) > 1 for sizes in zip(*kept)):
            raise error
        super().build(input_shape)

    def call(self, inputs: list[Tensor]) -> Tensor:
        """``tf.concat(inputs, axis)``.

        >>> import minitape as tf
        >>> tf.keras.layers.Concatenate(axis=0).call([tf.ones((1, 2)), tf.zeros((1, 2))]).shape
        TensorShape([2, 2])
        """
        return ops.concat(_listed(inputs), axis=self.axis)


def _l2_normalize(x: Tensor, axis: int) -> Tensor:
    """``x / ||x||`` along ``axis``, the norm kept from 0 by Keras' epsilon 1e-12 (on the squared norm)."""
    return x / ops.sqrt(ops.maximum(ops.reduce_sum(ops.square(x), axis=axis, keepdims=True), 1e-12))


class Dot(Layer):
    """The dot product of two batches of tensors along ``axes`` (an int, or one axis per input), example by
    example; with ``normalize=True`` the cosine similarity.

    >>> import minitape as tf
    >>> a, b = tf.constant([[1.0, 2.0]]), tf.constant([[3.0, 4.0]])
    >>> tf.keras.layers.Dot(axes=1)([a, b]).numpy()
    array([[11.]], dtype=float32)
    >>> round(float(tf.keras.layers.Dot(axes=1, normalize=True)([a, b])[0, 0]), 4)
    0.9839
    """

    def __init__(self, axes: int | tuple[int, int], normalize: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if not isinstance(axes, int) and (not isinstance(axes, list | tuple) or len(axes) != 2
                                          or not all(isinstance(a, int) for a in axes)):
            raise TypeError(f"Invalid type for argument `axes`: it should be a list/tuple of 2 integers or a single "
                            f"integer. Received: axes={axes}")
        self.axes, self.normalize = axes, normalize

    def _axes(self, shape1: tuple, shape2: tuple) -> list[int]:
        if isinstance(self.axes, int):
            return [self.axes % len(shape1), self.axes % len(shape2)] if self.axes < 0 else [self.axes] * 2
        return [a % len(shape) for a, shape in zip(self.axes, (shape1, shape2))]

    def build(self, input_shape: Any) -> None:
        """Check that there are two inputs whose sizes on the dotted axes agree.

        >>> import minitape as tf
        >>> tf.keras.layers.Dot(axes=1).build([(None, 3), (None, 4)])
        Traceback (most recent call last):
        ...
        ValueError: Incompatible input shapes: axis values 3 (at axis 1) != 4 (at axis 1). Full input shapes: (None, 3), (None, 4)
        """
        if not isinstance(input_shape, list | tuple) or len(input_shape) != 2 or not isinstance(input_shape[0], tuple):
            raise ValueError(f"A `Dot` layer should be called on a list of 2 inputs. Received: "
                             f"input_shape={input_shape}")
        shape1, shape2 = input_shape
        axes = self._axes(shape1, shape2)
        if shape1[axes[0]] != shape2[axes[1]]:
            raise ValueError(f"Incompatible input shapes: axis values {shape1[axes[0]]} (at axis {axes[0]}) != "
                             f"{shape2[axes[1]]} (at axis {axes[1]}). Full input shapes: {shape1}, {shape2}")
        super().build(input_shape)

    def call(self, inputs: list[Tensor]) -> Tensor:
        """Keras' ``batch_dot``: per example, the axes summed over; a result of rank 1 becomes ``(batch, 1)``.

        >>> import minitape as tf
        >>> tf.keras.layers.Dot(axes=(1, 1)).call([tf.ones((2, 3, 4)), tf.ones((2, 3, 5))]).shape
        TensorShape([2, 4, 5])
        """
        x, y = _listed(inputs)
        axes = self._axes(tuple(x.shape), tuple(y.shape))
        if self.normalize:
            x, y = _l2_normalize(x, axes[0]), _l2_normalize(y, axes[1])
        letters = "bcdefghijklmnopqrstuvwxyz"
        xs = "a" + letters[:x.ndim - 1]
        ys = "a" + letters[x.ndim - 1:x.ndim + y.ndim - 2]
        ys = ys[:axes[1]] + xs[axes[0]] + ys[axes[1] + 1:]
        out = ("a" + (xs[1:] + ys[1:]).replace(xs[axes[0]], ""))
        result = ops.einsum(f"{xs},{ys}->{out}", x, y)
        return ops.expand_dims(result, 1) if result.ndim == 1 else result


def _function_form(cls: type) -> Any:
    """``layers.add``, ``layers.concatenate``... : make the layer with the keyword arguments, call it on inputs."""
    def merge(inputs: list, **kwargs: Any) -> Tensor:
        return cls(**kwargs)(inputs)
    merge.__name__ = merge.__qualname__ = cls.__name__.lower()
    merge.__doc__ = (f"``{cls.__name__}(**kwargs)(inputs)``: the ``{cls.__name__}`` layer as a function.\n\n"
                     f"    >>> import minitape as tf\n"
                     f"    >>> tf.keras.layers.{merge.__name__}([tf.ones((1, 2)), tf.ones((1, 2))]).shape[0]\n"
                     f"    1\n")
    return merge


add, multiply, maximum, minimum, average, subtract = map(_function_form, (Add, Multiply, Maximum, Minimum, Average,
                                                                          Subtract))


def concatenate(inputs: list, axis: int = -1, **kwargs: Any) -> Tensor:
    """``Concatenate(axis, **kwargs)(inputs)``: the ``Concatenate`` layer as a function.

    >>> import minitape as tf
    >>> tf.keras.layers.concatenate([tf.ones((1, 2)), tf.ones((1, 3))]).shape
    TensorShape([1, 5])
    """
    return Concatenate(axis=axis, **kwargs)(inputs)


def dot(inputs: list, axes: int | tuple[int, int] = -1, **kwargs: Any) -> Tensor:
    """``Dot(axes, **kwargs)(inputs)``: the ``Dot`` layer as a function.

    >>> import minitape as tf
    >>> tf.keras.layers.dot([tf.ones((1, 2)), tf.ones((1, 2))], axes=1).numpy()
    array([[2.]], dtype=float32)
    """
    return Dot(axes=axes, **kwargs)(inputs)
