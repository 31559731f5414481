"""Tensors and variables: immutable values, and the mutable cells that hold them.

A [`Tensor`][minitape.Tensor] wraps one array and an integer ``_id``.  The id is how a tape
refers to a value without keeping it alive, so that the tape holds only what
a derivative will really need (see [`minitape.core.primitive`][minitape.core.primitive]).

A [`Variable`][minitape.Variable] is a named, mutable cell.  Each time an op reads it, the op
gets a [`Tensor`][minitape.Tensor] snapshot carrying the *variable's* id: every read of a
variable therefore sends its gradient to the same place, and later ``assign``
calls never change a value that a tape has already saved.

>>> import minitape as tf
>>> x = tf.constant([1.0, 2.0])
>>> x
<minitape.Tensor: shape=(2,), dtype=float32, numpy=array([1., 2.], dtype=float32)>
>>> v = tf.Variable(3.0, name="v")
>>> (v * x).numpy()
array([3., 6.], dtype=float32)
"""
from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from minitape.core import arrays, backends, dtypes, scopes
from minitape.core.conversion import default_dtype, to_array
from minitape.core.dtypes import DType
from minitape.core.messages import conversion_dtype_text
from minitape.core.state import variable_accessed
from minitape.core.tensor_shape import TensorShape

#: Tensor and variable ids come from one counter, so ids also give creation order.
next_id: Callable[[], int] = itertools.count(1).__next__
_new = object.__new__


class _TensorLike:
    """What tensors and variables share: shape, dtype, conversion to NumPy and Python.

    Python's operators (``+``, ``@``, ``[]``...) are ops, so ``minitape.ops.operators``
    attaches them to this class from above: the core never imports the op table.
    """

    __slots__ = ()
    # Make NumPy hand `ndarray + tensor` to our __radd__ instead of converting us.
    __array_priority__ = 100

    def __hash__(self):
        kind = type(self).__name__
        raise TypeError(f"{kind} is unhashable. Instead, use {kind.lower()}.ref() as the key.")

    def __iter__(self) -> Iterator[Tensor]:
        for i in range(len(self)):
            yield self[i]

    def __len__(self) -> int:
        shape = self._value.shape
        if not shape:
            raise TypeError("Scalar tensor has no `len()`")
        return shape[0]

    def __bool__(self) -> bool: return bool(self._value)
    def __float__(self) -> float: return float(self._value)
    def __int__(self) -> int: return int(self._value)
    def __index__(self) -> int: return self._value.__index__()

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        # A read-only view: NumPy may read our buffer but never write to it.  Its base is a
        # read-only memoryview (as TF's), so the view cannot be made writeable again.  A GPU
        # tensor's host copy is read-only too, so a program behaves the same on either device.
        host = arrays.to_numpy(self._value)
        array = np.asarray(host, dtype=dtype)
        if array is not host and array.base is None:   # a new array of another dtype: the caller's own
            return array
        if array.dtype == object:                      # strings have no buffer: a read-only view of them
            array = array.view()
            array.flags.writeable = False
        else:
            array = np.asarray(memoryview(array).toreadonly())
        return array.copy() if copy else array

    @property
    def shape(self) -> TensorShape:
        """The size of each dimension, as a [`TensorShape`][minitape.TensorShape].

        >>> tf.constant([[1.0, 2.0, 3.0]]).shape
        TensorShape([1, 3])
        """
        return TensorShape._known(self._value.shape)

    @property
    def dtype(self) -> DType:
        """The element type, a [`DType`][minitape.dtypes.DType].

        >>> tf.constant([1, 2]).dtype
        tf.int32
        """
        return dtypes.of_array(self._value)

    @property
    def ndim(self) -> int:
        """The number of dimensions: 0 for a scalar.

        >>> tf.constant(1.0).ndim, tf.zeros((2, 3)).ndim
        (0, 2)
        """
        return self._value.ndim

    @property
    def device(self) -> str:
        """The full name of the device that holds the value, as TensorFlow spells it.

        >>> tf.constant(1.0).device
        '/job:localhost/replica:0/task:0/device:CPU:0'
        """
        return backends.backend_of(self._value).device_name

    def numpy(self) -> np.ndarray | np.generic:
        """A NumPy copy of the value on the host (a NumPy scalar for a 0-d tensor), as TF returns.

        >>> tf.constant([1.0, 2.0]).numpy(), tf.constant(3).numpy()
        (array([1., 2.], dtype=float32), np.int32(3))
        """
        value = arrays.to_numpy(self._value)
        return value[()] if value.ndim == 0 else value.copy()

    def ref(self) -> "_Ref":
        """A hashable reference to this object, for use as a dict key (TF's ``ref()``).

        >>> x = tf.constant(1.0)
        >>> {x.ref(): "x"}[x.ref()], x.ref().deref() is x
        ('x', True)
        """
        return _Ref(self)

    def _numpy_text(self, as_repr: bool = True) -> str:
        """The values as TensorFlow shows them: a text of several lines starts on a line of its own."""
        value = self.numpy()
        text = repr(value) if as_repr and np.ndim(value) else str(value)
        return "\n" + text if "\n" in text else text


