"""``KerasTensor``: a symbolic input, a shape and a dtype with no values, from which functional models are built.

``tf.keras.Input(shape=(16,))`` gives a ``KerasTensor`` of shape ``(None, 16)`` (``None``: any
batch size).  Calling a layer on KerasTensors records a ``Node`` (which layer, called on
what) and returns new KerasTensors; a functional ``Model(inputs, outputs)`` is the graph of
those nodes, replayed eagerly on real data each time the model is called.

To learn its outputs' shapes and dtypes, and to build its weights, a layer called on
KerasTensors is run once on *stand-ins*: tensors of ones (zeros for integers) of the
KerasTensors' shapes, with 1 for each unknown size.  A stand-in reports the symbolic shape
(``(None, 2)``, as TensorFlow's traced tensors do: ``build`` and ``call`` see what they see in
Keras) and refuses ``numpy()``; the ops it meets compute on its ones.  The outputs' first
axis is unknown (``None``) when the inputs' was.
A KerasTensor itself never holds values: a minitape op called on it outside a layer raises
Keras' ValueError, which says to wrap the op in a layer (a ``Lambda`` does).

>>> import minitape as tf
>>> x = tf.keras.Input(shape=(3,), name="features")
>>> x
<KerasTensor shape=(None, 3), dtype=float32, sparse=False, ragged=False, name=features>
>>> y = tf.keras.layers.Dense(2)(x)
>>> y.shape, y.dtype
((None, 2), 'float32')
"""
from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from minitape.core import backends, dtypes, nest
from minitape.core.tensor import Tensor, Variable
from minitape.core.tensor_shape import TensorShape
from minitape.keras.naming import unique_name

_WRAP_IT = """A KerasTensor cannot be used as input to a TensorFlow function. A KerasTensor is a symbolic placeholder \
for a shape and dtype, used when constructing Keras Functional models or Keras Functions. You can only use it as \
input to a Keras layer or a Keras operation (from the namespaces `keras.layers` and `keras.ops`). You are likely \
doing something like:

```
x = Input(...)
...
tf_fn(x)  # Invalid.
```

What you should do instead is wrap `tf_fn` in a layer:

```
class MyLayer(Layer):
    def call(self, x):
        return tf_fn(x)

x = MyLayer()(x)
```
(or `x = tf.keras.layers.Lambda(tf_fn)(x)`)
"""

_order = itertools.count()       # nodes in the order they were made: an order in which a graph can run


class Node:
    """One layer call in a functional graph: the layer, what it was called with (KerasTensors among other
    arguments), the KerasTensors it was called on (``parents``) and those it returned (``outputs``).

    >>> import minitape as tf
    >>> x = tf.keras.Input(shape=(2,))
    >>> node = tf.keras.layers.ReLU(name="act")(x).node
    >>> node.layer.name, node.parents == [x], node.outputs[0].shape
    ('act', True, (None, 2))
    """

    def __init__(self, layer: Any, call_args: Any, parents: list[KerasTensor]) -> None:
        self.layer, self.call_args, self.parents = layer, call_args, parents
        self.outputs: list[KerasTensor] = []
        self.order = next(_order)


class KerasTensor:
    """A symbolic tensor: ``shape`` (a tuple, ``None`` where unknown), ``dtype`` (a string, as Keras 3 keeps it),
    ``name``, and the ``node`` that made it.

    >>> from minitape.keras.keras_tensor import KerasTensor
    >>> KerasTensor((None, 4), "int32", name="ids").ndim
    2
    """

    conversion_error = _WRAP_IT          # what minitape's tensor conversion says when an op is given one

    def __init__(self, shape: Any, dtype: Any = "float32", name: str | None = None, node: Node | None = None) -> None:
        self.shape = tuple(None if n is None else int(n) for n in shape)
        self.dtype = dtypes.as_dtype(dtype).name
        self.name = name or unique_name("keras_tensor")
        self.node = node

    @property
    def ndim(self) -> int:
        """The number of axes.

        >>> import minitape as tf
        >>> tf.keras.Input(shape=(4, 4, 3)).ndim
        4
        """
        return len(self.shape)

    def stand_in(self) -> StandIn:
        """A tensor to run a layer on: ones (zeros for integers) with 1 for each unknown size, its shape this one's.

        >>> import minitape as tf
        >>> x = tf.keras.Input(shape=(2,), name="pair").stand_in()
        >>> x, x.shape.as_list(), len(x)
        (<minitape.Tensor 'pair' shape=(None, 2) dtype=float32>, [None, 2], 1)
        """
        dtype = dtypes.as_dtype(self.dtype)
        fill = np.ones if dtype.is_floating else np.zeros
        ones = fill([1 if n is None else n for n in self.shape], dtype.as_numpy_dtype_)
        return StandIn(backends.current().from_numpy(ones), self)       # where the layer's weights are made

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        raise ValueError("A KerasTensor is symbolic: it's a placeholder for a shape an a dtype. It doesn't have any "
                         "actual numerical value. You cannot convert it to a NumPy array.")

    def __repr__(self) -> str:
        return f"<KerasTensor shape={self.shape}, dtype={self.dtype}, sparse=False, ragged=False, name={self.name}>"


