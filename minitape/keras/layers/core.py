"""Layers: objects that own variables and compute with them in ``call``.

A layer builds its weights on its first call, when it first sees the input's
shape.  Integer inputs are cast to float32 first, as Keras does.

>>> import minitape as tf
>>> layer = tf.keras.layers.Dense(2)
>>> layer.built
False
>>> layer(tf.constant([[1, 2, 3]])).dtype, layer.built
(tf.float32, True)
>>> [tuple(v.shape) for v in layer.trainable_variables]
[(3, 2), (2,)]
"""
from __future__ import annotations

import collections
import functools
import math
import re
import threading
from collections.abc import Callable
from typing import Any

import numpy as np

from minitape.core import dtypes, nest, random
from minitape import ops
from minitape.checkpointing.call import accepts_keyword, register_context
from minitape.keras import activations, initializers
from minitape.core.tensor import Tensor, Variable

_name_counts: collections.Counter = collections.Counter()


def _unique_name(cls: type) -> str:
    """Keras' default name: the class name in snake case (``Conv2D`` is ``conv2d``), numbered after the first."""
    base = re.sub("(.)([A-Z][a-z]+)", r"\1_\2", cls.__name__)
    base = re.sub("([a-z])([A-Z])", r"\1_\2", base).lower()
    count = _name_counts[base]
    _name_counts[base] += 1
    return base if count == 0 else f"{base}_{count}"


class _CallContext(threading.local):
    training: bool | None = None     # the training mode of the layer call in progress, for layers inside it


_context = _CallContext()
# A block recomputed for the backward pass runs in the training mode its forward pass had.
register_context(lambda: _context.training, lambda training: setattr(_context, "training", training))


@functools.cache
def takes_training(cls: type) -> bool:
    """Whether a layer class's ``call`` accepts ``training`` (Keras passes it only to those that do).

    >>> import minitape as tf
    >>> from minitape.keras.layers.core import takes_training
    >>> takes_training(tf.keras.layers.Dropout), takes_training(tf.keras.layers.Dense)
    (True, False)
    """
    return accepts_keyword(cls.call, "training", or_any_keyword=True)