class _Ref:
    """Hashable handle on a tensor or variable: ``t.ref()``; ``deref()`` gives it back."""

    __slots__ = ("_obj",)

    def __init__(self, obj: Any) -> None:
        self._obj = obj

    def deref(self) -> Any:
        return self._obj

    def __hash__(self) -> int:
        return id(self._obj)

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, _Ref) and other._obj is self._obj


class Tensor(_TensorLike):
    """An immutable array that tapes can follow.

    Make one with [`constant`][minitape.constant] or any op; never mutate ``_value``.

    >>> import minitape as tf
    >>> t = tf.constant([[1, 2], [3, 4]])
    >>> t.shape, t.dtype, t.ndim
    (TensorShape([2, 2]), tf.int32, 2)
    >>> t[1]
    <minitape.Tensor: shape=(2,), dtype=int32, numpy=array([3, 4], dtype=int32)>
    """

    __slots__ = ("_value", "_id", "__weakref__")

    def __init__(self, value: Any) -> None:
        self._value = value
        self._id = next_id()

    def __repr__(self) -> str:
        return f"<minitape.Tensor: shape={tuple(self.shape)}, dtype={self.dtype.name}, numpy={self._numpy_text()}>"

    def __str__(self) -> str:
        return f"minitape.Tensor({self._numpy_text(as_repr=False)}, shape={tuple(self.shape)}, dtype={self.dtype.name})"

    def __format__(self, spec: str) -> str:
        # As TF's EagerTensor: NumPy formats the value, so f"{t}" shows 0.5 or [1. 2.] (str(t) stays the full form).
        return self.numpy().__format__(spec)


def wrap(value: Any, id: int | None = None) -> Tensor:
    """Make a Tensor around an existing array, without copying (the op path's fast constructor).

    >>> array = np.ones(2, np.float32)
    >>> tf.core.tensor.wrap(array)._value is array
    True
    """
    tensor = _new(Tensor)
    tensor._value = value
    tensor._id = next_id() if id is None else id
    return tensor


