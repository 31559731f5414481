"""Merging layers: several inputs combined into one.  ``Add`` is a residual connection's join.

>>> import minitape as tf
>>> tf.keras.layers.Add()([tf.ones((2, 3)), tf.ones((2, 3))]).numpy()
array([[2., 2., 2.],
       [2., 2., 2.]], dtype=float32)
"""
from __future__ import annotations

from typing import Any

from minitape import ops
from minitape.core.tensor import Tensor
from minitape.keras.layers.core import Layer


class Add(Layer):
    """The sum of a list of inputs of one shape (the skip connection of a residual block).

    >>> import minitape as tf
    >>> x = tf.constant([[1.0, 2.0]])
    >>> tf.keras.layers.Add()([x, 10 * x, 100 * x]).numpy()
    array([[111., 222.]], dtype=float32)
    """

    def build(self, input_shape: Any) -> None:
        """Check that the inputs are a list whose shapes (past the batch axis) agree.

        >>> import minitape as tf
        >>> tf.keras.layers.Add().build([(None, 3), (None, 4)])
        Traceback (most recent call last):
        ...
        ValueError: Inputs have incompatible shapes. Received shapes (3,) and (4,)
        """
        if not isinstance(input_shape, list | tuple) or not all(isinstance(s, tuple) for s in input_shape):
            raise ValueError(f"A merge layer should be called on a list of inputs. Received: "
                             f"input_shape={input_shape} (not a list of shapes)")
        for shape in input_shape[1:]:
            if tuple(shape[1:]) != tuple(input_shape[0][1:]):
                raise ValueError(f"Inputs have incompatible shapes. Received shapes {tuple(input_shape[0][1:])} "
                                 f"and {tuple(shape[1:])}")
        super().build(input_shape)

    def call(self, inputs: list[Tensor]) -> Tensor:
        """``inputs[0] + inputs[1] + ...``.

        >>> import minitape as tf
        >>> tf.keras.layers.Add().call([tf.constant(1.0), tf.constant(2.0)]).numpy()
        np.float32(3.0)
        """
        if not isinstance(inputs, list | tuple):
            raise ValueError(f"A merge layer should be called on a list of inputs. Received: inputs={inputs} "
                             f"(not a list of tensors)")
        total = inputs[0]
        for x in inputs[1:]:
            total = ops.add(total, x)
        return total
