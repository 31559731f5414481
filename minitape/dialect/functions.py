"""``tf.function``: in TensorFlow it traces a Python function into a graph; minitape has no graphs.

minitape always runs a ``tf.function`` eagerly, exactly as TensorFlow does after
``tf.config.run_functions_eagerly(True)``: each call runs the Python body again, prints
and all, and its keyword arguments (``input_signature``, ``jit_compile``,
``reduce_retracing``...) are accepted and change nothing (TF does not check an
``input_signature`` when running eagerly either).  So a training step written for TF runs
unchanged, and a tape records every op inside it.  What it returns comes back as TF's
function returns it: numbers, arrays and variables as tensors (a variable read), in the
same structure; None, strings and other objects as they are.

>>> import minitape as tf
>>> @tf.function
... def square(x):
...     print("running")
...     return x * x
>>> square(tf.constant(3.0)).numpy()
running
np.float32(9.0)
>>> square(tf.constant(4.0)).numpy()            # no tracing, no cache: the body runs every time
running
np.float32(16.0)
"""
from __future__ import annotations

import functools
import types
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from minitape.core import dtypes, nest
from minitape.core.tensor import Tensor, Variable, convert_to_tensor


def _as_output(value: Any) -> Any:
    """One value a function returned, as TF's graph function gives it back: a variable read, a number or
    array made a tensor (None, strings and other objects are left as they are)."""
    if isinstance(value, Variable | bool | int | float | np.ndarray | np.generic) and not isinstance(value, Tensor):
        return convert_to_tensor(value)
    return value


class TensorSpec:
    """The shape and dtype a ``tf.function``'s ``input_signature`` names (``None`` for any size).

    >>> import minitape as tf
    >>> tf.TensorSpec([None, 28, 28], tf.float32)
    TensorSpec(shape=(None, 28, 28), dtype=tf.float32, name=None)
    """

    def __init__(self, shape: Sequence[int | None] | None, dtype: Any = dtypes.float32, name: str | None = None) -> None:
        self.shape = None if shape is None else tuple(shape)
        self.dtype, self.name = dtypes.as_dtype(dtype), name

    def __repr__(self) -> str:
        shape = "<unknown>" if self.shape is None else self.shape       # TF's words for an unknown rank
        return f"TensorSpec(shape={shape}, dtype=tf.{self.dtype.name}, name={self.name!r})"


class Function:
    """What ``tf.function`` returns: callable like the function it wraps, which it runs eagerly.

    >>> import minitape as tf
    >>> f = tf.function(lambda x: x + 1, jit_compile=True)
    >>> f(1), f.python_function(1), f.input_signature
    (<minitape.Tensor: shape=(), dtype=int32, numpy=2>, 2, None)
    """

    def __init__(self, python_function: Callable, input_signature: Sequence[TensorSpec] | None = None,
                 **options: Any) -> None:
        if not callable(python_function):
            raise TypeError(f"{python_function!r} is not a callable object")
        functools.update_wrapper(self, python_function)
        self._python_function = python_function
        self._input_signature = None if input_signature is None else tuple(input_signature)
        self.options = options

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        result = self._python_function(*args, **kwargs)
        return nest.pack_sequence_as(result, [_as_output(r) for r in nest.flatten(result)])

    def __get__(self, instance: Any, owner: type | None = None) -> Any:
        # On a class, ``@tf.function`` decorates a method: reached through an instance, it binds it.
        return self if instance is None else types.MethodType(self, instance)

    @property
    def python_function(self) -> Callable:
        """The Python function wrapped.

        >>> import minitape as tf
        >>> def double(x):
        ...     return 2 * x
        >>> tf.function(double).python_function is double
        True
        """
        return self._python_function

    @property
    def input_signature(self) -> tuple[TensorSpec, ...] | None:
        """The ``input_signature`` given, as a tuple (None if none was).

        >>> import minitape as tf
        >>> tf.function(abs, input_signature=[tf.TensorSpec([None])]).input_signature
        (TensorSpec(shape=(None,), dtype=tf.float32, name=None),)
        """
        return self._input_signature


def function(func: Callable | None = None, input_signature: Sequence[TensorSpec] | None = None, autograph: bool = True,
             jit_compile: bool | None = None, reduce_retracing: bool = False, **experimental: Any) -> Any:
    """``@tf.function``, ``@tf.function(...)`` or ``tf.function(f, ...)``: ``f``, run eagerly (see the module).

    >>> import minitape as tf
    >>> @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)], reduce_retracing=True)
    ... def total(x):
    ...     return tf.reduce_sum(x)
    >>> total(tf.constant([1.0, 2.0])).numpy()
    np.float32(3.0)
    """
    unknown = sorted(set(experimental) - _EXPERIMENTAL)
    if unknown:
        raise TypeError(f"function() got an unexpected keyword argument '{unknown[0]}'")
    options = {"autograph": autograph, "jit_compile": jit_compile, "reduce_retracing": reduce_retracing, **experimental}
    if func is None:
        return lambda f: Function(f, input_signature, **options)
    return Function(func, input_signature, **options)


_EXPERIMENTAL = {"experimental_implements", "experimental_autograph_options", "experimental_attributes",
                 "experimental_relax_shapes", "experimental_compile", "experimental_follow_type_hints"}