class Layer:
    """The base class: override ``build(input_shape)`` to create weights and ``call(inputs)`` to compute.

    >>> import minitape as tf
    >>> class Scale(tf.keras.layers.Layer):
    ...     def build(self, input_shape):
    ...         self.w = self.add_weight("w", shape=(), initializer="ones")
    ...     def call(self, inputs):
    ...         return self.w * inputs
    >>> scale = Scale(name="scale")
    >>> scale(tf.constant([1.0, 2.0])).numpy(), [v.name for v in scale.variables]
    (array([1., 2.], dtype=float32), ['scale/w:0'])
    """

    casts_inputs = True          # integer inputs become float32 (Embedding, which takes indices, says False)

    def __init__(self, trainable: bool = True, name: str | None = None, dtype: Any = None,
                 input_shape: tuple | None = None, **kwargs: Any) -> None:
        if kwargs:
            raise ValueError(f"Unrecognized keyword arguments passed to {type(self).__name__}: {kwargs}")
        self._weights: list[Variable] = []
        self._layers: list[Layer] = []
        self.trainable = trainable
        self.name = name or _unique_name(type(self))
        self.built = False
        self.input_shape_hint = None if input_shape is None else tuple(input_shape)   # Sequential builds from it
        self.output_shape: Any = None

    def __setattr__(self, name: str, value: Any) -> None:
        # Track sub-layers (also in lists) so their variables belong to this layer too.
        if not name.startswith("_") and "_layers" in self.__dict__:
            for item in nest.flatten(value) if isinstance(value, list | tuple) else [value]:
                if isinstance(item, Layer) and item is not self and item not in self._layers:
                    self._layers.append(item)
        super().__setattr__(name, value)

    def build(self, input_shape: Any) -> None:
        """Create the layer's weights, knowing the input shape (called once, on the first call).

        >>> import minitape as tf
        >>> layer = tf.keras.layers.Layer()
        >>> layer.build((2, 3))
        >>> layer.built, layer.variables
        (True, [])
        """
        self.built = True

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        """The computation, written by subclasses; the base layer passes ``inputs`` through.

        Call the layer itself, ``layer(x)``: it builds the weights first, then calls ``call``.

        >>> import minitape as tf
        >>> tf.keras.layers.Layer().call(tf.constant([1.0, 2.0])).numpy()
        array([1., 2.], dtype=float32)
        """
        return inputs

    def __call__(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        if self.casts_inputs:
            inputs = nest.pack_sequence_as(inputs, [self._input(x) for x in nest.flatten(inputs)])
        if not self.built:
            shapes = [tuple(x.shape) if hasattr(x, "shape") else None for x in nest.flatten(inputs)]
            self.build(shapes if nest.is_nested(inputs) else shapes[0])         # a list of inputs: their shapes
            self.built = True
        # As Keras: `training` given to an outer layer reaches the layers it calls without one.
        training = kwargs.pop("training") if "training" in kwargs else _context.training
        if training is not None and takes_training(type(self)):
            kwargs["training"] = training
        outer, _context.training = _context.training, training
        try:
            outputs = self.call(inputs, *args, **kwargs)
        finally:
            _context.training = outer
        self.output_shape = nest.pack_sequence_as(outputs, [(None, *x.shape[1:]) if isinstance(x, Tensor) else None
                                                            for x in nest.flatten(outputs)])
        return outputs

    def count_params(self) -> int:
        """How many numbers the layer's variables hold, sub-layers' included.

        >>> import minitape as tf
        >>> layer = tf.keras.layers.Dense(3)
        >>> layer.build((None, 4))
        >>> layer.count_params()                # a 4 x 3 kernel and 3 biases
        15
        """
        if not self.built:
            raise ValueError(f"You tried to call `count_params` on layer '{self.name}', but the layer isn't built. "
                             f"You can build it manually via: `{self.name}.build(input_shape)`.")
        return sum(math.prod(v.shape) for v in self.variables)

    def add_weight(self, name: str | None = None, shape: Any = None, dtype: Any = None,
                   initializer: str | Callable = "glorot_uniform", trainable: bool = True) -> Variable:
        """Create a variable owned by this layer, named ``<layer>/<name>:0``.

        >>> import minitape as tf
        >>> layer = tf.keras.layers.Layer(name="block")
        >>> layer.add_weight("scale", shape=(2,), initializer="ones")
        <minitape.Variable 'block/scale:0' shape=(2,) dtype=float32, numpy=array([1., 1.], dtype=float32)>
        """
        shape = tuple(shape or ())
        dtype = dtypes.as_dtype(dtype or dtypes.float32)
        with random.global_source():     # creating weights is not part of a replayed computation
            value = initializers.get(initializer or "glorot_uniform")(shape, dtype)     # None: Keras' default
        variable = Variable(value, trainable=trainable and self.trainable, name=f"{self.name}/{name or 'weight'}")
        self._weights.append(variable)
        return variable

    @property
    def variables(self) -> list[Variable]:
        """All variables of this layer and its sub-layers, each once.

        >>> import minitape as tf
        >>> model = tf.keras.Sequential([tf.keras.layers.Dense(2, name="a"), tf.keras.layers.Dense(1, name="b")])
        >>> _ = model(tf.ones((1, 3)))
        >>> [v.name for v in model.variables]
        ['a/kernel:0', 'a/bias:0', 'b/kernel:0', 'b/bias:0']
        """
        seen: dict[int, Variable] = {}
        for layer in self._walk():
            for v in layer._weights:
                seen.setdefault(id(v), v)
        return list(seen.values())

    weights = variables

    @property
    def trainable_variables(self) -> list[Variable]:
        """The variables that training updates: those created with ``trainable=True``.

        >>> import minitape as tf
        >>> dense = tf.keras.layers.Dense(2, name="d")
        >>> _ = dense(tf.ones((1, 3)))
        >>> [tuple(v.shape) for v in dense.trainable_variables]
        [(3, 2), (2,)]
        """
        return [v for v in self.variables if v.trainable]

    trainable_weights = trainable_variables

    @property
    def non_trainable_variables(self) -> list[Variable]:
        """The variables that training leaves alone: those created with ``trainable=False``.

        >>> import minitape as tf
        >>> layer = tf.keras.layers.Layer(name="counter")
        >>> _ = layer.add_weight("w", shape=()), layer.add_weight("count", shape=(), trainable=False)
        >>> [v.name for v in layer.non_trainable_variables]
        ['counter/count:0']
        """
        return [v for v in self.variables if not v.trainable]

    def _input(self, x: Any) -> Any:
        """One input as a floating tensor (None passes); a bare number is refused, as Keras refuses it."""
        if x is None:
            return x
        if not isinstance(x, Tensor | Variable | np.ndarray | np.generic):
            raise ValueError(f"Only input tensors may be passed as positional arguments. The following argument value "
                             f"should be passed as a keyword argument: {x!r} (of type {type(x)}); give layer "
                             f"'{self.name}' a tensor or NumPy array, e.g. tf.constant({x!r}).")
        return _as_float(x)

    def _walk(self) -> list["Layer"]:
        """This layer and every sub-layer, depth first, without recursion."""
        order, stack = [], [self]
        while stack:
            layer = stack.pop()
            if layer not in order:
                order.append(layer)
                stack.extend(reversed(layer._layers))
        return order


def _as_float(x: Any) -> Any:
    # As Keras: NumPy arrays become float32 tensors, and integer and bool tensors are cast to float32.
    if isinstance(x, Tensor | Variable) and x.dtype.is_floating:
        return x
    return ops.cast(ops.as_operand(x), dtypes.float32)


class Dense(Layer):
    """``activation(inputs @ kernel + bias)`` over the last axis of the inputs.

    >>> import minitape as tf
    >>> layer = tf.keras.layers.Dense(2, kernel_initializer="ones", bias_initializer="zeros")
    >>> layer(tf.constant([[1.0, 2.0, 3.0]]))
    <minitape.Tensor: shape=(1, 2), dtype=float32, numpy=array([[6., 6.]], dtype=float32)>
    """

    def __init__(self, units: int, activation: str | Callable | None = None, use_bias: bool = True,
                 kernel_initializer: str | Callable = "glorot_uniform", bias_initializer: str | Callable = "zeros",
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if not isinstance(units, int) or units <= 0:
            raise ValueError(f"Dense: received an invalid value for `units`, expected a positive integer. "
                             f"Received: units={units!r}")
        self.units = units
        self.activation = activations.get(activation)
        initializers.get(kernel_initializer), initializers.get(bias_initializer)      # unknown names fail here
        self.use_bias = use_bias
        self.kernel_initializer, self.bias_initializer = kernel_initializer, bias_initializer

    def build(self, input_shape: tuple[int, ...]) -> None:
        """Create ``kernel`` (inputs' last axis by ``units``) and ``bias`` (``units``).

        >>> import minitape as tf
        >>> layer = tf.keras.layers.Dense(3)
        >>> layer.build((None, 4))
        >>> tuple(layer.kernel.shape), tuple(layer.bias.shape)
        ((4, 3), (3,))
        """
        if input_shape is None:
            raise ValueError(f"Inputs to a layer should be tensors. Got 'None' as input for layer '{self.name}'.")
        if isinstance(input_shape, list):           # the shapes of a list of inputs
            raise ValueError(f'Layer "{self.name}" expects 1 input, but it received {len(input_shape)} input tensors '
                             f"in a list; pass the tensor itself.")
        if len(input_shape) < 1:
            raise ValueError(f'Input 0 of layer "{self.name}" is incompatible with the layer: expected min_ndim=1, '
                             f"found ndim=0. Full shape received: (); give it at least a vector.")
        self.kernel = self.add_weight("kernel", (input_shape[-1], self.units), initializer=self.kernel_initializer)
        self.bias = self.add_weight("bias", (self.units,), initializer=self.bias_initializer) if self.use_bias else None
        super().build(input_shape)

    def call(self, inputs: Tensor) -> Tensor:
        """``activation(inputs @ kernel + bias)``; a vector is treated as a batch of one.

        >>> import minitape as tf
        >>> layer = tf.keras.layers.Dense(2, kernel_initializer="ones")
        >>> layer.build((3,))
        >>> layer.call(tf.constant([1.0, 2.0, 3.0]))
        <minitape.Tensor: shape=(2,), dtype=float32, numpy=array([6., 6.], dtype=float32)>
        """
        expected = self.kernel.shape[0]
        if not isinstance(inputs, Tensor | Variable):
            raise ValueError(f'Layer "{self.name}" expects one tensor as input, got {type(inputs).__name__} '
                             f"{inputs!r}; stack several inputs first, with tf.concat or tf.stack.")
        if inputs.ndim < 1 or inputs.shape[-1] != expected:
            raise ValueError(f'Input 0 of layer "{self.name}" is incompatible with the layer: expected axis -1 '
                             f"of input shape to have value {expected}, but received input with shape "
                             f"{tuple(inputs.shape)}")
        x = inputs if inputs.ndim >= 2 else ops.expand_dims(inputs, 0)
        out = ops.matmul(x, self.kernel)
        if self.bias is not None:
            out = out + self.bias
        out = out if inputs.ndim >= 2 else ops.squeeze(out, 0)
        return self.activation(out)


class Lambda(Layer):
    """Wrap a function as a layer.

    >>> import minitape as tf
    >>> double = tf.keras.layers.Lambda(lambda x: 2 * x)
    >>> double(tf.constant([1.0, 2.0])).numpy()
    array([2., 4.], dtype=float32)
    """

    def __init__(self, function: Callable, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if not callable(function):
            raise TypeError(f"Lambda needs a callable, got {type(function).__name__}.")
        self.function = function

    def call(self, inputs: Any) -> Any:
        """The wrapped function applied to ``inputs``.

        >>> import minitape as tf
        >>> tf.keras.layers.Lambda(tf.square).call(tf.constant(3.0)).numpy()
        np.float32(9.0)
        """
        return self.function(inputs)
