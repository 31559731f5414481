"""Names in pictures: the user's names for values and tapes (``names=locals()``), and short function names.

>>> import minitape as tf
>>> x = tf.constant(1.0)
>>> tf.viz.name_map({"x": x}) == {x._id: "x"}
True
"""
from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import Any

from minitape.autodiff.tape import GradientTape
from minitape.core import nest
from minitape.core.tensor import Tensor, Variable


def short(function: str) -> str:
    """A function's name without the scopes it was defined in: ``f.<locals>.g`` is ``g``.

    >>> from minitape.viz.scene import short
    >>> short("seed_function_timeline.<locals>.my_function")
    'my_function'
    """
    return function.rsplit(".", 1)[-1] if ".<locals>." in function else function


def name_map(names: dict[str, Any] | None) -> dict[int, str]:
    """``names=locals()`` as a map from value id to the user's name for it.

    Only tensors and variables count, and names starting with ``_`` are left out.

    >>> import minitape as tf
    >>> x = tf.constant(1.0)
    >>> tf.viz.name_map({"x": x, "_x": x, "n": 3}) == {x._id: "x"}
    True
    """
    if names is None:
        return {}
    if not isinstance(names, Mapping):
        raise TypeError(f"names (a picture's labels) must be a dict from names to tensors, such as locals(); "
                        f"got {type(names).__name__}.")
    for name in names:
        if not isinstance(name, str):
            raise TypeError(f"names (a picture's labels) must map str names to tensors, as locals() does; "
                            f"got the key {name!r} ({type(name).__name__}). Use str keys: names={{'x': x}}.")
    return {value._id: name for name, value in names.items()
            if isinstance(value, Tensor | Variable) and not name.startswith("_")}


def tape_names(names: dict[str, Any] | None) -> dict[int, str]:
    """The tapes among ``names=locals()``, as a map from ``id(tape)`` to the user's name for it.

    >>> import minitape as tf
    >>> tape = tf.GradientTape()
    >>> tf.viz.scene.tape_names({"tape": tape, "x": 1}) == {id(tape): "tape"}
    True
    """
    return {id(value): name for name, value in (names or {}).items()
            if isinstance(value, GradientTape) and isinstance(name, str) and not name.startswith("_")}


def parameter_names(function: Callable, args: tuple, kwargs: dict) -> list[str | None]:
    """The parameter each tensor argument of ``function(*args, **kwargs)`` is passed as, in ``nest.flatten``'s
    order (arguments, then keywords by name): what a recomputation's fresh copies stand for.  None for a
    tensor inside a list or dict, or passed through ``*args``.

    >>> import minitape as tf
    >>> from minitape.viz.names import parameter_names
    >>> def f(x, pair, scale=None): ...
    >>> parameter_names(f, (tf.constant(1.0), [tf.constant(2.0), tf.constant(3.0)]), {"scale": tf.constant(4.0)})
    ['x', None, None, 'scale']
    """
    try:
        parameters = list(inspect.signature(function).parameters.values())
    except (TypeError, ValueError):                 # a builtin without a signature
        parameters = []
    positional = [p.name for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    named = [(positional[k] if k < len(positional) else None, arg) for k, arg in enumerate(args)]
    named += [(key, kwargs[key]) for key in sorted(kwargs)]
    names: list[str | None] = []
    for name, arg in named:
        tensors = [leaf for leaf in nest.flatten(arg) if isinstance(leaf, Tensor | Variable)]
        names += [name] if isinstance(arg, Tensor | Variable) else [None] * len(tensors)
    return names
