"""``model.summary()``: Keras 3's table of layers, output shapes and parameter counts.

Output shapes are those of each layer's calls, with the batch axis as Keras 3 shows it: ``None`` in a
functional model, or one built from its input shape, and in a Sequential or subclassed model built by a call
on data, that data's batch size (Keras 3 keeps the shapes the model was built for); a layer never called
shows ``?`` and ``0 (unbuilt)``.  The table is as wide as Keras 3
makes it: ``line_length`` if given, else 88 characters, or 4 fewer than the terminal has
(``shutil.get_terminal_size``: 80 columns when the output is not a terminal, so a notebook's
or a captured table is 76 wide); the columns take 45%, 35% and 20% of it, and a word too long
for its column ends in ``…``, as the ``rich`` table Keras prints does.

>>> import minitape as tf
>>> model = tf.keras.Sequential([tf.keras.layers.Dense(3, name="hidden")], name="tiny")
>>> _ = model(tf.ones((2, 4)))
>>> model.summary()
Model: "tiny"
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━┓
┃ Layer (type)                    ┃ Output Shape           ┃       Param # ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━┩
│ hidden (Dense)                  │ (2, 3)                 │            15 │
└─────────────────────────────────┴────────────────────────┴───────────────┘
 Total params: 15 (60.00 B)
 Trainable params: 15 (60.00 B)
 Non-trainable params: 0 (0.00 B)
"""
from __future__ import annotations

import math
import shutil
import textwrap
from collections.abc import Callable
from typing import Any

from minitape.core.tensor import Variable

POSITIONS = (0.45, 0.80, 1.0)          # where Keras 3 ends each column, as a share of the line


def column_widths(line_length: int | None = None) -> list[int]:
    """The width of the text in each column for a table ``line_length`` wide, as Keras 3 and ``rich`` size it:
    Keras asks for ``int(position * line_length)`` per column, and ``rich`` takes the excess (its borders and
    padding) back from the columns in turn, evenly.

    >>> from minitape.keras.summary import column_widths
    >>> column_widths(88), column_widths(76)
    ([36, 27, 15], [31, 22, 13])
    """
    line_length = line_length or min(88, shutil.get_terminal_size().columns - 4)
    ends = [int(p * line_length) for p in POSITIONS]
    wanted = [end - start + 2 for start, end in zip([0, *ends], ends)]          # each cell padded by 1 a side
    excess, remaining = sum(wanted) - (line_length - len(wanted) - 1), len(wanted)
    widths = []
    for width in wanted:                                                     # rich's ratio_reduce
        taken = min(width, round(excess / remaining))
        widths.append(width - taken - 2)
        excess, remaining = excess - taken, remaining - 1
    return widths


def readable_size(nbytes: float) -> str:
    """Bytes in Keras' units: ``B``, ``KB``, ``MB``... (powers of 1024), two decimals.

    >>> from minitape.keras.summary import readable_size
    >>> readable_size(804), readable_size(1228)
    ('804.00 B', '1.20 KB')
    """
    for unit in ("B", "KB", "MB", "GB", "TB"):
        if nbytes / 1024 < 1:
            return f"{nbytes:.2f} {unit}"
        nbytes /= 1024
    return f"{nbytes:.2f} PB"


def _count(variables: list[Variable]) -> tuple[int, int]:
    """How many numbers ``variables`` hold, and how many bytes."""
    sizes = [(math.prod(v.shape), v.dtype.size) for v in variables]
    return sum(n for n, _ in sizes), sum(n * size for n, size in sizes)


def _shape(shape: Any) -> str:
    if shape is None:
        return "?"
    if isinstance(shape, list):
        return ", ".join(_shape(s) for s in shape)
    return "(" + ", ".join("None" if n is None else str(n) for n in shape) + ")"


def built_batch(model: Any) -> int | None:
    """The batch size Keras 3 shows in ``model``'s output shapes: that of the data a Sequential or subclassed
    model was built by (its first call, or ``build``); None for a functional model, or a Sequential one that
    knows its input shape (it builds from a symbolic input, as the layers called in a functional model do).

    >>> import minitape as tf
    >>> from minitape.keras.summary import built_batch
    >>> called = tf.keras.Sequential([tf.keras.layers.Dense(2)])
    >>> _ = called(tf.ones((5, 3)))
    >>> shaped = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,))])
    >>> built_batch(called), built_batch(shaped)
    (5, None)
    """
    layers = getattr(model, "_layers", [])
    if hasattr(model, "_outputs") or (layers and getattr(layers[0], "input_shape_hint", None) is not None):
        return None
    if hasattr(model, "_spec_batch"):         # built by fit or evaluate: for the batches' spec (see data_adapter)
        return model._spec_batch
    shape = getattr(model, "_build_input_shape", None)
    return shape[0] if isinstance(shape, tuple) and shape else None


