"""``model.summary()``: Keras 3's table of layers, output shapes and parameter counts.

Output shapes are those of each layer's last call, with the batch axis shown as ``None``
(a layer never called shows ``?`` and ``0 (unbuilt)``).

>>> import minitape as tf
>>> model = tf.keras.Sequential([tf.keras.layers.Dense(3, name="hidden")], name="tiny")
>>> _ = model(tf.ones((2, 4)))
>>> model.summary()
Model: "tiny"
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━┓
┃ Layer (type)                         ┃ Output Shape                ┃         Param # ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━┩
│ hidden (Dense)                       │ (None, 3)                   │              15 │
└──────────────────────────────────────┴─────────────────────────────┴─────────────────┘
 Total params: 15 (60.00 B)
 Trainable params: 15 (60.00 B)
 Non-trainable params: 0 (0.00 B)
"""
from __future__ import annotations

import math
import textwrap
from collections.abc import Callable
from typing import Any

from minitape.core.tensor import Variable

WIDTHS = (36, 27, 15)          # the text in each column at Keras' default line length, 88


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


def _row(cells: list[str], left: str, middle: str, right: str, align: tuple[str, ...]) -> list[str]:
    """One table row; a cell too wide for its column wraps onto further lines, as Keras' table does."""
    wrapped = [textwrap.wrap(cell, width) or [""] for cell, width in zip(cells, WIDTHS)]
    lines = []
    for k in range(max(len(w) for w in wrapped)):
        parts = [(w[k] if k < len(w) else "") for w in wrapped]
        parts = [p.rjust(width) if a == "right" else p.ljust(width) for p, width, a in zip(parts, WIDTHS, align)]
        lines.append(left + " " + f" {middle} ".join(parts) + " " + right)
    return lines


def _rule(left: str, fill: str, cross: str, right: str) -> str:
    return left + cross.join(fill * (width + 2) for width in WIDTHS) + right


def print_summary(model: Any, print_fn: Callable[[str], Any] | None = None) -> None:
    """Print ``model``'s layers (its direct sub-layers), their output shapes and parameter counts.

    ``print_fn`` receives the whole table as one string, as Keras 3 gives it.

    >>> import minitape as tf
    >>> from minitape.keras.summary import print_summary
    >>> printed = []
    >>> print_summary(tf.keras.Sequential([tf.keras.layers.Dense(2)], name="unbuilt"), print_fn=printed.append)
    >>> printed[0].splitlines()[4]
    '│ dense... (Dense)...│ ?...│     0 (unbuilt) │'
    """
    print_fn = print_fn or print
    align = ("left", "left", "right")
    lines = [f'Model: "{model.name}"', _rule("┏", "━", "┳", "┓"),
             *_row(["Layer (type)", "Output Shape", "Param #"], "┃", "┃", "┃", align), _rule("┡", "━", "╇", "┩")]
    for k, layer in enumerate(model.layers):
        params = f"{layer.count_params():,}" if layer.built else "0 (unbuilt)"
        lines += _row([f"{layer.name} ({type(layer).__name__})", _shape(layer.output_shape), params], "│", "│", "│", align)
        lines.append(_rule("├", "─", "┼", "┤") if k < len(model.layers) - 1 else _rule("└", "─", "┴", "┘"))
    if not model.layers:
        lines.append(_rule("└", "─", "┴", "┘"))
    trainable, trainable_bytes = _count(model.trainable_variables)
    frozen, frozen_bytes = _count(model.non_trainable_variables)
    optimizer, optimizer_bytes = _optimizer_count(model)
    total, total_bytes = trainable + frozen + optimizer, trainable_bytes + frozen_bytes + optimizer_bytes
    lines += [f" Total params: {total:,} ({readable_size(total_bytes)})",
              f" Trainable params: {trainable:,} ({readable_size(trainable_bytes)})",
              f" Non-trainable params: {frozen:,} ({readable_size(frozen_bytes)})"]
    if optimizer:
        lines.append(f" Optimizer params: {optimizer:,} ({readable_size(optimizer_bytes)})")
    print_fn("\n".join(lines))


def _optimizer_count(model: Any) -> tuple[int, int]:
    """The optimiser's state once it has taken a step: its slots, plus the step count and the learning rate
    (Keras 3 keeps both as variables: 8 bytes and 4)."""
    optimizer = getattr(model, "optimizer", None)
    if optimizer is None or int(optimizer.iterations.numpy()) == 0:
        return 0, 0
    count, nbytes = _count([slot for slots in optimizer._slots.values() for slot in slots.values()])
    return count + 2, nbytes + 12
