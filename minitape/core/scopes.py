"""``tf.name_scope``: a prefix for the names of the variables created inside it.

A scope is a path ending in ``/``.  Entering ``name_scope("b")`` inside ``"a/"`` makes the
scope ``"a/b/"``; a name that already ends in ``/`` is a whole path, entered as it is (this
is how a ``tf.Module`` re-enters its own scope); ``""`` is the empty scope, the top.
As in TensorFlow's eager mode, scopes are not made unique: two ``"dense"`` scopes share
one prefix.

>>> import minitape as tf
>>> with tf.name_scope("block") as scope:
...     v = tf.Variable(1.0, name="w")
>>> scope, v.name
('block/', 'block/w:0')
"""
from __future__ import annotations

import threading
from typing import Any


class _Scope(threading.local):
    path = ""             # the scope in force on this thread, "" at the top


_current = _Scope()


class name_scope:  # noqa: N801  (TensorFlow's spelling)
    """A context manager that prefixes the names of variables created inside it; entering returns the path.

    >>> import minitape as tf
    >>> with tf.name_scope("outer"):
    ...     with tf.name_scope("inner") as path:
    ...         print(path, tf.Variable(0.0).name)
    outer/inner/ outer/inner/Variable:0
    """

    def __init__(self, name: str) -> None:
        if not isinstance(name, str):
            raise ValueError("name for name_scope must be a string.")
        self._name = name
        self._outer: list[str] = []

    @property
    def name(self) -> str:
        """The name given (not the whole path).

        >>> import minitape as tf
        >>> tf.name_scope("block").name
        'block'
        """
        return self._name

    def __enter__(self) -> str:
        self._outer.append(_current.path)
        if self._name == "" or self._name.endswith("/"):
            _current.path = self._name
        else:
            _current.path = f"{_current.path}{self._name}/"
        return _current.path

    def __exit__(self, *exc_info: Any) -> None:
        _current.path = self._outer.pop()


def current() -> str:
    """The scope in force: ``""`` at the top, else a path ending in ``/``.

    >>> import minitape as tf
    >>> from minitape.core import scopes
    >>> with tf.name_scope("a"):
    ...     scopes.current()
    'a/'
    """
    return _current.path
