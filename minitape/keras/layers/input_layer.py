"""``Input`` and ``InputLayer``: where a functional model starts.

``tf.keras.Input(shape)`` makes an ``InputLayer`` and returns its output, a
[`KerasTensor`][minitape.keras.keras_tensor.KerasTensor] whose shape is ``(batch_size, *shape)``
(``None`` batch unless ``batch_size`` is given).  Put first in a ``Sequential``, it gives the
model its input shape, so the model is built at once.

>>> import minitape as tf
>>> model = tf.keras.Sequential([tf.keras.Input(shape=(4,)), tf.keras.layers.Dense(2)])
>>> len(model.weights), [type(layer).__name__ for layer in model.layers]
(2, ['Dense'])
"""
from __future__ import annotations

from typing import Any

from minitape.keras.keras_tensor import KerasTensor, Node
from minitape.keras.layers.layer import Layer
from minitape.keras.naming import unique_name


class InputLayer(Layer):
    """The layer behind an ``Input``: no weights; its ``output`` is the symbolic input.

    >>> import minitape as tf
    >>> layer = tf.keras.layers.InputLayer(shape=(3,), name="pixels")
    >>> layer.output, layer.count_params()
    (<KerasTensor shape=(None, 3), dtype=float32, sparse=False, ragged=False, name=pixels>, 0)
    """

    def __init__(self, shape: Any = None, batch_size: int | None = None, dtype: Any = None, sparse: bool | None = None,
                 batch_shape: Any = None, name: str | None = None, **kwargs: Any) -> None:
        shape = kwargs.pop("input_shape", shape)                   # Keras 2's names, which Keras 3 still reads
        batch_shape = kwargs.pop("batch_input_shape", batch_shape)
        super().__init__(name=name or unique_name("input_layer"), **kwargs)
        if sparse:
            raise ValueError(f"InputLayer '{self.name}': minitape has no sparse tensors; leave `sparse` unset.")
        if (shape is None) == (batch_shape is None):
            raise ValueError(f"You must pass exactly one of `shape` or `batch_shape` to Input (layer "
                             f"'{self.name}'). Received: shape={shape}, batch_shape={batch_shape}")
        batch_shape = (batch_size, *_sizes(shape)) if batch_shape is None else _sizes(batch_shape)
        symbolic = KerasTensor(batch_shape, dtype or "float32", name=name, node=Node(self, (), []))
        symbolic.node.outputs.append(symbolic)
        self._symbolic_io = (symbolic, symbolic)
        self.input_shape_hint, self.output_shape = batch_shape[1:], batch_shape
        self.built = True


def _sizes(shape: Any) -> tuple:
    """``shape`` as a tuple of sizes (an int is a shape of one axis, as Keras takes it)."""
    return (shape,) if isinstance(shape, int) or shape is None else tuple(shape)


def Input(shape: Any = None, batch_size: int | None = None, dtype: Any = None, sparse: bool | None = None,
          batch_shape: Any = None, name: str | None = None) -> KerasTensor:
    """A symbolic input of ``shape`` per example (the batch axis is added): what a functional model starts from.

    >>> import minitape as tf
    >>> tf.keras.Input(shape=(2,), dtype="int32", batch_size=4, name="ids")
    <KerasTensor shape=(4, 2), dtype=int32, sparse=False, ragged=False, name=ids>
    """
    return InputLayer(shape=shape, batch_size=batch_size, dtype=dtype, sparse=sparse, batch_shape=batch_shape,
                      name=name).output
