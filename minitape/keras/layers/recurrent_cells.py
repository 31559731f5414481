"""The RNN cells: one time step of a recurrent network, ``output, new_states = cell(x_t, states)``.

A cell knows nothing of time: ``RNN`` (in ``recurrent``) calls it once per step, handing each
step's states to the next.  Each cell has Keras 3's weights, in Keras' order: ``kernel``
(input to gates), ``recurrent_kernel`` (state to gates) and ``bias``; the gates sit side by
side along the last axis (GRU: update ``z``, reset ``r``, candidate ``h``; LSTM: input ``i``,
forget ``f``, cell ``c``, output ``o``).

>>> import minitape as tf
>>> cell = tf.keras.layers.LSTMCell(2)
>>> h, (h_again, c) = cell(tf.ones((1, 3)), [tf.zeros((1, 2)), tf.zeros((1, 2))])
>>> [(v.name, tuple(v.shape)) for v in cell.weights]
[('kernel', (3, 8)), ('recurrent_kernel', (2, 8)), ('bias', (8,))]
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from minitape import ops
from minitape.core.tensor import Tensor
from minitape.dialect import nn
from minitape.keras import activations, constraints, initializers, regularizers
from minitape.keras.layers.layer import Layer


def _defined_by(cls: type, name: str) -> type:
    """The class in ``cls``'s method order that defines the attribute ``name``."""
    return next(c for c in cls.__mro__ if name in c.__dict__)


