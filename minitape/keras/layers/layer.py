"""``Layer``: an object that owns variables and computes with them in ``call``.

A layer builds its weights on its first call, when it first sees the input's shape.
Integer inputs are cast to float32 first, as Keras does.  The layers it holds (in
attributes, or in lists, tuples and dicts held there) are its sub-layers: their variables
and losses are its too.  A weight's ``path`` names the layers being called when it was
made, so a layer built inside a model's call has ``model/layer/kernel``.

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
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from minitape import ops
from minitape.checkpointing.call import accepts_keyword, reset_setting, set_setting, setting
from minitape.core import dtypes, nest, random
from minitape.core.tensor import Tensor, Variable
from minitape.keras import constraints, initializers, regularizers
from minitape.keras.tracking import TrackedDict, TrackedList
from minitape.keras.keras_tensor import SymbolicIO, is_symbolic, symbolic_call
from minitape.keras.dtype_policies import policy_dtype
from minitape.keras.masking import get_keras_mask, mask_of, set_keras_mask
from minitape.keras.layers.checks import read_input_dim, weight_arguments
from minitape.keras.layers.weights import WeightHolder
from minitape.keras.naming import unique_name
from minitape.keras.layer_config import Configurable
from minitape.keras.variables import KerasVariable

class _CallContext(threading.local):
    calling: tuple = ()              # the layers being called, outermost first: the path of new weights


_context = _CallContext()
# The training mode of the layer call in progress, for layers inside it, is the setting TRAINING: a block
# recomputed for the backward pass runs in the training mode its forward pass had, as every checkpoint
# restores the settings of its forward pass (minitape.checkpointing.call.context_snapshot).
TRAINING = "keras.training"


@functools.cache
def takes_training(cls: type) -> bool:
    """Whether a layer class's ``call`` accepts ``training`` (Keras passes it only to those that do).

    >>> import minitape as tf
    >>> from minitape.keras.layers.layer import takes_training
    >>> takes_training(tf.keras.layers.Dropout), takes_training(tf.keras.layers.Dense)
    (True, False)
    """
    return accepts_keyword(cls.call, "training", or_any_keyword=True)


@functools.cache
def takes_mask(cls: type) -> bool:
    """Whether a layer class's ``call`` names a ``mask`` argument (Keras fills it from the input's mask).

    >>> import minitape as tf
    >>> from minitape.keras.layers.layer import takes_mask
    >>> takes_mask(tf.keras.layers.LSTM), takes_mask(tf.keras.layers.Dense)
    (True, False)
    """
    return accepts_keyword(cls.call, "mask")


class Layer(WeightHolder, SymbolicIO, Configurable):
    """The base class: override ``build(input_shape)`` to create weights and ``call(inputs)`` to compute.

    >>> import minitape as tf
    >>> class Scale(tf.keras.layers.Layer):
    ...     def build(self, input_shape):
    ...         self.w = self.add_weight(shape=(), initializer="ones", name="w")
    ...     def call(self, inputs):
    ...         return self.w * inputs
    >>> scale = Scale(name="scale")
    >>> scale(tf.constant([1.0, 2.0])).numpy(), [v.path for v in scale.variables]
    (array([1., 2.], dtype=float32), ['scale/w'])
    """

    casts_inputs = True          # integer inputs become float32 (Embedding, which takes indices, says False)
    supports_masking = False     # whether the mask of the input is passed on to the output (see ``minitape.keras.masking``)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "build" in cls.__dict__:
            cls.build = _marks_built(cls.__dict__["build"])
        if "compute_mask" in cls.__dict__ and "supports_masking" not in cls.__dict__:
            cls.supports_masking = True     # as Keras 3: a layer that computes its own mask hangs it on its outputs

    def __init__(self, trainable: bool = True, name: str | None = None, dtype: Any = None,
                 input_shape: tuple | None = None, activity_regularizer: Any = None, **kwargs: Any) -> None:
        input_shape = read_input_dim(input_shape, kwargs)
        if kwargs:
            raise ValueError(f"Unrecognized keyword arguments passed to {type(self).__name__}: {kwargs}")
        self._weights: list[Variable] = []
        self._layers: list[Layer] = []
        self._losses: list[Tensor] = []
        self._made_trainable: list[Variable] = []     # Keras' `_trainable_variables`: what `trainable = True` marks
        self.trainable = trainable
        self.name = name or unique_name(type(self))
        self.built = False
        self.input_shape_hint = None if input_shape is None else tuple(input_shape)   # Sequential builds from it
        self.output_shape: Any = None
        self.activity_regularizer = regularizers.get(activity_regularizer)
        self._dtype = policy_dtype(dtype)

    @property
    def dtype(self) -> str:
        """The dtype of the layer's weights and computation (Keras 3's dtype policy; ``"float32"`` by default):
        ``add_weight`` makes weights of it, floating inputs are cast to it.

        >>> import minitape as tf
        >>> dense = tf.keras.layers.Dense(2, dtype="float64")
        >>> dense.dtype, dense(np.ones((1, 3), np.float32)).dtype, dense.kernel.dtype
        ('float64', tf.float64, tf.float64)
        """
        return self._dtype.name

    compute_dtype = variable_dtype = dtype      # one dtype for both: minitape has no mixed precision

    def __setattr__(self, name: str, value: Any) -> None:
        if not name.startswith("_") and "_layers" in self.__dict__:
            value = self._track(value)
        super().__setattr__(name, value)

    def _track(self, value: Any) -> Any:
        """Make the layers in ``value`` sub-layers; a list or dict comes back as a tracked one (see ``tracking``)."""
        if isinstance(value, Layer):
            if value is not self and all(value is not known for known in self._layers):
                self._layers.append(value)
        elif isinstance(value, TrackedList | TrackedDict) and value.owner is self:
            for item in value.values() if isinstance(value, dict) else value:     # `+=` assigns the list again
                self._track(item)
        elif isinstance(value, list):
            value = TrackedList(value, self)
        elif isinstance(value, dict):
            value = TrackedDict(value, self)
        elif isinstance(value, tuple):
            for item in value:
                self._track(item)
        return value

    def _untrack(self, value: Any) -> None:
        """Forget the layers in ``value`` (taken out of a tracked list or dict)."""
        for item in nest.flatten(value):
            self._layers[:] = [layer for layer in self._layers if layer is not item]

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
        # Just an optimization, the common call's shortcuts (one tensor in: no symbolic input to look for, no
        # nest to walk; no `training` given: none to set; no mask to hang; the call stack kept without a
        # generator): an identity layer's call takes 2.2 µs against 5.0 (14-19 against 29-31 before the first
        # two); benchmarks/sequence.py's step 0.94x (CPU-time medians of 300 steps, 6 paired fresh processes).
        if (args or kwargs or type(inputs) is not Tensor) and is_symbolic((inputs, args, kwargs)):
            return symbolic_call(self, inputs, args, kwargs)      # building a functional model: see ``keras_tensor``
        previous_mask = mask_of(inputs)
        if previous_mask is not None and "mask" not in kwargs and takes_mask(type(self)) and not nest.is_nested(inputs):
            kwargs["mask"] = previous_mask          # as Keras: one input tensor's mask reaches `call(mask=)`
        if self.casts_inputs:
            inputs = (self._input(inputs) if type(inputs) is Tensor     # the common case, without the nest's walk
                      else nest.pack_sequence_as(inputs, [self._input(x) for x in nest.flatten(inputs)]))
        calling = _context.calling
        if not calling:
            self._clear_losses()          # the outermost call starts afresh, as Keras does
        # As Keras: `training` given to an outer layer reaches the layers it calls without one.
        given = "training" in kwargs
        training = kwargs.pop("training") if given else setting(TRAINING)
        if training is not None and takes_training(type(self)):
            kwargs["training"] = training
        outer = set_setting(TRAINING, training) if given else None      # else the setting is already `training`
        _context.calling = (*calling, self)           # as ``_calling()``, without a generator's cost
        try:
            if not self.built:
                shapes = [tuple(x.shape) if hasattr(x, "shape") else None for x in nest.flatten(inputs)]
                self.build(shapes if nest.is_nested(inputs) else shapes[0])     # a list of inputs: their shapes
                self.built = True
                self._build_input_shape = shapes if nest.is_nested(inputs) else shapes[0]   # Keras' build_config
            outputs = self.call(inputs, *args, **kwargs)
        finally:
            _context.calling = calling
            if outer is not None:
                reset_setting(outer)
        self._note_outputs(inputs, outputs, previous_mask)
        return outputs

    def _note_outputs(self, inputs: Any, outputs: Any, previous_mask: Any) -> None:
        """After a call: the activity penalty, the outputs' masks and ``output_shape``."""
        if self.activity_regularizer is not None:
            self._regularize_activity(outputs)
        # With no mask in and the base compute_mask (which passes the input's on), there is no mask to hang.
        if self.supports_masking and (previous_mask is not None or type(self).compute_mask is not Layer.compute_mask):
            self._set_masks(inputs, outputs, previous_mask)
        if type(outputs) is Tensor:         # the common case: one tensor out, a shape with no layer to track
            object.__setattr__(self, "output_shape", (None, *outputs._value.shape[1:]))
        else:
            self.output_shape = nest.pack_sequence_as(outputs, [(None, *x.shape[1:]) if isinstance(x, Tensor)
                                                                else None for x in nest.flatten(outputs)])

    def compute_mask(self, inputs: Any, previous_mask: Any) -> Any:
        """The mask of the outputs, for a layer that ``supports_masking``: the input's, unless overridden.

        >>> import minitape as tf
        >>> tf.keras.layers.Layer().compute_mask(tf.ones((1, 2)), None) is None
        True
        """
        return previous_mask

    def _set_masks(self, inputs: Any, outputs: Any, previous_mask: Any) -> None:
        """Hang ``compute_mask``'s masks on the outputs that have none yet, as Keras 3 does."""
        flat_outputs = nest.flatten(outputs)
        if all(get_keras_mask(x) is not None for x in flat_outputs):
            return
        masks = self.compute_mask(inputs, previous_mask)
        if masks is None:
            return
        for x, mask in zip(flat_outputs, nest.flatten(masks) if nest.is_nested(masks) else [masks]):
            if mask is not None and get_keras_mask(x) is None:
                set_keras_mask(x, mask)

    def _in_own_call(self) -> bool:
        """Whether this layer's own call is the one running (its first call builds it)."""
        return _context.calling[-1:] == (self,)

    @contextmanager
    def _calling(self) -> Iterator[None]:
        outer = _context.calling
        _context.calling = (*outer, self)
        try:
            yield
        finally:
            _context.calling = outer

    def _regularize_activity(self, outputs: Any) -> None:
        """Keras' activity penalty: the regularizer of each output, over the batch size."""
        for output in nest.flatten(outputs):
            if isinstance(output, Tensor):
                loss = self.activity_regularizer(output)
                if output.ndim > 0:      # Keras' divide_no_nan: an empty batch gives 0
                    loss = loss / output.shape[0] if output.shape[0] else ops.zeros_like(loss)
                self.add_loss(loss)

    def add_weight(self, *args: Any, shape: Any = None, initializer: str | Callable | None = None, dtype: Any = None,
                   trainable: bool = True, regularizer: Any = None, constraint: Any = None,
                   name: str | None = None) -> KerasVariable:
        """Create a variable owned by this layer: ``add_weight(shape, initializer, dtype, ..., name=...)``.

        Its ``name`` is the one given (``"variable"`` if none); its ``path`` puts the names of
        the layers being called, and this layer's, before it.  ``regularizer`` adds a penalty on
        it to ``losses``; ``constraint`` projects it after each optimiser step.

        >>> import minitape as tf
        >>> layer = tf.keras.layers.Layer(name="block")
        >>> layer.add_weight((2,), initializer="ones", name="scale")
        <Variable path=block/scale, shape=(2,), dtype=float32, value=[1. 1.]>
        """
        shape, initializer, dtype = weight_arguments(args, shape, initializer, dtype)
        shape = tuple(shape or ())
        dtype = dtypes.as_dtype(dtype or self._dtype)
        initializer = initializer or ("glorot_uniform" if dtype.is_floating else "zeros")   # Keras' defaults
        with random.global_source():     # creating weights is not part of a replayed computation
            value = initializers.get(initializer)(shape, dtype)
        calling = _context.calling if self._in_own_call() else (*_context.calling, self)
        name = name or "variable"
        variable = KerasVariable(value, trainable=trainable, name=name,
                                 path="/".join([layer.name for layer in calling] + [name]),
                                 regularizer=regularizers.get(regularizer), constraint=constraints.get(constraint))
        self._weights.append(variable)
        if trainable:
            self._made_trainable.append(variable)
            variable.trainable = self.trainable       # a frozen layer's new weight is frozen until it thaws
        return variable

    def add_loss(self, loss: Any) -> None:
        """Add a loss (a tensor, or a nest of them) to ``losses``: call it from ``call``; ``fit`` adds it to
        the loss it minimises.  Each outermost call of a layer forgets the losses its last call added.

        >>> import minitape as tf
        >>> class Sparse(tf.keras.layers.Layer):
        ...     def call(self, x):
        ...         self.add_loss(0.1 * tf.reduce_sum(tf.abs(x)))
        ...         return x
        >>> layer = Sparse()
        >>> _ = layer(tf.constant([1.0, -2.0]))
        >>> layer.losses
        [<minitape.Tensor: shape=(), dtype=float32, numpy=0.3>]
        """
        losses = nest.flatten(loss)
        for x in losses:
            if not isinstance(x, Tensor | Variable):
                raise ValueError(f"`add_loss()` can only be called from inside `build()` or `call()`, on a tensor "
                                 f"input. Received invalid value: {x}")
        self._losses.extend(losses)

    @property
    def losses(self) -> list[Tensor]:
        """The losses added by ``add_loss`` (this layer's, then its sub-layers' in Keras' order, see
        ``_loss_order``), then each trainable weight's regularizer penalty, computed now from its current value.

        >>> import minitape as tf
        >>> dense = tf.keras.layers.Dense(1, kernel_initializer="ones",
        ...                               kernel_regularizer=tf.keras.regularizers.L2(0.1))
        >>> dense.build((None, 2))
        >>> dense.losses
        [<minitape.Tensor: shape=(), dtype=float32, numpy=0.2>]
        """
        losses = [loss for layer in self._loss_order() for loss in layer._losses]
        return losses + [v.regularizer(v) for v in self.trainable_weights if getattr(v, "regularizer", None)]

    def _loss_order(self) -> list[Layer]:
        """Keras 3's ``_flatten_layers``: this layer, then a queue of sub-layers where each layer taken puts its
        own sub-layers at the front, last first (``deque.extendleft``): the order ``losses`` lists them in."""
        order, queue = [self], collections.deque(self._layers)
        while queue:
            layer = queue.popleft()
            if all(layer is not seen for seen in order):
                order.append(layer)
                queue.extendleft(layer._layers)
        return order

    def _clear_losses(self) -> None:
        for layer in self._walk():
            layer._losses.clear()

    def _input(self, x: Any) -> Any:
        """One input as a floating tensor (None passes); a bare number is refused, as Keras refuses it."""
        if x is None:
            return x
        if not isinstance(x, Tensor | Variable | np.ndarray | np.generic):
            raise ValueError(f"Only input tensors may be passed as positional arguments. The following argument value "
                             f"should be passed as a keyword argument: {x!r} (of type {type(x)}); give layer "
                             f"'{self.name}' a tensor or NumPy array, e.g. tf.constant({x!r}).")
        return _as_float(x, self._dtype)

    def _walk(self) -> list[Layer]:
        """This layer and every sub-layer, depth first, without recursion."""
        order, stack = {}, [self]           # by id: a set's lookups, a list's order
        while stack:
            layer = stack.pop()
            if id(layer) not in order:
                order[id(layer)] = layer
                stack.extend(reversed(layer._layers))
        return list(order.values())


def _marks_built(build: Callable) -> Callable:
    """``build`` that marks the layer built once it returns, as Keras 3 wraps it: a layer built by hand,
    ``layer.build(shape)``, is not built again (its weights made anew) by its first call."""
    @functools.wraps(build)
    def build_and_mark(self: Layer, *args: Any, **kwargs: Any) -> None:
        build(self, *args, **kwargs)
        self.built = True
    return build_and_mark


def _as_float(x: Any, dtype: dtypes.DType) -> Any:
    # As Keras: inputs are cast to the layer's dtype (float32 unless given); minitape casts integers and bools too.
    if isinstance(x, Tensor | Variable) and x.dtype is dtype:
        return x
    return ops.cast(ops.as_operand(x), dtype)

