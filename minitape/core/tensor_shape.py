"""Shapes: TensorFlow's ``TensorShape``, a list of sizes that may be unknown, and how it prints.

A tensor in eager mode always knows its shape, so minitape's tensors hand out fully known
shapes; the unknown parts (``None`` sizes, or ``TensorShape(None)``, a shape of unknown
rank) are what Keras and ``tf.function`` signatures speak, and students meet them there.

``str`` gives the tuple TensorFlow prints, ``repr`` the constructor call:

>>> import minitape as tf
>>> shape = tf.zeros((2, 3)).shape
>>> print(shape)
(2, 3)
>>> shape
TensorShape([2, 3])
>>> shape == (2, 3), shape[0], shape[1:], shape.as_list()
(True, 2, TensorShape([3]), [2, 3])
>>> print(tf.TensorShape([None, 3]), tf.TensorShape(None))
(None, 3) <unknown>
"""
from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

_new = object.__new__


class Dimension:
    """One size of a shape, possibly unknown (``None``): what ``TensorShape.dims`` lists.

    TensorFlow 2 shapes hand out plain ints; ``Dimension`` survives in ``dims`` only.
    Comparing with an unknown size answers ``None`` ("cannot tell"), as TensorFlow's.

    >>> import minitape as tf
    >>> d = tf.TensorShape([2, None]).dims
    >>> d, d[0] == 2, d[1] == 2, d[0].value
    ([Dimension(2), Dimension(None)], True, None, 2)
    """

    __slots__ = ("_value",)
    __hash__ = None     # TensorFlow's compares but does not hash

    def __init__(self, value: Any) -> None:
        self._value = _size(value)

    @property
    def value(self) -> int | None:
        """The size, or None when unknown.

        >>> tf.TensorShape([3]).dims[0].value
        3
        """
        return self._value

    def __repr__(self) -> str:
        return f"Dimension({self._value!r})"

    def __str__(self) -> str:
        return "?" if self._value is None else str(self._value)

    def __eq__(self, other: Any) -> bool | None:
        try:
            other = other._value if isinstance(other, Dimension) else _size(other)
        except (TypeError, ValueError):
            return NotImplemented
        return None if self._value is None or other is None else self._value == other

    def __ne__(self, other: Any) -> bool | None:
        equal = self.__eq__(other)
        return equal if equal is None or equal is NotImplemented else not equal

    def __bool__(self) -> bool:
        return bool(self._value)

    def __int__(self) -> int:
        return self._value

    def __index__(self) -> int:
        return self._value


def _size(value: Any) -> int | None:
    """One dimension's size as TensorFlow reads it: an int >= 0 (anything with ``__index__``), or None."""
    if value is None or type(value) is int and value >= 0:
        return value
    if isinstance(value, Dimension):
        return value.value
    try:
        size = int(value.__index__())
    except AttributeError:
        raise TypeError(f"Dimension value must be integer or None or have an __index__ method, got value "
                        f"'{value!r}' with type '{type(value)!r}'") from None
    if size < 0:
        raise ValueError(f"Dimension {size} must be >= 0")
    return size