class Variable(_TensorLike):
    """A mutable, named tensor: the thing a model trains.

    Ops read a variable's current value.  Inside a [`GradientTape`][minitape.GradientTape]
    with ``watch_accessed_variables=True`` (the default), reading a trainable
    variable makes the tape watch it.

    >>> import minitape as tf
    >>> w = tf.Variable([1.0, 2.0], name="w")
    >>> w
    <minitape.Variable 'w:0' shape=(2,) dtype=float32, numpy=array([1., 2.], dtype=float32)>
    >>> _ = w.assign_add([0.5, 0.5])
    >>> w.numpy()
    array([1.5, 2.5], dtype=float32)
    """

    __slots__ = ("_value", "_id", "trainable", "name", "__weakref__")

    def __init__(self, initial_value: Any, trainable: bool = True, *, name: str | None = None,
                 dtype: Any = None) -> None:     # name and dtype by keyword: TF's third is validate_shape
        if callable(initial_value):
            initial_value = initial_value()
        self._value = constant(initial_value, dtype=dtype)._value     # here, or where a tensor given lives
        self._id = next_id()
        self.trainable = bool(trainable)
        self.name = f"{scopes.current()}{name or 'Variable'}:0"

    def __repr__(self) -> str:
        return (f"<minitape.Variable '{self.name}' shape={tuple(self.shape)} "
                f"dtype={self.dtype.name}, numpy={self._numpy_text()}>")

    def read_value(self) -> Tensor:
        """The current value as a Tensor; reading is what tapes and checkpoints observe.

        >>> tf.Variable(1.0).read_value()
        <minitape.Tensor: shape=(), dtype=float32, numpy=1.0>
        """
        variable_accessed(self)
        return wrap(self._value, self._id)

    value = read_value

    def assign(self, value: Any, use_locking: bool = False, name: str | None = None,
               read_value: bool = True) -> "UnreadVariable | None":
        """Replace the value (same shape and dtype; tensors read before keep theirs).

        Returns what TF's eager ``assign`` returns: an ``UnreadVariable``
        standing for this variable (None with ``read_value=False``).

        >>> v = tf.Variable(1.0)
        >>> before = v.read_value()
        >>> v.assign(5.0)
        <minitape.Variable 'UnreadVariable' shape=() dtype=float32, numpy=5.0>
        >>> before.numpy()
        np.float32(1.0)
        """
        self._value = self._coerce(value)
        return UnreadVariable(self) if read_value else None

    def assign_add(self, delta: Any, use_locking: bool = False, name: str | None = None,
                   read_value: bool = True) -> "UnreadVariable | None":
        """Add ``delta`` to the value; returns it as ``assign`` does.

        >>> tf.Variable([1.0, 2.0]).assign_add([0.5, 0.5]).numpy()
        array([1.5, 2.5], dtype=float32)
        """
        return self.assign(self._value + self._coerce(delta, "assign_add"), read_value=read_value)

    def assign_sub(self, delta: Any, use_locking: bool = False, name: str | None = None,
                   read_value: bool = True) -> "UnreadVariable | None":
        """Subtract ``delta`` from the value; returns it as ``assign`` does.

        >>> tf.Variable([1.0, 2.0]).assign_sub([0.5, 0.5]).numpy()
        array([0.5, 1.5], dtype=float32)
        """
        return self.assign(self._value - self._coerce(delta, "assign_sub"), read_value=read_value)

    def _coerce(self, value: Any, method: str = "assign") -> Any:
        """``value`` as an array for this variable: its dtype and device, and its shape for an update (TF's rules)."""
        current = self._value
        if (type(value) is np.ndarray and type(current) is np.ndarray and value.dtype == current.dtype
                and value.shape == current.shape):
            # Just an optimization: an optimizer's update is an array of the variable's dtype and shape already;
            # a copy (its maker may write into it later) skips the general conversion.  It saves about 9% of
            # benchmarks/sequence.py's training step (70 variables, three assigns each per Adam step; median
            # ratio 0.914 over 30 steps alternating with the general path in one process, a busy machine).
            return value.copy()
        array = value._value if isinstance(value, _TensorLike) else array_on(backends.backend_of(self._value), value,
                                                                              dtype=self.dtype)
        arrays.check_update(self.name, method, self._value, array, shown=value)
        return array      # a tensor's array is shared, not copied: values never mutate