class StandIn(Tensor):
    """What a layer's ``build`` and ``call`` get for a KerasTensor while a functional model is built (see the
    module's text): a tensor whose ``shape`` is the symbolic one, and whose values are not to be read.
    Ops take it as the tensor of ones it holds."""

    __slots__ = ("symbolic",)

    def __init__(self, value: Any, symbolic: KerasTensor) -> None:
        super().__init__(value)
        self.symbolic = symbolic

    @property
    def shape(self) -> TensorShape:
        return TensorShape(list(self.symbolic.shape))

    def numpy(self) -> np.ndarray:
        raise ValueError(f"{self!r} stands for the symbolic input '{self.symbolic.name}' while a functional model is "
                         f"built: it has no values to read. Read values when the model is called on data.")

    def __repr__(self) -> str:
        return f"<minitape.Tensor '{self.symbolic.name}' shape={self.symbolic.shape} dtype={self.symbolic.dtype}>"

    __str__ = __repr__


class SymbolicIO:
    """A layer's ``input`` and ``output``: the KerasTensors of its first call on KerasTensors (Keras 3's node 0),
    what ``keras.Model(model.inputs, [layer.output for layer in model.layers])`` reads.

    >>> import minitape as tf
    >>> x = tf.keras.Input(shape=(3,), name="x")
    >>> dense = tf.keras.layers.Dense(2)
    >>> y = dense(x)
    >>> dense.input is x, dense.output is y
    (True, True)
    """

    _symbolic_io: tuple[Any, Any] | None = None

    @property
    def input(self) -> Any:
        """The KerasTensor (or structure) the layer was first called on.

        >>> import minitape as tf
        >>> tf.keras.layers.Dense(1, name="never_called").input
        Traceback (most recent call last):
        ...
        AttributeError: The layer never_called has never been called and thus has no defined input.
        """
        return self._first_call(0, "input")

    @property
    def output(self) -> Any:
        """The KerasTensor (or structure) the layer's first symbolic call returned.

        >>> import minitape as tf
        >>> tf.keras.layers.ReLU()(tf.keras.Input(shape=(2,))) is not None
        True
        >>> x = tf.keras.Input(shape=(2,))
        >>> relu = tf.keras.layers.ReLU()
        >>> relu(x) is relu.output
        True
        """
        return self._first_call(1, "output")

    def __repr__(self) -> str:
        """Keras 3's text for a layer or model: its class, name and whether it is built.

        >>> import minitape as tf
        >>> tf.keras.layers.Dense(1, name="d")
        <Dense name=d, built=False>
        """
        return f"<{type(self).__name__} name={self.name}, built={self.built}>"

    def _first_call(self, index: int, role: str) -> Any:
        if self._symbolic_io is None:
            raise AttributeError(f"The layer {self.name} has never been called and thus has no defined {role}.")
        return self._symbolic_io[index]


def _refuse(self: KerasTensor, *args: Any) -> Any:
    raise ValueError(_WRAP_IT)


# Python's operators on a KerasTensor are ops too: refused, with the same advice.
for _name in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul"):
    setattr(KerasTensor, f"__{_name}__", _refuse)
    setattr(KerasTensor, f"__r{_name}__", _refuse)
for _name in ("neg", "abs", "getitem", "lt", "le", "gt", "ge"):
    setattr(KerasTensor, f"__{_name}__", _refuse)


def is_symbolic(structure: Any) -> bool:
    """Whether ``structure`` (a nest of call arguments) holds a KerasTensor.

    >>> import minitape as tf
    >>> from minitape.keras.keras_tensor import is_symbolic
    >>> is_symbolic([tf.keras.Input(shape=(2,)), 3]), is_symbolic(tf.ones(2))
    (True, False)
    """
    return any(isinstance(x, KerasTensor) for x in nest.flatten(structure))


def symbolic_call(layer: Any, inputs: Any, args: tuple, kwargs: dict) -> Any:
    """Call ``layer`` on arguments holding KerasTensors: run it on stand-ins (building its weights), record the
    call as a ``Node`` and return KerasTensors of the outputs' shapes and dtypes.

    >>> import minitape as tf
    >>> from minitape.keras.keras_tensor import symbolic_call
    >>> symbolic_call(tf.keras.layers.Dense(3), tf.keras.Input(shape=(5,)), (), {}).shape
    (None, 3)
    """
    call_args = (inputs, args, kwargs)
    flat = nest.flatten(call_args)
    parents = [x for x in flat if isinstance(x, KerasTensor)]
    inputs, args, kwargs = nest.pack_sequence_as(call_args, [x.stand_in() if isinstance(x, KerasTensor) else x
                                                             for x in flat])
    with np.errstate(all="ignore"):           # ones divided by ones, logs of ones: nothing to warn about
        outputs = layer(inputs, *args, **kwargs)
    batched = any(parent.shape[:1] == (None,) for parent in parents)
    node = Node(layer, call_args, parents)
    for x in nest.flatten(outputs):
        if not isinstance(x, Tensor | Variable):
            raise ValueError(f"Layer '{layer.name}' returned {x!r} when called on symbolic inputs; a layer used in a "
                             f"functional model must return tensors (or a list, tuple or dict of them).")
        shape = (None, *x.shape[1:]) if batched and x.ndim else tuple(x.shape)
        node.outputs.append(KerasTensor(shape, x.dtype, node=node))
    symbolic_outputs = nest.pack_sequence_as(outputs, node.outputs)
    if getattr(layer, "_symbolic_io", True) is None:          # the first call is the one `layer.output` names
        layer._symbolic_io = (call_args[0], symbolic_outputs)
    return symbolic_outputs


__all__ = ["KerasTensor", "Node", "StandIn", "SymbolicIO", "is_symbolic", "symbolic_call"]