class TensorShape:
    """The size of each dimension of a tensor; a size may be ``None`` (unknown), or the rank itself.

    Built from a list, tuple or other iterable of sizes, a single int (a rank-1 shape), another
    ``TensorShape``, or ``None`` (unknown rank).  It compares equal to anything that builds the
    same shape, so ``x.shape == (2, 3)`` and ``x.shape == [2, 3]`` both work.

    >>> import minitape as tf
    >>> tf.TensorShape([2, 3]) == [2, 3], tf.TensorShape(5)
    (True, TensorShape([5]))
    >>> f"{tf.TensorShape([2])} and {tf.TensorShape([])}"
    '(2,) and ()'
    >>> tf.TensorShape([2.5])
    Traceback (most recent call last):
    ...
    TypeError: Dimension value must be integer or None or have an __index__ method, got value '2.5' with type '<class 'float'>'
    """

    __slots__ = ("_dims",)

    def __init__(self, dims: Any) -> None:
        if isinstance(dims, tuple | list):
            self._dims = tuple(_size(d) for d in dims)
        elif dims is None:
            self._dims = None
        elif isinstance(dims, TensorShape):
            self._dims = dims._dims
        else:
            self._dims = _from_iterable(dims)

    @classmethod
    def _known(cls, dims: tuple[int, ...]) -> "TensorShape":
        """A shape around a tuple of ints already checked (an array's own ``.shape``): the fast path."""
        shape = _new(cls)
        shape._dims = dims
        return shape

    # ---- how it prints

    def __repr__(self) -> str:
        return "TensorShape(None)" if self._dims is None else f"TensorShape({list(self._dims)})"

    def __str__(self) -> str:
        if self._dims is None:
            return "<unknown>"
        if len(self._dims) == 1:
            return f"({self._dims[0]},)"
        return "(" + ", ".join(str(d) for d in self._dims) + ")"

    # ---- what it holds

    @property
    def rank(self) -> int | None:
        """The number of dimensions, or None when the rank is unknown.

        >>> tf.zeros((2, 3)).shape.rank, tf.TensorShape(None).rank
        (2, None)
        """
        return None if self._dims is None else len(self._dims)

    @property
    def ndims(self) -> int | None:
        """The older name of ``rank``.

        >>> tf.zeros((2, 3)).shape.ndims
        2
        """
        return self.rank

    @property
    def dims(self) -> list[Dimension] | None:
        """The sizes as ``Dimension``s (TF 1's view; prefer ``as_list``).

        >>> tf.TensorShape([2, 3]).dims
        [Dimension(2), Dimension(3)]
        """
        return None if self._dims is None else [Dimension(d) for d in self._dims]

    def as_list(self) -> list[int | None]:
        """The sizes as a list of ints (None where unknown).

        >>> tf.zeros((2, 3)).shape.as_list(), tf.TensorShape([None, 3]).as_list()
        ([2, 3], [None, 3])
        >>> tf.TensorShape(None).as_list()
        Traceback (most recent call last):
        ...
        ValueError: as_list() is not defined on an unknown TensorShape.
        """
        if self._dims is None:
            raise ValueError("as_list() is not defined on an unknown TensorShape.")
        return list(self._dims)

    def num_elements(self) -> int | None:
        """How many values a tensor of this shape holds, or None if a size is unknown.

        >>> tf.TensorShape([2, 3]).num_elements(), tf.TensorShape([]).num_elements()
        (6, 1)
        """
        return math.prod(self._dims) if self.is_fully_defined() else None

    def is_fully_defined(self) -> bool:
        """Whether the rank and every size are known.

        >>> tf.TensorShape([2, 3]).is_fully_defined(), tf.TensorShape([None, 3]).is_fully_defined()
        (True, False)
        """
        return self._dims is not None and None not in self._dims

    # ---- shapes together

    def is_compatible_with(self, other: Any) -> bool:
        """Whether some fully known shape fits both: same rank, and sizes equal where both are known.

        >>> tf.TensorShape([2, 3]).is_compatible_with([None, 3]), tf.TensorShape([2, 3]).is_compatible_with([2])
        (True, False)
        """
        other = as_shape(other)
        if self._dims is None or other._dims is None:
            return True
        return len(self._dims) == len(other._dims) and all(
            a is None or b is None or a == b for a, b in zip(self._dims, other._dims))

    def merge_with(self, other: Any) -> "TensorShape":
        """The shape that both describe: known sizes of either, which must agree.

        >>> tf.TensorShape([2, None]).merge_with([None, 3])
        TensorShape([2, 3])
        >>> tf.TensorShape([2, 3]).merge_with([2, 4])
        Traceback (most recent call last):
        ...
        ValueError: Shapes (2, 3) and (2, 4) are not compatible
        """
        other = as_shape(other)
        if self._dims is None:
            return other
        if other._dims is None:
            return self
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {other} are not compatible")
        return TensorShape([a if a is not None else b for a, b in zip(self._dims, other._dims)])

    def concatenate(self, other: Any) -> "TensorShape":
        """This shape's sizes followed by ``other``'s (unknown if either rank is); ``+`` does the same.

        >>> tf.TensorShape([2, 3]).concatenate([4]), tf.TensorShape([2]) + (4,)
        (TensorShape([2, 3, 4]), TensorShape([2, 4]))
        """
        other = as_shape(other)
        if self._dims is None or other._dims is None:
            return TensorShape(None)
        return TensorShape._known(self._dims + other._dims)

    def __add__(self, other: Any) -> "TensorShape":
        return self.concatenate(other)

    def __radd__(self, other: Any) -> "TensorShape":
        return as_shape(other).concatenate(self)

    # ---- Python's protocols

    def __len__(self) -> int:
        if self._dims is None:
            raise ValueError("Cannot take the length of shape with unknown rank.")
        return len(self._dims)

    def __bool__(self) -> bool:
        """True unless the rank is unknown (a scalar's shape ``()`` is true, unlike an empty tuple)."""
        return self._dims is not None

    def __iter__(self) -> Iterator[int | None]:
        if self._dims is None:
            raise ValueError("Cannot iterate over a shape with unknown rank.")
        return iter(self._dims)

    def __getitem__(self, key: Any) -> Any:
        """An int key gives that size (an int, or None); a slice gives a ``TensorShape``."""
        if self._dims is not None:
            return TensorShape._known(self._dims[key]) if isinstance(key, slice) else self._dims[key]
        if not isinstance(key, slice):
            return None
        if key.step is not None:
            raise ValueError("Steps are not yet handled")
        start = 0 if key.start is None else key.start
        if key.stop is None or start < 0 or key.stop < 0:
            return TensorShape(None)
        return TensorShape([None] * (key.stop - start))

    def __eq__(self, other: Any) -> bool:
        if type(other) is not TensorShape:
            try:
                other = TensorShape(other)
            except TypeError:
                return NotImplemented
        return self._dims == other._dims

    def __ne__(self, other: Any) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        return hash(self._dims)

    def __reduce__(self) -> tuple:
        return TensorShape, (self._dims,)


def _from_iterable(dims: Any) -> tuple[int | None, ...]:
    """The sizes of an iterable (a NumPy array, a tensor), or of a single size (a rank-1 shape)."""
    try:
        items = iter(dims)
    except TypeError:
        return (_size(dims),)
    sizes = []
    for d in items:
        try:
            sizes.append(_size(d))
        except TypeError as error:
            raise TypeError(f"Failed to convert '{dims!r}' to a shape: '{d!r}'could not be converted to a dimension. "
                            f"A shape should either be single dimension (e.g. 10), or an iterable of dimensions "
                            f"(e.g. [1, 10, None]).") from error
    return tuple(sizes)


def as_shape(shape: Any) -> TensorShape:
    """``shape`` as a [`TensorShape`][minitape.TensorShape] (one passes through unchanged).

    >>> from minitape.core.tensor_shape import as_shape
    >>> as_shape((2, 3)), as_shape(None)
    (TensorShape([2, 3]), TensorShape(None))
    """
    return shape if isinstance(shape, TensorShape) else TensorShape(shape)
