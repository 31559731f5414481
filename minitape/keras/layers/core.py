"""Keras' core layers: ``Dense`` and ``Lambda`` (the base class, ``Layer``, is in ``layer``).

>>> import minitape as tf
>>> layer = tf.keras.layers.Dense(2, name="my_dense_layer")
>>> _ = layer(tf.ones((1, 3)))
>>> layer.kernel.name, layer.kernel.path
('kernel', 'my_dense_layer/kernel')
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from minitape import ops
from minitape.core.tensor import Tensor, Variable
from minitape.keras import activations, constraints, initializers, regularizers
from minitape.keras.layers.layer import Layer, takes_training

__all__ = ["Dense", "Lambda", "Layer", "takes_training"]


def kernel_and_bias_options(layer: Layer, kernel_regularizer: Any, bias_regularizer: Any, kernel_constraint: Any,
                            bias_constraint: Any) -> None:
    """Resolve the regularizers and constraints of a layer's ``kernel`` and ``bias`` (``Dense``, ``Conv2D``) onto
    it, by name or object, as ``regularizers.get`` and ``constraints.get`` read them.

    >>> import minitape as tf
    >>> from minitape.keras.layers.core import kernel_and_bias_options
    >>> layer = tf.keras.layers.Layer()
    >>> kernel_and_bias_options(layer, "l2", None, "non_neg", None)
    >>> type(layer.kernel_regularizer).__name__, layer.bias_regularizer, type(layer.kernel_constraint).__name__
    ('L2', None, 'NonNeg')
    """
    layer.kernel_regularizer = regularizers.get(kernel_regularizer)
    layer.bias_regularizer = regularizers.get(bias_regularizer)
    layer.kernel_constraint = constraints.get(kernel_constraint)
    layer.bias_constraint = constraints.get(bias_constraint)


def add_kernel_and_bias(layer: Layer, kernel_shape: tuple[int, ...], outputs: int | None = None) -> None:
    """Make ``layer.kernel`` of ``kernel_shape`` and ``layer.bias`` (one per output: ``outputs``, else the kernel's
    last axis; None without ``use_bias``), with the layer's initializers, regularizers and constraints.

    >>> import minitape as tf
    >>> from minitape.keras.layers.core import add_kernel_and_bias
    >>> dense = tf.keras.layers.Dense(3, name="d")
    >>> add_kernel_and_bias(dense, (4, 3))
    >>> [(v.path, tuple(v.shape)) for v in dense.variables]
    [('d/kernel', (4, 3)), ('d/bias', (3,))]
    """
    layer.kernel = layer.add_weight(kernel_shape, layer.kernel_initializer, regularizer=layer.kernel_regularizer,
                                    constraint=layer.kernel_constraint, name="kernel")
    bias_shape = kernel_shape[-1:] if outputs is None else (outputs,)
    layer.bias = layer.add_weight(bias_shape, layer.bias_initializer, regularizer=layer.bias_regularizer,
                                  constraint=layer.bias_constraint, name="bias") if layer.use_bias else None


class Dense(Layer):
    """``activation(inputs @ kernel + bias)`` over the last axis of the inputs.

    >>> import minitape as tf
    >>> layer = tf.keras.layers.Dense(2, kernel_initializer="ones", bias_initializer="zeros")
    >>> layer(tf.constant([[1.0, 2.0, 3.0]]))
    <minitape.Tensor: shape=(1, 2), dtype=float32, numpy=array([[6., 6.]], dtype=float32)>
    """

    supports_masking = True      # a mask on the input reaches the output, as in Keras 3

    def __init__(self, units: int, activation: str | Callable | None = None, use_bias: bool = True,
                 kernel_initializer: str | Callable = "glorot_uniform", bias_initializer: str | Callable = "zeros",
                 kernel_regularizer: Any = None, bias_regularizer: Any = None, kernel_constraint: Any = None,
                 bias_constraint: Any = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if not isinstance(units, int) or units <= 0:
            raise ValueError(f"Dense: received an invalid value for `units`, expected a positive integer. "
                             f"Received: units={units!r}")
        self.units = units
        self.activation = activations.get(activation)
        initializers.get(kernel_initializer), initializers.get(bias_initializer)      # unknown names fail here
        self.use_bias = use_bias
        self.kernel_initializer, self.bias_initializer = kernel_initializer, bias_initializer
        kernel_and_bias_options(self, kernel_regularizer, bias_regularizer, kernel_constraint, bias_constraint)

    def __call__(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        # As Keras 3's input_spec (min_ndim=2): a call takes a batch; `call` itself still takes a vector.
        shape = getattr(inputs, "shape", None)
        if shape is not None and len(shape) < 2:
            raise ValueError(f"Input 0 with name 'None' of layer '{self.name}' is incompatible with the layer: "
                             f"expected min_ndim=2, found ndim={len(shape)}. Full shape received: {tuple(shape)}; "
                             f"give it a batch, e.g. x[None] or tf.reshape(x, (-1, 1)).")
        return super().__call__(inputs, *args, **kwargs)

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
        add_kernel_and_bias(self, (input_shape[-1], self.units))
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
        if self.bias is not None and inputs.ndim >= 2:
            return self.activation(ops.dense(inputs, self.kernel, self.bias))     # matmul and bias as one op
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
