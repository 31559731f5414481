"""Layers around a layer: ``Bidirectional`` (an RNN read both ways) and ``TimeDistributed`` (a layer
applied to each time step).

>>> import minitape as tf
>>> both = tf.keras.layers.Bidirectional(tf.keras.layers.GRU(3, return_sequences=True))
>>> both(tf.ones((2, 5, 4))).shape                     # forward and backward outputs side by side
TensorShape([2, 5, 6])
"""
from __future__ import annotations

from typing import Any

from minitape import ops
from minitape.core.tensor import Tensor
from minitape.keras.layers.layer import Layer, takes_mask, takes_training
from minitape.keras.layers.recurrent import RNN, building_inside, known_size

_MERGES = {"concat": lambda y, y_rev: ops.concat([y, y_rev], axis=-1), "sum": lambda y, y_rev: y + y_rev,
           "ave": lambda y, y_rev: (y + y_rev) / 2, "mul": lambda y, y_rev: y * y_rev}


class Bidirectional(Layer):
    """Two copies of an RNN layer, ``forward_<name>`` and ``backward_<name>`` (reading the sequence from its
    end), their outputs merged by ``merge_mode``: ``"concat"`` (the default), ``"sum"``, ``"mul"``, ``"ave"``,
    or None for the two as a list.  With ``return_sequences`` the backward outputs are put back in time order
    first.  The weights are the forward layer's, then the backward layer's.

    >>> import minitape as tf
    >>> both = tf.keras.layers.Bidirectional(tf.keras.layers.SimpleRNN(2, name="rnn"), merge_mode="sum", name="bi")
    >>> _ = both(tf.ones((1, 3, 4)))
    >>> [v.path for v in both.weights][:2]
    ['bi/forward_rnn/simple_rnn_cell/kernel', 'bi/forward_rnn/simple_rnn_cell/recurrent_kernel']
    """

    supports_masking = True

    def __init__(self, layer: RNN, merge_mode: str | None = "concat", weights: Any = None,
                 backward_layer: RNN | None = None, **kwargs: Any) -> None:
        if not isinstance(layer, Layer):
            raise ValueError(f"Please initialize `Bidirectional` layer with a `keras.layers.Layer` instance. "
                             f"Received: {layer}")
        if not isinstance(layer, RNN):
            raise NotImplementedError(f"minitape's Bidirectional wraps its RNN layers (SimpleRNN, GRU, LSTM, RNN); "
                                      f"received {type(layer).__name__}.")
        if merge_mode not in ("sum", "mul", "ave", "concat", None):
            raise ValueError(f"Invalid merge mode. Received: {merge_mode}. Merge mode should be one of "
                             '{"sum", "mul", "ave", "concat", None}')
        if weights is not None:
            raise NotImplementedError("Bidirectional(weights=...) is not supported: call set_weights after building.")
        super().__init__(**kwargs)
        self.forward_layer = layer.copy(name="forward_" + layer.name)
        self.backward_layer = backward_layer if backward_layer is not None else layer.copy(
            name="backward_" + layer.name, go_backwards=not layer.go_backwards)
        if self.forward_layer.go_backwards == self.backward_layer.go_backwards:
            raise ValueError("Forward layer and backward layer should have different `go_backwards` value. "
                             f"Received: forward_layer.go_backwards {self.forward_layer.go_backwards}, "
                             f"backward_layer.go_backwards={self.backward_layer.go_backwards}")
        for name in ("stateful", "return_sequences", "return_state"):
            if getattr(self.forward_layer, name) != getattr(self.backward_layer, name):
                raise ValueError(f"Forward layer and backward layer are expected to have the same value for "
                                 f"attribute '{name}', got '{getattr(self.forward_layer, name)}' for forward layer "
                                 f"and '{getattr(self.backward_layer, name)}' for backward layer")
        for rnn in (self.forward_layer, self.backward_layer):
            rnn.zero_output_for_mask = rnn.return_sequences      # as Keras: padding steps give zeros both ways
        self.merge_mode = merge_mode
        self.return_sequences, self.return_state = layer.return_sequences, layer.return_state

    def build(self, sequences_shape: tuple, initial_state_shape: Any = None) -> None:
        """Build the forward layer, then the backward one (so their weights come in that order).

        >>> import minitape as tf
        >>> both = tf.keras.layers.Bidirectional(tf.keras.layers.LSTM(2))
        >>> both.build((None, 5, 3))
        >>> both.count_params()                        # 2 * (3*8 + 2*8 + 8)
        96
        """
        with building_inside(self):
            for rnn in (self.forward_layer, self.backward_layer):
                with rnn._calling():
                    rnn.build(sequences_shape)

    def call(self, sequences: Tensor, initial_state: Any = None, mask: Tensor | None = None,
             training: bool | None = None) -> Any:
        """Both layers over ``sequences`` (``initial_state``: the forward states, then the backward ones).

        >>> import minitape as tf
        >>> both = tf.keras.layers.Bidirectional(tf.keras.layers.SimpleRNN(2), merge_mode=None)
        >>> [y.shape for y in both(tf.ones((1, 3, 4)))]
        [TensorShape([1, 2]), TensorShape([1, 2])]
        """
        kwargs: dict[str, Any] = {"mask": mask}
        if training is not None:
            kwargs["training"] = training
        forward_state = backward_state = None
        if initial_state is not None:
            half = len(initial_state) // 2
            forward_state, backward_state = list(initial_state[:half]), list(initial_state[half:])
        y = self.forward_layer(sequences, initial_state=forward_state, **kwargs)
        y_rev = self.backward_layer(sequences, initial_state=backward_state, **kwargs)
        states: list[Tensor] = []
        if self.return_state:
            states = [*y[1:], *y_rev[1:]]
            y, y_rev = y[0], y_rev[0]
        if self.return_sequences:
            y_rev = ops.stack([y_rev[:, t] for t in reversed(range(y_rev.shape[1]))], axis=1)
        output = [y, y_rev] if self.merge_mode is None else [_MERGES[self.merge_mode](y, y_rev)]
        if self.return_state or self.merge_mode is None:
            return [*output, *states]
        return output[0]

    def compute_mask(self, inputs: Any, previous_mask: Any) -> Any:
        """The input's mask for sequence outputs (each of the two when ``merge_mode`` is None); none for states.

        >>> import minitape as tf
        >>> both = tf.keras.layers.Bidirectional(tf.keras.layers.GRU(2))
        >>> both.compute_mask(None, tf.constant([[True]])) is None
        True
        """
        mask = previous_mask[0] if isinstance(previous_mask, list) else previous_mask
        mask = mask if self.return_sequences else None
        masks = [mask, mask] if self.merge_mode is None else [mask]
        if self.return_state:
            return masks + [None] * (2 * len(self.forward_layer.state_size))
        return masks if self.merge_mode is None else mask


