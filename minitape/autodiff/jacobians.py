"""Jacobians: one backward pass per entry of the target, stacked.

``tape.gradient`` computes a vector-Jacobian product: the seed's weighting of
the target's entries, pulled back to the sources.  Seeding with each one-hot
vector in turn pulls back each row of the Jacobian.

>>> import minitape as tf
>>> x = tf.constant([0.0, 1.0, 2.0])
>>> with tf.GradientTape() as tape:
...     tape.watch(x)
...     y = tf.reduce_sum(x) * x             # y_i = (x_0 + x_1 + x_2) · x_i
>>> tape.jacobian(y, x).numpy()             # ∂y_i/∂x_j = x_i + [i == j] · sum
array([[3., 0., 0.],
       [1., 4., 1.],
       [2., 2., 5.]], dtype=float32)
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np

from minitape.core import arrays, nest
from minitape.core.messages import with_hint
from minitape.core.tensor import Tensor, Variable, wrap
from minitape.autodiff.backward import backprop
from minitape.autodiff.requests import UnconnectedGradients, as_tensors, unconnected_option
from minitape.ops import reshape, stack, zeros_like


class Jacobians:
    """The Jacobian methods of [`GradientTape`][minitape.GradientTape] (it runs the backward passes)."""

    def jacobian(self, target: Any, sources: Any,
                 unconnected_gradients: UnconnectedGradients | str = UnconnectedGradients.NONE,
                 parallel_iterations: int | None = None, experimental_use_pfor: bool = True) -> Any:
        """The Jacobian of ``target`` with respect to each source: shape ``target.shape + source.shape``.

        >>> import minitape as tf
        >>> x = tf.constant([1.0, 2.0])
        >>> with tf.GradientTape() as tape:
        ...     tape.watch(x)
        ...     y = x * x
        >>> tape.jacobian(y, x).numpy()
        array([[2., 0.],
               [0., 4.]], dtype=float32)
        """
        unconnected = unconnected_option(unconnected_gradients)
        (y,) = as_tensors(target, "GradientTape.jacobian: target", single=True)
        flat_sources = as_tensors(sources, "GradientTape.jacobian: sources")
        if not experimental_use_pfor and not self._persistent:
            raise _needs_persistent("jacobian", "and with  experimental_use_pfor")       # TF's words, spaces too
        rows = self._rows(y, flat_sources, _one_hots(y, y.shape), _watched_among(self, sources))
        results = [_jacobian_of(row, y.shape, s, unconnected) for row, s in zip(rows, flat_sources)]
        return nest.pack_sequence_as(sources, results) if nest.is_nested(sources) else results[0]

    def batch_jacobian(self, target: Any, source: Any,
                       unconnected_gradients: UnconnectedGradients | str = UnconnectedGradients.NONE,
                       parallel_iterations: int | None = None, experimental_use_pfor: bool = True) -> Tensor:
        """Per-example Jacobians: ``target[i]`` against ``source[i]``, stacked over the batch.

        Assumes example ``i`` of the target depends only on example ``i`` of the source.  Both
        need a batch dimension and at least one more.  As in TF, a target that does not
        depend on the source gives zeros (``unconnected_gradients`` is accepted, and ignored).

        >>> import minitape as tf
        >>> x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
        >>> with tf.GradientTape() as tape:
        ...     tape.watch(x)
        ...     y = x * x
        >>> tape.batch_jacobian(y, x).shape
        TensorShape([2, 2, 2])
        """
        unconnected_option(unconnected_gradients)               # a bad value is still an error
        (y,) = as_tensors(target, "GradientTape.batch_jacobian: target", single=True)
        (x,) = as_tensors(source, "GradientTape.batch_jacobian: source", single=True)
        for what, t in (("target", y), ("source", x)):
            if t.ndim < 2:
                raise with_hint(ValueError(f"Shape {tuple(t.shape)} must have rank at least 2"),
                                f"GradientTape.batch_jacobian: the {what} needs the batch dimension first, then each "
                                f"example's shape. Add an axis (tf.expand_dims), or use jacobian.")
        if y.shape[0] != x.shape[0]:
            raise with_hint(ValueError(f"Need first dimension of target shape ({tuple(y.shape)}) and source shape "
                                       f"({tuple(x.shape)}) to match."),
                            "GradientTape.batch_jacobian: example i of the target must come from example i of the source.")
        if not experimental_use_pfor and not self._persistent:
            raise _needs_persistent("batch_jacobian", "and  with experimental_use_pfor")
        (row,) = self._rows(y, [x], _one_hots(y, y.shape[1:]), _watched_among(self, source))
        # As TF: unconnected, zeros of the target's dtype, whatever ``unconnected_gradients`` says.
        return _assembled(row, x, tuple(y.shape) + tuple(x.shape[1:]), axis=1, zeros_beside=y)

    def _rows(self, y: Tensor, sources: list[Tensor], seeds: Iterable[Any],
              watched: set[int]) -> list[list[Tensor | None]]:
        """One backward pass per seed; returns, per source, the list of gradients.

        The target as one of its own sources gets its seed, as in ``gradient``, but only where TF's
        would: when it is among the ``watched`` sources (see ``_watched_among``).
        """
        ids = [s._id for s in sources]
        rows: list[list[Tensor | None]] = [[] for _ in sources]
        with self._computing_gradient(y):
            followed, reach = self._followed(sources)
            for seed in seeds:
                seeded = {y._id: wrap(seed)}
                grads = backprop(self._entries, seeded, followed, self, reach)
                for row, i in zip(rows, ids):
                    row.append(grads.get(i, seeded.get(i) if i in watched else None))
        return rows


def _watched_among(tape: Any, structure: Any) -> set[int]:
    """The ids of the sources in ``structure`` that ``tape`` watches, counting a trainable variable as
    watched when the tape watches what it reads (TF's jacobian reads it, and so watches it)."""
    return {leaf._id for leaf in nest.flatten(structure) if isinstance(leaf, Tensor | Variable) and (
        leaf._id in tape._watched or isinstance(leaf, Variable) and leaf.trainable and tape._watch_accessed_variables)}


def _needs_persistent(method: str, words: str) -> RuntimeError:
    """TF's refusal of ``experimental_use_pfor=False`` on a tape that is not persistent (its row-by-row loop
    runs the backward pass once per row; minitape's always does, so it answers as TF does)."""
    return with_hint(RuntimeError(f"GradientTape must be created with persistent=True to compute the {method} "
                                  f"with eager execution enabled {words} set to False."),
                     f"GradientTape.{method}: make the tape with tf.GradientTape(persistent=True), or leave "
                     f"experimental_use_pfor at True.")


def _one_hots(y: Tensor, shape: tuple[int, ...]) -> Iterator[Any]:
    """One seed per position of ``shape``: 1 there and 0 elsewhere, broadcast to ``y``'s shape, on its device.

    Seeds are made one at a time, as the backward passes use them: all at once they would
    be a ``size × size`` identity.  An empty ``shape`` still gives one seed, all zeros: as
    TF traces its loop body once, that pass tells which sources the target is connected to.

    >>> from minitape.autodiff.jacobians import _one_hots
    >>> [seed.tolist() for seed in _one_hots(tf.zeros((2, 2)), (2,))]
    [[[1.0, 0.0], [1.0, 0.0]], [[0.0, 1.0], [0.0, 1.0]]]
    """
    size = math.prod(shape)
    for k in range(max(size, 1)):
        seed = np.zeros(size, dtype=y.dtype.as_numpy_dtype_)
        seed[k:k + 1] = 1                   # nothing, for the empty shape's single seed
        yield arrays.asarray_beside(y._value, np.broadcast_to(seed.reshape(shape), y.shape))


def _jacobian_of(row: list[Tensor | None], target_shape: tuple[int, ...], source: Tensor,
                 unconnected: UnconnectedGradients) -> Tensor | None:
    if unconnected is UnconnectedGradients.NONE and all(g is None for g in row):
        return None
    return _assembled(row, source, tuple(target_shape) + tuple(source.shape), axis=0, zeros_beside=source)


def _assembled(row: list[Tensor | None], source: Tensor, shape: tuple[int, ...], axis: int,
               zeros_beside: Tensor) -> Tensor:
    """The gradients of ``row`` stacked along ``axis`` into ``shape`` (zeros for a None); zeros of
    ``zeros_beside``'s dtype and device where none flowed, or where ``shape`` is empty (TF: zeros, not None)."""
    if all(g is None for g in row) or math.prod(shape) == 0:
        return wrap(arrays.full_beside(zeros_beside._value, shape, 0))
    return reshape(stack([g if g is not None else zeros_like(source) for g in row], axis=axis), shape)
