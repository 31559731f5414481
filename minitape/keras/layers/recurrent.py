"""``RNN``: a cell applied along the time axis, a Python loop over the steps.

Each step is ordinary minitape ops (a slice ``x[:, t]``, the cell's matmuls and gates), so the
tape records the unrolled network and backpropagation runs through time by itself.  A mask
(from ``Embedding(mask_zero=True)``, or ``mask=``) marks padding steps: there the states are
carried over unchanged and the output is the previous step's (zeros with ``zero_output_for_mask``).

>>> import minitape as tf
>>> layer = tf.keras.layers.RNN(tf.keras.layers.SimpleRNNCell(4), return_sequences=True)
>>> layer(tf.ones((2, 5, 3))).shape
TensorShape([2, 5, 4])
"""
from __future__ import annotations

import contextlib
import copy
from collections.abc import Callable
from typing import Any

from minitape import ops
from minitape.core import dtypes
from minitape.core.errors import InvalidArgumentError
from minitape.core.tensor import Tensor
from minitape.keras.layers.layer import Layer, takes_training


def building_inside(layer: Layer) -> contextlib.AbstractContextManager:
    """The context in which ``layer`` builds its sub-layers: its own call (entered if it is built by hand), so
    their weights are named ``layer/sub/...`` either way, as Keras names them.

    >>> import minitape as tf
    >>> rnn = tf.keras.layers.SimpleRNN(2, name="outer")
    >>> with building_inside(rnn):
    ...     rnn.cell.build((None, 3))
    >>> rnn.cell.kernel.path
    'outer/simple_rnn_cell/kernel'
    """
    return contextlib.nullcontext() if layer._in_own_call() else layer._calling()


def known_size(x: Tensor, axis: int) -> int:
    """``x.shape[axis]``; an unknown size (None) is 1, the size a functional model's stand-in holds there
    (see ``keras_tensor``), so building a model on ``Input(shape=(None, 3))`` runs one step.

    >>> import minitape as tf
    >>> known_size(tf.keras.Input(shape=(None, 3)).stand_in(), 1), known_size(tf.ones((2, 5)), 1)
    (1, 5)
    """
    size = x.shape[axis]
    return 1 if size is None else size


def run_steps(step: Callable, sequences: Tensor, states: list[Tensor], mask: Tensor | None = None,
              go_backwards: bool = False, zero_output_for_mask: bool = False
              ) -> tuple[Tensor, list[Tensor], list[Tensor]]:
    """Apply ``step(x_t, states) -> (output, states)`` at each time step of ``sequences`` (batch, time, ...).

    Returns the last output, the list of every step's output (in the order they were computed:
    last time step first when ``go_backwards``) and the final states.  Where ``mask[:, t]`` is
    False the step is skipped: its states are kept and its output is the previous output (or zeros).

    >>> import minitape as tf
    >>> add = lambda x, states: (x + states[0], [x + states[0]])
    >>> last, outputs, [total] = run_steps(add, tf.constant([[1.0, 2.0, 3.0]]), [tf.zeros((1,))])
    >>> last.numpy(), total.numpy()
    (array([6.], dtype=float32), array([6.], dtype=float32))
    """
    times = range(known_size(sequences, 1))
    inputs = ops.unstack(sequences, num=len(times), axis=1)     # one tape entry, its gradient one stack
    outputs: list[Tensor] = []
    for t in reversed(times) if go_backwards else times:
        output, new_states = step(inputs[t], states)
        new_states = list(new_states) if isinstance(new_states, list | tuple) else [new_states]
        if mask is not None:
            keep = ops.expand_dims(mask[:, t], -1)
            held = ops.zeros_like(output) if zero_output_for_mask or not outputs else outputs[-1]
            output = ops.where(keep, output, held)
            new_states = [ops.where(keep, new, old) for new, old in zip(new_states, states)]
        outputs.append(output)
        states = new_states
    return outputs[-1], outputs, states


