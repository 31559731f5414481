"""``tf.print``: print tensors as their values, the way TensorFlow does.

Tensors print without commas, whole floats without a point, booleans as 1/0,
and long axes summarised with ``...``.  Output goes to ``sys.stdout`` as it is
*when printing* (minitape differs from TF, which prints to stderr), so doctests
and notebooks capture every line, including those printed again when
``recompute_grad`` recomputes a function.

>>> import minitape as tf
>>> tf.print("x =", tf.constant([1.5, 2.0, -3.25]))
x = [1.5 2 -3.25]
>>> tf.print(tf.range(10))
[0 1 2 ... 7 8 9]
"""
from __future__ import annotations

import builtins
import logging
import pprint
import sys
from typing import Any, TextIO

import numpy as np

from minitape.core import events, nest
from minitape.core.tensor import Tensor, Variable


def print(*inputs: Any, sep: str = " ", end: str = "\n", output_stream: TextIO | str | None = None,
          summarize: int = 3, name: str | None = None) -> None:
    """Print ``inputs`` (tensors, strings, Python values and lists/dicts of them).

    ``summarize`` is how many entries to show at each end of a long axis (-1: all).
    ``output_stream`` is a file-like object or ``"file://path"`` (appended to).

    >>> import minitape as tf
    >>> tf.print({"w": tf.constant([[1, 2], [3, 4]])}, sep="")
    {'w': [[1 2]
     [3 4]]}
    """
    text = sep.join(_format_input(item, summarize) for item in inputs) + end
    events.emit("print", text=text)
    _write(text, sys.stdout if output_stream is None else output_stream)


def get_logger() -> logging.Logger:
    """The logger minitape warns through (``"minitape"``), as ``tf.get_logger()`` is TensorFlow's.

    Courses silence a library's warnings through it; setting its level does that here too.

    >>> import logging
    >>> import minitape as tf
    >>> tf.get_logger().setLevel(logging.ERROR)
    >>> tf.get_logger().getEffectiveLevel() == logging.ERROR
    True
    >>> tf.get_logger().setLevel(logging.NOTSET)
    """
    return logging.getLogger("minitape")


def _write(text: str, stream: TextIO | str) -> None:
    if isinstance(stream, str):
        if not stream.startswith("file://"):
            raise ValueError(f"print: output_stream must be a file-like object or 'file://path', got {stream!r}.")
        with open(stream[len("file://"):], "a", encoding="utf-8", errors="backslashreplace") as handle:
            handle.write(text)
        return
    try:
        stream.write(text)
    except UnicodeEncodeError:      # a lone surrogate, or what the stream's encoding lacks: escaped, as the player shows it
        encoding = getattr(stream, "encoding", None) or "utf-8"
        stream.write(text.encode(encoding, "backslashreplace").decode(encoding))


def _format_input(item: Any, summarize: int) -> str:
    if isinstance(item, str):
        return item
    if isinstance(item, Tensor | Variable):
        return format_array(item.numpy(), summarize)
    if not nest.is_nested(item):
        return pprint.pformat(item)
    # Structures, as TF prints them: pretty-print with a placeholder in each tensor's place, one
    # that occurs nowhere in the rest of the text, then put each tensor's text in its place, in order.
    leaves = nest.flatten(item)
    tensors = [leaf for leaf in leaves if isinstance(leaf, Tensor | Variable)]
    placeholder = _placeholder(pprint.pformat(_with_tensors_as(item, leaves, "")))
    template = pprint.pformat(_with_tensors_as(item, leaves, placeholder))
    first, *rest = template.split(repr(placeholder))
    return first + "".join(format_array(t.numpy(), summarize) + after for t, after in zip(tensors, rest))


def _with_tensors_as(item: Any, leaves: list[Any], stand_in: str) -> Any:
    """``item`` with ``stand_in`` in place of each tensor."""
    return nest.pack_sequence_as(item, [stand_in if isinstance(leaf, Tensor | Variable) else leaf
                                        for leaf in leaves])


def _placeholder(text: str) -> str:
    """``{}``, or a longer relative of it, that does not occur in ``text`` (TF adds random digits)."""
    placeholder = "{}"
    while placeholder in text:
        placeholder += "0"
    return placeholder


def format_array(array: np.ndarray, summarize: int = 3) -> str:
    """An array as ``tf.print`` shows it.

    >>> from minitape.dialect.printing import format_array
    >>> format_array(np.arange(4).reshape(2, 2))
    '[[0 1]\\n [2 3]]'
    """
    if array.ndim == 0:
        return format_scalar(array[()])
    return _format_block(array, summarize, depth=0)


def _format_block(array: np.ndarray, summarize: int, depth: int) -> str:
    n = len(array)
    shown = builtins.range(n)
    if 0 <= summarize and 2 * summarize < n:
        shown = [*builtins.range(summarize), None, *builtins.range(n - summarize, n)]
    if array.ndim == 1:
        parts = ["..." if i is None else format_scalar(array[i]) for i in shown]
        return "[" + " ".join(parts) + "]"
    parts = ["..." if i is None else _format_block(array[i], summarize, depth + 1) for i in shown]
    return "[" + ("\n" * (array.ndim - 1) + " " * (depth + 1)).join(parts) + "]"


def format_scalar(value: np.generic) -> str:
    """One number as TensorFlow prints it: the shortest of 6/9 (float32) or 15/17 (float64) digits that round-trips.

    >>> from minitape.dialect.printing import format_scalar
    >>> format_scalar(np.float32(1 / 3)), format_scalar(np.float32(2.0)), format_scalar(np.bool_(True))
    ('0.333333343', '2', '1')
    """
    if isinstance(value, np.bool_ | bool):
        return "1" if value else "0"
    if isinstance(value, np.floating):
        kind = np.float64 if isinstance(value, np.float64) else np.float32
        short, long = (15, 17) if kind is np.float64 else (6, 9)
        text = f"{float(value):.{short}g}"
        return text if kind(text) == kind(value) or np.isnan(value) else f"{float(value):.{long}g}"
    return str(value)
