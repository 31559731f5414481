"""What ``gradient`` and ``jacobian`` are asked: targets, sources, seeds, and unconnected sources.

>>> import minitape as tf
>>> from minitape.autodiff.requests import as_tensors
>>> v = tf.Variable(1.0)
>>> [t._id == v._id for t in as_tensors([v, tf.constant(2.0)], "sources")]
[True, False]
"""
from __future__ import annotations

import enum
from typing import Any

from minitape.core import arrays, nest
from minitape.core.errors import InvalidArgumentError
from minitape.core.messages import with_hint
from minitape.core.tensor import Tensor, Variable, convert_to_tensor, wrap
from minitape.ops import zeros_like


class UnconnectedGradients(enum.Enum):
    """What ``gradient`` returns for a source the target does not depend on.

    >>> import minitape as tf
    >>> x, c = tf.constant(1.0), tf.constant(2.0)
    >>> with tf.GradientTape() as tape:
    ...     tape.watch([x, c])
    ...     y = x * 2.0
    >>> tape.gradient(y, c, unconnected_gradients=tf.UnconnectedGradients.ZERO).numpy()
    np.float32(0.0)
    """

    NONE = "none"
    ZERO = "zero"


def unconnected_option(value: Any) -> UnconnectedGradients:
    """``unconnected_gradients`` as an ``UnconnectedGradients``; anything else is TF's ValueError.

    >>> from minitape.autodiff.requests import unconnected_option
    >>> unconnected_option("zero")
    <UnconnectedGradients.ZERO: 'zero'>
    >>> try:
    ...     unconnected_option("nonsense")
    ... except ValueError as error:                  # TF's text; minitape's advice is a note
    ...     print(error)
    ...     print(error.__notes__[0])
    Unknown value for unconnected_gradients: 'nonsense'
    Use tf.UnconnectedGradients.NONE or tf.UnconnectedGradients.ZERO ('none' or 'zero').
    """
    try:
        return UnconnectedGradients(value)
    except ValueError:
        raise with_hint(ValueError(f"Unknown value for unconnected_gradients: {value!r}"),
                        "Use tf.UnconnectedGradients.NONE or tf.UnconnectedGradients.ZERO ('none' or 'zero').") from None


# --------------------------------------------------------------------------- GradientTape


_NOT_TENSOR = "{what} must be a minitape Tensor or Variable (or a list/dict of them), got {kind} {value!r}."


def as_tensors(structure: Any, what: str, single: bool = False) -> list[Tensor]:
    """Flatten ``structure``; variables become snapshots carrying the variable's id."""
    leaves = nest.flatten(structure)
    if single and len(leaves) != 1:
        raise TypeError(f"{what} must be a single Tensor, got {structure!r}.")
    tensors = []
    for leaf in leaves:
        if isinstance(leaf, Variable):
            leaf = wrap(leaf._value, leaf._id)
        elif not isinstance(leaf, Tensor):
            raise TypeError(_NOT_TENSOR.format(what=what, kind=type(leaf).__name__, value=leaf))
        tensors.append(leaf)
    return tensors


def seeds_for(targets: list[Tensor], output_gradients: Any) -> dict[int, Tensor]:
    """The upstream gradient of each target: ones, or the given ``output_gradients``."""
    given = [None] * len(targets) if output_gradients is None else nest.flatten(output_gradients)
    if len(given) != len(targets):
        raise ValueError(f"GradientTape.gradient: output_gradients has {len(given)} entries but there "
                         f"are {len(targets)} targets; give one per target (or None).")
    seeds: dict[int, Tensor] = {}
    for target, seed in zip(targets, given):
        if seed is None:
            seed = wrap(arrays.full_beside(target._value, target._value.shape, 1))
        else:
            seed = convert_to_tensor(seed)
            if seed.dtype is not target.dtype:          # TF never converts an upstream gradient
                raise InvalidArgumentError(
                    f"GradientTape.gradient: output_gradients has dtype {seed.dtype.name} but its target has dtype "
                    f"{target.dtype.name}; minitape never converts silently. Use tf.cast(g, tf.{target.dtype.name}).")
            if tuple(seed.shape) != tuple(target.shape):
                raise InvalidArgumentError(
                    f"GradientTape.gradient: output_gradients has shape {tuple(seed.shape)} but its target "
                    f"has shape {tuple(target.shape)}; each output gradient must match its target's shape.")
        seeds[target._id] = seeds[target._id] + seed if target._id in seeds else seed
    return seeds


def finish(grad: Tensor | None, source: Tensor, unconnected: UnconnectedGradients) -> Tensor | None:
    """What ``gradient`` returns for one source: its gradient, or None/zeros where it has none."""
    if grad is None and unconnected is UnconnectedGradients.ZERO:
        return zeros_like(source)
    return grad