class RNN(Layer):
    """A recurrent layer made of a ``cell``: any object with ``state_size`` (an int, or a list for several
    states) and ``call(inputs, states) -> (output, new_states)``; a Keras layer cell is built on the first call.

    ``return_sequences`` gives every step's output ``(batch, time, units)`` rather than the last;
    ``return_state`` adds the final states after the output; ``go_backwards`` reads the sequence
    from its end (and returns the outputs in that order); ``initial_state`` replaces the zeros.

    >>> import minitape as tf
    >>> class Running(tf.keras.layers.Layer):        # a cell: the running sum of its inputs
    ...     state_size = 2
    ...     def call(self, inputs, states):
    ...         total = states[0] + inputs
    ...         return total, [total]
    >>> tf.keras.layers.RNN(Running())(tf.ones((1, 4, 2))).numpy()
    array([[4., 4.]], dtype=float32)
    """

    supports_masking = True
    exact_rank = False      # True: (batch, time, features) only, as Keras' LSTM, GRU and SimpleRNN (their input_spec)

    def __init__(self, cell: Any, return_sequences: bool = False, return_state: bool = False,
                 go_backwards: bool = False, stateful: bool = False, unroll: bool = False,
                 zero_output_for_mask: bool = False, **kwargs: Any) -> None:
        if isinstance(cell, list | tuple):
            raise NotImplementedError("minitape's RNN takes one cell, not a list (Keras' StackedRNNCells); stack "
                                      "RNN layers with return_sequences=True instead.")
        if not callable(getattr(cell, "call", None)):
            raise ValueError(f"Argument `cell` should have a `call` method. Received: cell={cell}")
        state_size = getattr(cell, "state_size", None)
        if state_size is None:
            raise ValueError("The RNN cell should have a `state_size` attribute (single integer or list of "
                             f"integers, one integer per RNN state). Received: cell={cell}")
        if stateful:
            raise NotImplementedError("minitape's RNN layers keep no state between calls (stateful=True): pass the "
                                      "states a call returns (return_state=True) to the next as initial_state.")
        super().__init__(**kwargs)
        self.cell = cell
        self.return_sequences, self.return_state, self.go_backwards = return_sequences, return_state, go_backwards
        self.stateful, self.unroll, self.zero_output_for_mask = stateful, unroll, zero_output_for_mask
        self.single_state = isinstance(state_size, int)
        self.state_size = [state_size] if self.single_state else list(state_size)

    def _arguments(self) -> dict[str, Any]:
        """The constructor's arguments, for a copy of this layer (``Bidirectional`` makes two)."""
        return {"cell": copy.deepcopy(self.cell), "return_sequences": self.return_sequences,
                "return_state": self.return_state, "go_backwards": self.go_backwards, "unroll": self.unroll,
                "zero_output_for_mask": self.zero_output_for_mask, "trainable": self.trainable}

    def copy(self, **changes: Any) -> RNN:
        """A new, unbuilt layer with this one's arguments, some ``changes``d (Keras copies through its config).

        >>> import minitape as tf
        >>> tf.keras.layers.LSTM(3).copy(go_backwards=True, name="backward_lstm").go_backwards
        True
        """
        if self.built:
            raise ValueError(f"Layer '{self.name}' is already built: copy it before its first call.")
        return type(self)(**(self._arguments() | changes))

    def build(self, sequences_shape: tuple, initial_state_shape: Any = None) -> None:
        """Build the cell for one step's input shape, ``(batch, *sequences_shape[2:])``.

        >>> import minitape as tf
        >>> layer = tf.keras.layers.GRU(2)
        >>> layer.build((None, 7, 3))
        >>> [tuple(v.shape) for v in layer.weights]
        [(3, 6), (2, 6), (2, 6)]
        """
        self._check_rank(tuple(sequences_shape))
        if isinstance(self.cell, Layer) and not self.cell.built:
            with building_inside(self):
                self.cell.build((sequences_shape[0], *sequences_shape[2:]))

    def get_initial_state(self, batch_size: int) -> list[Tensor]:
        """The cell's initial states (its ``get_initial_state``), else zeros of each ``state_size``.

        >>> import minitape as tf
        >>> tf.keras.layers.SimpleRNN(3).get_initial_state(2)[0].shape
        TensorShape([2, 3])
        """
        if hasattr(self.cell, "get_initial_state"):
            states = self.cell.get_initial_state(batch_size=batch_size)
            return list(states) if isinstance(states, list | tuple) else [states]
        return [ops.zeros((batch_size, size), self.compute_dtype) for size in self.state_size]

    def call(self, sequences: Tensor, initial_state: Any = None, mask: Tensor | None = None,
             training: bool | None = False) -> Any:
        """Run the cell over the time steps; see the class for what comes back.

        >>> import minitape as tf
        >>> lstm = tf.keras.layers.LSTM(2, return_state=True)
        >>> output, h, c = lstm(tf.ones((1, 3, 4)))
        >>> bool((output.numpy() == h.numpy()).all())
        True
        """
        self._check_rank(tuple(sequences.shape))
        if sequences.shape[1] == 0:
            raise InvalidArgumentError(f"Layer '{self.name}' got a sequence of no time steps (shape "
                                       f"{tuple(sequences.shape)}): give it at least one step.")
        states = self._initial_states(sequences, initial_state)
        if mask is not None:
            mask = ops.cast(mask, dtypes.bool)
        kwargs = {"training": training} if isinstance(self.cell, Layer) and takes_training(type(self.cell)) else {}
        cell = self.cell if callable(self.cell) else self.cell.call
        step = lambda x, s: cell(x, s, **kwargs)       # noqa: E731
        projected = self.cell.project_inputs(sequences, training) if hasattr(self.cell, "project_inputs") else None
        if projected is not None:       # every step's input through the kernel at once: one matmul, not one a step
            sequences, step = projected, lambda z, s: self.cell.step(z, s, training)   # noqa: E731
        fused = None
        if projected is not None and mask is None and hasattr(self.cell, "sequence"):
            fused = self.cell.sequence(projected, states, self.go_backwards, training)   # all steps: one op
        try:
            if fused is None:
                last, outputs, states = run_steps(step, sequences, states, mask, self.go_backwards,
                                                  self.zero_output_for_mask)
                outputs = ops.stack(outputs, axis=1) if self.return_sequences else None
            else:
                last, outputs, states = fused
        finally:
            if hasattr(self.cell, "reset_dropout_masks"):
                self.cell.reset_dropout_masks()
        output = outputs if self.return_sequences else last
        return [output, *states] if self.return_state else output

    def _check_rank(self, shape: tuple) -> None:
        if len(shape) < 3 or (self.exact_rank and len(shape) > 3):
            raise ValueError(f'Input 0 of layer "{self.name}" is incompatible with the layer: expected ndim=3, '
                             f"found ndim={len(shape)}. Full shape received: {shape}; give it (batch, time, features).")

    def _initial_states(self, sequences: Tensor, initial_state: Any) -> list[Tensor]:
        if initial_state is None:
            return self.get_initial_state(known_size(sequences, 0))
        states = list(initial_state) if isinstance(initial_state, list | tuple) else [initial_state]
        if len(states) != len(self.state_size):
            raise ValueError(f"Layer '{self.name}' expects {len(self.state_size)} initial state(s) (its cell's "
                             f"state_size is {self.state_size}), but it received {len(states)}.")
        return [ops.cast(ops.as_operand(s), self.compute_dtype) for s in states]

    def compute_mask(self, inputs: Any, previous_mask: Any) -> Any:
        """The input's mask for the output when ``return_sequences``, none for the last output or the states.

        >>> import minitape as tf
        >>> mask = tf.constant([[True, False]])
        >>> tf.keras.layers.SimpleRNN(2).compute_mask(None, mask) is None
        True
        """
        mask = previous_mask[0] if isinstance(previous_mask, list | tuple) else previous_mask
        output_mask = mask if self.return_sequences else None
        return [output_mask] + [None] * len(self.state_size) if self.return_state else output_mask

    @property
    def units(self) -> int:
        """The cell's ``units``.

        >>> import minitape as tf
        >>> tf.keras.layers.GRU(5).units
        5
        """
        return self.cell.units