class UnreadVariable(Variable):
    """What ``assign`` returns in TF's eager mode (its ``_UnreadVariable``): the variable, not read yet.

    It is a second handle on the same variable: it prints (as ``'UnreadVariable'``) the
    variable's value *at the time it is printed*, writes through it go to the variable, and
    ``tape.gradient(y, it)`` is the variable's gradient.  As in TF, making one counts as an access
    of the variable (the tapes recording then watch it, as a read would), and reading it reads the
    variable without a further access: a tape that does not watch the variable sees a constant.

    >>> v = tf.Variable([1.0, 2.0])
    >>> u = v.assign([3.0, 4.0])
    >>> _ = v.assign_add([1.0, 1.0])
    >>> u, u.name
    (<minitape.Variable 'UnreadVariable' shape=(2,) dtype=float32, numpy=array([4., 5.], dtype=float32)>, 'UnreadVariable')
    """

    __slots__ = ("_variable",)

    def __init__(self, variable: Variable) -> None:
        variable_accessed(variable)                 # TF's _lazy_read: the recording tapes watch the variable
        self._variable = variable
        self._id, self.trainable, self.name = variable._id, variable.trainable, "UnreadVariable"

    # The value lives in the variable: reading and writing it go there.
    _value = property(lambda self: self._variable._value, lambda self, value: setattr(self._variable, "_value", value))

    def assign(self, value: Any, use_locking: bool = False, name: str | None = None,
               read_value: bool = True) -> "UnreadVariable | None":
        return self._variable.assign(value, read_value=read_value)

    assign.__doc__ = Variable.assign.__doc__

    def read_value(self) -> Tensor:
        """The variable's current value, followed by the tapes that watch the variable (it makes none watch).

        >>> tf.Variable(1.0).assign(2.0).read_value()
        <minitape.Tensor: shape=(), dtype=float32, numpy=2.0>
        """
        return wrap(self._value, self._id)

    value = read_value


def constant(value: Any, dtype: Any = None, shape: Any = None, name: str | None = None) -> Tensor:
    """A new tensor holding a copy of ``value``.

    Python floats become float32 and ints int32, as in TensorFlow; NumPy arrays
    keep their dtype.

    >>> import minitape as tf
    >>> tf.constant(1.5).dtype, tf.constant(2).dtype, tf.constant(np.zeros(2)).dtype
    (tf.float32, tf.int32, tf.float64)
    >>> tf.constant(2.0, shape=(2,))
    <minitape.Tensor: shape=(2,), dtype=float32, numpy=array([2., 2.], dtype=float32)>

    It goes to the current device (see ``tf.device``); a tensor given keeps its own.
    """
    backend = backends.backend_of(value._value) if isinstance(value, _TensorLike) else backends.current()
    return Tensor(array_on(backend, value, dtype, shape))


def array_on(backend: backends.Backend, value: Any, dtype: Any = None, shape: Any = None) -> Any:
    """``value`` (a number, nested list, NumPy array or tensor) as a new array of ``backend``, by TF's dtype rules."""
    if isinstance(value, _TensorLike):
        value = arrays.to_numpy(value._value)
    elif backends.by_type.get(type(value)) not in (None, np):     # another backend's array (CuPy's): via the host
        value = arrays.to_numpy(value)
    target = dtypes.as_dtype(dtype).as_numpy_dtype_ if dtype is not None else default_dtype(value)
    array = to_array(value, target)
    if shape is not None:
        array = arrays.shaped(array, shape)
    return backend.from_numpy(array)


def convert_to_tensor(value: Any, dtype: Any = None, dtype_hint: Any = None, name: str | None = None) -> Tensor:
    """``value`` as a Tensor: tensors pass through, variables are read, the rest becomes a constant.

    >>> import minitape as tf
    >>> tf.convert_to_tensor([1, 2], dtype=tf.float32)
    <minitape.Tensor: shape=(2,), dtype=float32, numpy=array([1., 2.], dtype=float32)>
    """
    if isinstance(value, Variable):
        value = value.read_value()
    if isinstance(value, Tensor):
        if dtype is not None and dtypes.as_dtype(dtype) is not value.dtype:
            raise ValueError(conversion_dtype_text(dtypes.as_dtype(dtype).name, value.dtype.name, value))
        return value
    if dtype is None and dtype_hint is not None:
        try:
            return constant(value, dtype=dtype_hint)
        except (TypeError, ValueError):
            pass
    return constant(value, dtype=dtype)