class TimeDistributed(Layer):
    """``layer`` applied to every time step: inputs ``(batch, time, ...)``, each ``inputs[:, t]`` given to it,
    the results stacked along the time axis.  One set of weights serves every step.

    >>> import minitape as tf
    >>> per_step = tf.keras.layers.TimeDistributed(tf.keras.layers.Dense(2))
    >>> per_step(tf.ones((4, 3, 5))).shape, [tuple(v.shape) for v in per_step.weights]
    (TensorShape([4, 3, 2]), [(5, 2), (2,)])
    """

    supports_masking = True

    def __init__(self, layer: Layer, **kwargs: Any) -> None:
        if not isinstance(layer, Layer):
            raise ValueError(f"Please initialize `TimeDistributed` layer with a `keras.layers.Layer` instance. "
                             f"Received: {layer}")
        super().__init__(**kwargs)
        self.layer = layer

    def build(self, input_shape: tuple) -> None:
        """Build the inner layer for one step's shape, ``(batch, *input_shape[2:])``.

        >>> import minitape as tf
        >>> per_step = tf.keras.layers.TimeDistributed(tf.keras.layers.Dense(3))
        >>> per_step.build((None, 7, 4))
        >>> tuple(per_step.layer.kernel.shape)
        (4, 3)
        """
        if len(input_shape) < 3:
            raise ValueError(f"`TimeDistributed` Layer should be passed an `input_shape` with at least 3 dimensions, "
                             f"received: {tuple(input_shape)}")
        if not self.layer.built:
            with building_inside(self), self.layer._calling():
                self.layer.build((input_shape[0], *input_shape[2:]))

    def call(self, inputs: Tensor, training: bool | None = None, mask: Tensor | None = None) -> Tensor:
        """The inner layer's ``call`` on each ``inputs[:, t]``, stacked on axis 1.

        >>> import minitape as tf
        >>> double = tf.keras.layers.TimeDistributed(tf.keras.layers.Lambda(lambda x: 2 * x))
        >>> double(tf.ones((1, 2, 1))).numpy().ravel()
        array([2., 2.], dtype=float32)
        """
        kwargs: dict[str, Any] = {}
        if takes_training(type(self.layer)):
            kwargs["training"] = training
        steps = []
        for t in range(known_size(inputs, 1)):
            if mask is not None and takes_mask(type(self.layer)):
                kwargs["mask"] = mask[:, t]
            steps.append(self.layer.call(inputs[:, t], **kwargs))
        return ops.stack(steps, axis=1)
