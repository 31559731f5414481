"""``SimpleRNN``, ``GRU``, ``LSTM``: an ``RNN`` layer around the cell of the same name.

Each takes the cell's arguments (``units``, activations, initializers, regularizers,
constraints, ``dropout``, ``recurrent_dropout``, ``seed``; GRU's ``reset_after``, LSTM's
``unit_forget_bias``) and the layer's (``return_sequences``, ``return_state``,
``go_backwards``...), and makes its cell with Keras' fixed name, so the weights are
``lstm/lstm_cell/kernel`` and so on, in the order ``kernel``, ``recurrent_kernel``, ``bias``.

>>> import minitape as tf
>>> lstm = tf.keras.layers.LSTM(3, name="lstm")
>>> _ = lstm(tf.ones((2, 5, 4)))
>>> [(v.path, tuple(v.shape)) for v in lstm.weights]
[('lstm/lstm_cell/kernel', (4, 12)), ('lstm/lstm_cell/recurrent_kernel', (3, 12)), ('lstm/lstm_cell/bias', (12,))]
"""
from __future__ import annotations

from typing import Any

from minitape.keras.layers.recurrent import RNN
from minitape.keras.layers.recurrent_cells import GRUCell, LSTMCell, SimpleRNNCell

# The arguments that belong to the RNN layer; every other one goes to the cell.
_LAYER_ARGUMENTS = ("return_sequences", "return_state", "go_backwards", "stateful", "unroll", "zero_output_for_mask",
                    "name", "trainable", "dtype", "input_shape", "activity_regularizer")


class _CellLayer(RNN):
    """An RNN whose cell it makes itself, of ``cell_type`` named ``cell_name``."""

    cell_type: type
    cell_name: str
    exact_rank = True

    def __init__(self, units: int, **kwargs: Any) -> None:
        layer_arguments = {key: kwargs.pop(key) for key in list(kwargs) if key in _LAYER_ARGUMENTS}
        for ignored in ("use_cudnn", "implementation"):      # minitape has one implementation and no cuDNN
            kwargs.pop(ignored, None)
        self._cell_arguments = {"units": units, **kwargs}
        cell = self.cell_type(units, name=self.cell_name, trainable=layer_arguments.get("trainable", True),
                              dtype=layer_arguments.get("dtype"), **kwargs)
        super().__init__(cell, **layer_arguments)

    def _arguments(self) -> dict[str, Any]:
        layer_arguments = super()._arguments()
        del layer_arguments["cell"]
        return self._cell_arguments | layer_arguments

    def __getattr__(self, name: str) -> Any:
        # Keras' `lstm.activation`, `lstm.dropout`...: the cell's options, read through the layer.
        cell = self.__dict__.get("cell")
        if cell is None or name.startswith("_") or name not in cell.__dict__:
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")
        return cell.__dict__[name]


class SimpleRNN(_CellLayer):
    """A fully connected recurrent layer: ``h_t = tanh(x_t @ kernel + h_{t-1} @ recurrent_kernel + bias)``.

    >>> import minitape as tf
    >>> layer = tf.keras.layers.SimpleRNN(4, return_sequences=True)
    >>> layer(tf.ones((2, 3, 5))).shape
    TensorShape([2, 3, 4])
    """

    cell_type, cell_name = SimpleRNNCell, "simple_rnn_cell"


class GRU(_CellLayer):
    """A gated recurrent unit layer (Keras 3: ``reset_after=True``, so ``bias`` is ``(2, 3 * units)``).

    >>> import minitape as tf
    >>> gru = tf.keras.layers.GRU(2)
    >>> gru(tf.ones((1, 4, 3))).shape, tuple(gru.cell.bias.shape)
    (TensorShape([1, 2]), (2, 6))
    """

    cell_type, cell_name = GRUCell, "gru_cell"


class LSTM(_CellLayer):
    """A long short-term memory layer; with ``return_state`` it returns ``[output, h, c]``.

    >>> import minitape as tf
    >>> output, h, c = tf.keras.layers.LSTM(2, return_state=True)(tf.ones((1, 4, 3)))
    >>> output.shape, c.shape
    (TensorShape([1, 2]), TensorShape([1, 2]))
    """

    cell_type, cell_name = LSTMCell, "lstm_cell"