class DropoutCell(Layer):
    """What the three cells share: their options, their three weights, and dropout masks.

    With ``dropout`` (on the step's input) or ``recurrent_dropout`` (on the previous state), a
    training call multiplies by a mask drawn once per sequence (``RNN`` draws it before the
    first step and forgets it after the last), the same mask at every step, as Keras does.

    >>> import minitape as tf
    >>> cell = tf.keras.layers.SimpleRNNCell(3, dropout=0.5)
    >>> cell.state_size, cell.output_size
    (3, 3)
    """

    gates = 1                 # how many blocks of ``units`` columns the kernels hold

    def __init__(self, units: int, activation: str | Callable | None = "tanh", use_bias: bool = True,
                 kernel_initializer: Any = "glorot_uniform", recurrent_initializer: Any = "orthogonal",
                 bias_initializer: Any = "zeros", kernel_regularizer: Any = None, recurrent_regularizer: Any = None,
                 bias_regularizer: Any = None, kernel_constraint: Any = None, recurrent_constraint: Any = None,
                 bias_constraint: Any = None, dropout: float = 0.0, recurrent_dropout: float = 0.0,
                 seed: int | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if isinstance(units, bool) or not isinstance(units, int) or units <= 0:
            raise ValueError(f"Received an invalid value for argument `units`, expected a positive integer, got "
                             f"{units}.")
        self.units = units
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.recurrent_initializer = initializers.get(recurrent_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer, self.recurrent_regularizer, self.bias_regularizer = (
            regularizers.get(r) for r in (kernel_regularizer, recurrent_regularizer, bias_regularizer))
        self.kernel_constraint, self.recurrent_constraint, self.bias_constraint = (
            constraints.get(c) for c in (kernel_constraint, recurrent_constraint, bias_constraint))
        self.dropout = min(1.0, max(0.0, dropout))
        self.recurrent_dropout = min(1.0, max(0.0, recurrent_dropout))
        self.seed = seed
        self.state_size = self.output_size = units
        self._dropout_masks: dict[str, Tensor | None] = {}

    def build(self, input_shape: tuple) -> None:
        """Make ``kernel`` (input features by gates), ``recurrent_kernel`` (units by gates) and ``bias``.

        >>> import minitape as tf
        >>> cell = tf.keras.layers.GRUCell(2, reset_after=False)
        >>> cell.build((None, 5))
        >>> [tuple(v.shape) for v in cell.weights]
        [(5, 6), (2, 6), (6,)]
        """
        width = self.gates * self.units
        self.kernel = self.add_weight((input_shape[-1], width), self.kernel_initializer, name="kernel",
                                      regularizer=self.kernel_regularizer, constraint=self.kernel_constraint)
        self.recurrent_kernel = self.add_weight((self.units, width), self.recurrent_initializer,
                                                name="recurrent_kernel", regularizer=self.recurrent_regularizer,
                                                constraint=self.recurrent_constraint)
        self.bias = self.add_weight(self._bias_shape(), self._bias_initializer(), name="bias",
                                    regularizer=self.bias_regularizer,
                                    constraint=self.bias_constraint) if self.use_bias else None

    def _bias_shape(self) -> tuple[int, ...]:
        return (self.gates * self.units,)

    def _bias_initializer(self) -> Callable:
        return self.bias_initializer

    def get_initial_state(self, batch_size: int) -> list[Tensor]:
        """Zeros, one ``(batch_size, units)`` tensor per state.

        >>> import minitape as tf
        >>> [s.shape for s in tf.keras.layers.LSTMCell(4).get_initial_state(2)]
        [TensorShape([2, 4]), TensorShape([2, 4])]
        """
        sizes = self.state_size if isinstance(self.state_size, list) else [self.state_size]
        return [ops.zeros((batch_size, size), self.compute_dtype) for size in sizes]

    def _dropped(self, x: Tensor, which: str, training: bool | None) -> Tensor:
        """``x`` times this sequence's dropout mask ``which`` ("input" or "recurrent"), when training."""
        rate = self.dropout if which == "input" else self.recurrent_dropout
        if not training or not 0.0 < rate < 1.0:
            return x
        if self._dropout_masks.get(which) is None:
            self._dropout_masks[which] = nn.dropout(ops.ones_like(x), rate, seed=self.seed)
        return x * self._dropout_masks[which]

    def call(self, inputs: Tensor, states: Any, training: bool | None = False) -> tuple[Tensor, Any]:
        """One step: the input through the kernel (``x @ kernel + bias``), then the cell's ``step``.

        >>> import minitape as tf
        >>> cell = tf.keras.layers.SimpleRNNCell(1, activation="linear", kernel_initializer="ones",
        ...                                      recurrent_initializer="ones")
        >>> cell.build((None, 1))
        >>> cell.call(tf.constant([[2.0]]), [tf.constant([[3.0]])])[0].numpy()
        array([[5.]], dtype=float32)
        """
        return self.step(self._projected(self._dropped(inputs, "input", training)), states, training)

    def project_inputs(self, sequences: Tensor, training: bool | None = False) -> Tensor | None:
        """Every time step's ``x_t @ kernel + bias`` at once, for ``RNN`` to hand to ``step`` one by one:
        one matmul for the sequence instead of one per step.  None while input dropout is on (a training
        call with ``dropout``): then each step's input is masked first; None too for a subclass with its own
        ``call``, which then runs at each step, as Keras runs it.

        >>> import minitape as tf
        >>> cell = tf.keras.layers.LSTMCell(2)
        >>> cell.build((None, 3))
        >>> cell.project_inputs(tf.ones((4, 5, 3))).shape
        TensorShape([4, 5, 8])
        """
        if (training and 0.0 < self.dropout < 1.0) or type(self).call is not DropoutCell.call:
            return None
        return self._projected(sequences)

    def _projected(self, x: Tensor) -> Tensor:
        """``x @ kernel + bias`` over the last axis of ``x`` (a step's input, or a whole sequence's)."""
        z, bias = ops.matmul(x, self.kernel), self._input_bias()
        return z if bias is None else z + bias

    def _input_bias(self) -> Tensor | None:
        return self.bias

    def _runs_whole(self, projected: Tensor, training: bool | None) -> bool:
        """Whether ``sequence`` may run every step as one op: Keras' default activations (tanh, and sigmoid
        for the gates of a cell that has them), no recurrent dropout while training (its mask multiplies
        each step's state), some steps to run, and no ``step`` of a subclass's own (which then runs at
        each step, as Keras runs it)."""
        return (self.activation is ops.tanh and getattr(self, "recurrent_activation", ops.sigmoid) is ops.sigmoid
                and not (training and 0.0 < self.recurrent_dropout < 1.0) and bool(projected.shape[1])
                and projected.dtype == self.recurrent_kernel.dtype
                and _defined_by(type(self), "step") is _defined_by(type(self), "sequence"))

    def _batch_wide(self, state: Tensor, batch: int) -> Tensor:
        """``state`` spread to ``(batch, units)`` where it broadcasts there (an initial state of one row, or of
        one vector, as TF's arithmetic spreads it over the batch); else as it is, for the ops to refuse by name."""
        shape, wanted = tuple(state.shape), (batch, self.units)
        spreads = len(shape) <= 2 and all(size in (1, full) for size, full in zip(shape[::-1], wanted[::-1]))
        return ops.broadcast_to(state, wanted) if spreads and shape != wanted else state

    def reset_dropout_masks(self) -> None:
        """Forget the masks: the next sequence draws its own (``RNN`` calls this after the last step).

        >>> import minitape as tf
        >>> cell = tf.keras.layers.SimpleRNNCell(2, dropout=0.5)
        >>> _ = cell(tf.ones((1, 3)), [tf.zeros((1, 2))], training=True)
        >>> len(cell._dropout_masks)
        1
        >>> cell.reset_dropout_masks()
        >>> cell._dropout_masks
        {}
        """
        self._dropout_masks = {}


class SimpleRNNCell(DropoutCell):
    """``h = activation(x @ kernel + bias + h_prev @ recurrent_kernel)``; the output is the new state.

    >>> import minitape as tf
    >>> cell = tf.keras.layers.SimpleRNNCell(2, kernel_initializer="ones", recurrent_initializer="ones")
    >>> out, [state] = cell(tf.constant([[0.5]]), [tf.constant([[0.0, 0.0]])])
    >>> out.numpy().round(4)                        # tanh(0.5)
    array([[0.4621, 0.4621]], dtype=float32)
    """

    def sequence(self, projected: Tensor, states: list[Tensor], go_backwards: bool = False,
                 training: bool | None = False) -> tuple[Tensor, Tensor, list[Tensor]] | None:
        """Every step at once from the projected inputs (see ``project_inputs``), as one
        ``simple_rnn_sequence``: the last output, every step's (in the order computed) and ``[last]``.
        None where steps must run one by one: another activation than ``tanh``, or recurrent dropout
        in training.

        >>> import minitape as tf
        >>> cell = tf.keras.layers.SimpleRNNCell(2)
        >>> cell.build((None, 3))
        >>> cell.sequence(cell.project_inputs(tf.ones((4, 5, 3))), [tf.zeros((4, 2))])[1].shape
        TensorShape([4, 5, 2])
        """
        if not self._runs_whole(projected, training):
            return None
        if go_backwards:
            projected = ops.reverse(projected, [1])
        outputs = ops.simple_rnn_sequence(projected, self.recurrent_kernel,
                                          self._batch_wide(states[0], projected.shape[0]))
        last = outputs[:, -1, :]
        return last, outputs, [last]

    def step(self, projected: Tensor, states: Any, training: bool | None = False) -> tuple[Tensor, Any]:
        """One step from this step's projected input ``x_t @ kernel + bias``: the new state, as the output
        and as the list of states.

        >>> import minitape as tf
        >>> cell = tf.keras.layers.SimpleRNNCell(1, activation="linear", recurrent_initializer="ones")
        >>> cell.build((None, 1))
        >>> cell.step(tf.constant([[2.0]]), [tf.constant([[3.0]])])[0].numpy()
        array([[5.]], dtype=float32)
        """
        previous = states[0] if isinstance(states, list | tuple) else states
        output = projected + ops.matmul(self._dropped(previous, "recurrent", training), self.recurrent_kernel)
        if self.activation is not None:
            output = self.activation(output)
        return output, [output] if isinstance(states, list | tuple) else output


class GRUCell(DropoutCell):
    """A gated recurrent unit: ``h = z * h_prev + (1 - z) * candidate``, with the update gate ``z`` and the
    reset gate ``r`` in (0, 1).  Keras 3's default ``reset_after=True`` applies ``r`` after the recurrent
    matmul and keeps two biases (input and recurrent), so ``bias`` is ``(2, 3 * units)``.

    >>> import minitape as tf
    >>> cell = tf.keras.layers.GRUCell(2)
    >>> _ = cell(tf.ones((1, 3)), [tf.zeros((1, 2))])
    >>> [tuple(v.shape) for v in cell.weights]
    [(3, 6), (2, 6), (2, 6)]
    """

    gates = 3

    def __init__(self, units: int, activation: Any = "tanh", recurrent_activation: Any = "sigmoid",
                 reset_after: bool = True, **kwargs: Any) -> None:
        super().__init__(units, activation, **kwargs)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.reset_after = reset_after

    def _bias_shape(self) -> tuple[int, ...]:
        return (2, 3 * self.units) if self.reset_after else (3 * self.units,)

    def _input_bias(self) -> Tensor | None:
        return None if self.bias is None else self.bias[0] if self.reset_after else self.bias

    def _recurrent_bias(self) -> Tensor | None:
        return self.bias[1] if self.bias is not None and self.reset_after else None

    def sequence(self, projected: Tensor, states: list[Tensor], go_backwards: bool = False,
                 training: bool | None = False) -> tuple[Tensor, Tensor, list[Tensor]] | None:
        """Every step at once from the projected inputs (see ``project_inputs``), as one ``gru_sequence``:
        the last output, every step's (in the order computed) and the final ``[h]``.  None where steps
        must run one by one: ``reset_after=False``, other activations than Keras' defaults, or recurrent
        dropout in training.

        >>> import minitape as tf
        >>> cell = tf.keras.layers.GRUCell(2)
        >>> cell.build((None, 3))
        >>> h, every, [h_again] = cell.sequence(cell.project_inputs(tf.ones((4, 5, 3))), [tf.zeros((4, 2))])
        >>> every.shape, h is h_again
        (TensorShape([4, 5, 2]), True)
        """
        if not self.reset_after or not self._runs_whole(projected, training):
            return None
        if go_backwards:
            projected = ops.reverse(projected, [1])
        bias = self._recurrent_bias()
        bias = ops.zeros((3 * self.units,), projected.dtype) if bias is None else bias
        outputs = ops.gru_sequence(projected, self.recurrent_kernel, bias, self._batch_wide(states[0], projected.shape[0]))
        last = outputs[:, -1, :]
        return last, outputs, [last]

    def step(self, projected: Tensor, states: Any, training: bool | None = False) -> tuple[Tensor, Any]:
        """One step from this step's projected input ``x_t @ kernel + input bias``: ``z * h_prev + (1 - z) *
        candidate``, as the output and as the list of states.

        >>> import minitape as tf
        >>> cell = tf.keras.layers.GRUCell(2, kernel_initializer="zeros", recurrent_initializer="zeros")
        >>> cell.build((None, 1))
        >>> cell.step(tf.zeros((1, 6)), [tf.constant([[4.0, 2.0]])])[0].numpy()    # z = 1/2, candidate 0
        array([[2., 1.]], dtype=float32)
        """
        previous = states[0] if isinstance(states, list | tuple) else states
        n, x, recurrent_bias = self.units, projected, self._recurrent_bias()
        h = self._dropped(previous, "recurrent", training)
        if self.reset_after:
            inner = ops.matmul(h, self.recurrent_kernel)
            if recurrent_bias is not None:
                inner = inner + recurrent_bias
        else:
            inner = ops.matmul(h, self.recurrent_kernel[:, :2 * n])
        z = self.recurrent_activation(x[:, :n] + inner[:, :n])
        r = self.recurrent_activation(x[:, n:2 * n] + inner[:, n:2 * n])
        if self.reset_after:
            recurrent_h = r * inner[:, 2 * n:]
        else:
            recurrent_h = ops.matmul(r * h, self.recurrent_kernel[:, 2 * n:])
        candidate = self.activation(x[:, 2 * n:] + recurrent_h)
        new = z * previous + (1 - z) * candidate
        return new, [new] if isinstance(states, list | tuple) else new


class LSTMCell(DropoutCell):
    """A long short-term memory unit: two states, the output ``h`` and the carry ``c``.
    ``c = f * c_prev + i * activation(...)``, ``h = o * activation(c)``, with the gates ``i, f, o`` in (0, 1).
    ``unit_forget_bias`` (the default) starts the forget gate's bias at 1, so the carry is kept at first.

    >>> import minitape as tf
    >>> cell = tf.keras.layers.LSTMCell(1)
    >>> cell.build((None, 2))
    >>> cell.bias.numpy()                    # i, f, c, o
    array([0., 1., 0., 0.], dtype=float32)
    """

    gates = 4

    def __init__(self, units: int, activation: Any = "tanh", recurrent_activation: Any = "sigmoid",
                 unit_forget_bias: bool = True, **kwargs: Any) -> None:
        super().__init__(units, activation, **kwargs)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.unit_forget_bias = unit_forget_bias
        self.state_size = [units, units]

    def _bias_initializer(self) -> Callable:
        if not self.unit_forget_bias:
            return self.bias_initializer
        n, init = self.units, self.bias_initializer
        return lambda shape, dtype=None: ops.concat([init((n,), dtype), ops.ones((n,), dtype), init((2 * n,), dtype)],
                                                    axis=0)

    def sequence(self, projected: Tensor, states: list[Tensor], go_backwards: bool = False,
                 training: bool | None = False) -> tuple[Tensor, Tensor, list[Tensor]] | None:
        """Every step at once from the projected inputs (see ``project_inputs``), as one ``lstm_sequence``:
        the last ``h``, every step's ``h`` (in the order computed) and the final ``[h, c]``.  None where
        steps must run one by one: other activations than Keras' defaults, recurrent dropout in training,
        or a subclass with its own ``step``.

        >>> import minitape as tf
        >>> cell = tf.keras.layers.LSTMCell(2)
        >>> cell.build((None, 3))
        >>> h, every, (_, c) = cell.sequence(cell.project_inputs(tf.ones((4, 5, 3))), [tf.zeros((4, 2))] * 2)
        >>> every.shape, bool((every[:, -1].numpy() == h.numpy()).all())
        (TensorShape([4, 5, 2]), True)
        """
        if not self._runs_whole(projected, training):
            return None
        if go_backwards:
            projected = ops.reverse(projected, [1])
        h, c = (self._batch_wide(s, projected.shape[0]) for s in states[:2])
        hc, n = ops.lstm_sequence(projected, self.recurrent_kernel, h, c), self.units
        h = hc[:, -1, :n]
        return h, hc[:, :, :n], [h, hc[:, -1, n:]]

    def step(self, projected: Tensor, states: Any, training: bool | None = False) -> tuple[Tensor, list[Tensor]]:
        """One step from this step's projected input ``x_t @ kernel + bias`` (see ``project_inputs``).

        >>> import minitape as tf
        >>> cell = tf.keras.layers.LSTMCell(1, kernel_initializer="zeros", recurrent_initializer="zeros")
        >>> cell.build((None, 1))
        >>> h, (_, c) = cell.step(tf.constant([[0.0, 1.0, 0.0, 0.0]]), [tf.zeros((1, 1)), tf.constant([[2.0]])])
        >>> round(float(c[0, 0]), 4)
        1.4621
        """
        h_previous, c_previous = (self._batch_wide(s, projected.shape[0]) for s in states[:2])
        z = projected + ops.matmul(self._dropped(h_previous, "recurrent", training), self.recurrent_kernel)
        if self.activation is ops.tanh and self.recurrent_activation is ops.sigmoid:     # Keras' defaults
            h, c = ops.split(ops.lstm_cell(z, c_previous), 2, axis=1)      # one primitive for the dozen ops below
            return h, [h, c]
        z_i, z_f, z_c, z_o = ops.split(z, 4, axis=1)         # one tape entry, where four slices are four
        i, f, o = self.recurrent_activation(z_i), self.recurrent_activation(z_f), self.recurrent_activation(z_o)
        c = f * c_previous + i * self.activation(z_c)
        h = o * self.activation(c)
        return h, [h, c]