def _batched(shape: Any, batch: int | None) -> Any:
    """``shape`` with its unknown batch size (or each one's, for a list) made ``batch``."""
    if isinstance(shape, list):
        return [_batched(s, batch) for s in shape]
    return (batch, *shape[1:]) if isinstance(shape, tuple) and shape and shape[0] is None else shape


def _wrap(cell: str, width: int) -> list[str]:
    """A cell's lines: wrapped at spaces, a word longer than the column cut with ``…`` (rich's ellipsis)."""
    words = [word if len(word) <= width else word[:width - 1] + "…" for word in cell.split(" ")]
    return textwrap.wrap(" ".join(words), width, break_long_words=False) or [""]


def _row(cells: list[str], left: str, middle: str, right: str, align: tuple[str, ...], widths: list[int]) -> list[str]:
    """One table row; a cell too wide for its column wraps onto further lines, as Keras' table does."""
    wrapped = [_wrap(cell, width) for cell, width in zip(cells, widths)]
    lines = []
    for k in range(max(len(w) for w in wrapped)):
        parts = [(w[k] if k < len(w) else "") for w in wrapped]
        parts = [p.rjust(width) if a == "right" else p.ljust(width) for p, width, a in zip(parts, widths, align)]
        lines.append(left + " " + f" {middle} ".join(parts) + " " + right)
    return lines


def _rule(left: str, fill: str, cross: str, right: str, widths: list[int]) -> str:
    return left + cross.join(fill * (width + 2) for width in widths) + right


def print_summary(model: Any, print_fn: Callable[[str], Any] | None = None, line_length: int | None = None) -> None:
    """Print ``model``'s layers (its direct sub-layers), their output shapes and parameter counts.

    ``print_fn`` receives the whole table as one string ending in a newline, as Keras 3 gives it.

    >>> import minitape as tf
    >>> from minitape.keras.summary import print_summary
    >>> printed = []
    >>> print_summary(tf.keras.Sequential([tf.keras.layers.Dense(2)], name="unbuilt"), print_fn=printed.append)
    >>> printed[0].splitlines()[4]
    '│ dense... (Dense)...│ ?...│     0 (unbuilt) │'
    """
    align, widths = ("left", "left", "right"), column_widths(line_length)
    lines = [f'Model: "{model.name}"', _rule("┏", "━", "┳", "┓", widths),
             *_row(["Layer (type)", "Output Shape", "Param #"], "┃", "┃", "┃", align, widths),
             _rule("┡", "━", "╇", "┩", widths)]
    batch = built_batch(model)
    for k, layer in enumerate(model.layers):
        params = f"{layer.count_params():,}" if layer.built else "0 (unbuilt)"
        # A functional model among the layers shows its symbolic outputs' shapes, as in Keras 3.
        shape = layer.output_shape if hasattr(layer, "_outputs") else _batched(layer.output_shape, batch)
        lines += _row([f"{layer.name} ({type(layer).__name__})", _shape(shape), params], "│", "│", "│",
                      align, widths)
        last = k == len(model.layers) - 1
        lines.append(_rule("└", "─", "┴", "┘", widths) if last else _rule("├", "─", "┼", "┤", widths))
    if not model.layers:
        lines.append(_rule("└", "─", "┴", "┘", widths))
    trainable, trainable_bytes = _count(model.trainable_variables)
    frozen, frozen_bytes = _count(model.non_trainable_variables)
    optimizer, optimizer_bytes = _optimizer_count(model)
    total, total_bytes = trainable + frozen + optimizer, trainable_bytes + frozen_bytes + optimizer_bytes
    lines += [f" Total params: {total:,} ({readable_size(total_bytes)})",
              f" Trainable params: {trainable:,} ({readable_size(trainable_bytes)})",
              f" Non-trainable params: {frozen:,} ({readable_size(frozen_bytes)})"]
    if optimizer:
        lines.append(f" Optimizer params: {optimizer:,} ({readable_size(optimizer_bytes)})")
    console = shutil.get_terminal_size().columns          # rich crops what is wider than its console
    text = "\n".join(line[:console] for line in lines)
    print(text) if print_fn is None else print_fn(text + "\n")        # as Keras: print_fn gets the final newline


def _optimizer_count(model: Any) -> tuple[int, int]:
    """The optimiser's state once it has taken a step: its slots, plus the step count and the learning rate
    (Keras 3 keeps both as variables: 8 bytes and 4)."""
    optimizer = getattr(model, "optimizer", None)
    if optimizer is None or int(optimizer.iterations.numpy()) == 0:
        return 0, 0
    count, nbytes = _count([slot for slots in optimizer._slots.values() for slot in slots.values()])
    return count + 2, nbytes + 12
