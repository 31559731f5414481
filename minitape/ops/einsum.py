"""Einstein summation: products of tensors named axis by axis, summed over the letters left out.

``"ij,jk->ik"`` multiplies entries whose ``j`` agree and sums ``j`` away.  Its
derivative with respect to one input is another einsum: the upstream gradient
contracted with the other inputs.  A letter repeated within one input (``"ii->i"``)
reads that input's diagonal; that is a ``gather`` of the entries whose indices
agree, so its gradient scatters back into the diagonal and nowhere else.

>>> import minitape as tf
>>> tf.einsum("ij,j->i", [[1.0, 2.0]], [3.0, 4.0]).numpy()
array([11.], dtype=float32)
>>> tf.einsum("ii", [[1.0, 2.0], [3.0, 4.0]]).numpy()        # the trace (the output is implicit)
np.float32(5.0)
"""
from __future__ import annotations

import builtins
import functools
import string
from collections.abc import Sequence
from typing import Any

import numpy as np

from minitape.core.errors import InvalidArgumentError
from minitape.core.primitive import ForEachInput, INPUTS, Op, apply
from minitape.core.tensor import Tensor
from minitape.ops.arguments import MATRIX, operands
from minitape.ops.broadcasting import broadcast_to
from minitape.ops.indexing import gather
from minitape.ops.shapes import reshape


def einsum(equation: str, *inputs: Any, name: str | None = None) -> Tensor:
    """Einstein summation, e.g. ``"ij,jk->ik"``; without ``->`` the output is the letters used once, sorted.

    A letter repeated within one input takes that input's diagonal (``"ii->i"``, ``"bxby->bxy"``).

    >>> tf.einsum("ij,j->i", [[1.0, 2.0]], [3.0, 4.0]).numpy()
    array([11.], dtype=float32)
    >>> tf.einsum("ii->i", [[1.0, 2.0], [3.0, 4.0]]).numpy()
    array([1., 4.], dtype=float32)
    """
    tensors = operands("einsum", *inputs)
    MATRIX.check("einsum", tensors[0])
    if not isinstance(equation, str):
        raise TypeError(f"einsum: equation must be a string such as 'ij,jk->ik', got {equation!r}.")
    terms, output = _parse_einsum(equation, tuple(tuple(t.shape) for t in tensors))
    distinct = tuple("".join(dict.fromkeys(term)) for term in terms)
    tensors = tuple(diagonal(t, term) if term != kept else t for t, term, kept in zip(tensors, terms, distinct))
    return apply(_EINSUM, tensors, {"terms": distinct, "output": output})


def diagonal(x: Tensor, term: str) -> Tensor:
    """The entries of ``x`` whose axes named by one letter in ``term`` share their index: ``"ii"`` -> ``"i"``.

    The result has one axis per distinct letter, in order of first appearance.  It is a
    ``gather`` from the flattened tensor, so its gradient scatters into the diagonal.

    >>> from minitape.ops.einsum import diagonal
    >>> diagonal(tf.reshape(tf.range(8.0), (2, 2, 2)), "iji").numpy()
    array([[0., 2.],
           [5., 7.]], dtype=float32)
    """
    letters = "".join(dict.fromkeys(term))
    sizes = {c: n for c, n in zip(term, x.shape)}
    strides = np.cumprod((1,) + tuple(x.shape)[:0:-1])[::-1]      # row-major: how far one step of each axis goes
    grid = np.indices(tuple(sizes[c] for c in letters), sparse=True) if letters else ()
    flat = builtins.sum((grid[letters.index(c)] * int(s) for c, s in zip(term, strides)), np.zeros((), np.int64))
    return gather(reshape(x, (-1,)), np.asarray(flat, np.int64))


# Just an optimization, the cache: a layer calls einsum with one equation and the same shapes step after
# step, and reading the equation again cost about 15 µs a call.
@functools.lru_cache(maxsize=1024)
def _parse_einsum(equation: str, shapes: tuple[tuple[int, ...], ...]) -> tuple[tuple[str, ...], str]:
    equation = equation.replace(" ", "")
    if "." in equation:
        raise ValueError(f"einsum: minitape does not take '...' (an ellipsis); name every axis with a letter, "
                         f"e.g. 'bij,bjk->bik'; got {equation!r}.")
    left, arrow, output = equation.partition("->")
    terms = tuple(left.split(","))
    if not arrow:                       # implicit form: the letters used exactly once, in alphabetical order
        output = "".join(sorted(c for c in set(left) - {","} if left.count(c) == 1))
    if len(terms) != len(shapes):
        raise ValueError(f"einsum: {equation!r} names {len(terms)} inputs but {len(shapes)} were given.")
    for term, shape in zip(terms, shapes):
        if len(term) != len(shape) or not set(term) <= set(string.ascii_letters):
            raise ValueError(f"einsum: term {term!r} does not fit an input of shape {shape} "
                             f"(one letter per axis).")
    for c in output:
        if output.count(c) > 1:
            raise ValueError(f"einsum: Output subscripts contain a label appearing more than once: {equation}; "
                             f"name each output axis once.")
        if c not in left:
            raise ValueError(f"einsum: Output subscripts contain the label {c} not present in the input "
                             f"subscripts of {equation!r}.")
    _check_sizes(terms, shapes)
    return terms, output


def _check_sizes(terms: Sequence[str], shapes: Sequence[tuple[int, ...]]) -> None:
    """Every axis a letter names has one size, within an input (a diagonal) and across inputs."""
    sizes: dict[str, int] = {}
    for k, (term, shape) in enumerate(zip(terms, shapes)):
        for letter, n in zip(term, shape):
            if sizes.setdefault(letter, n) != n:
                raise InvalidArgumentError(f"einsum: index {letter!r} has size {sizes[letter]} in one axis but {n} "
                                           f"in input {k} (shape {shape}); a repeated index must match.")


def _einsum_vjp(k, g, ans, *inputs, terms, output):
    # Contract the upstream gradient with the other inputs back to input k's letters;
    # letters only input k has are summed in the forward pass, so they are broadcast back.
    others = [(t, x) for j, (t, x) in enumerate(zip(terms, inputs)) if j != k]
    available = set(output).union(*[t for t, _ in others])
    kept = "".join(c for c in terms[k] if c in available)
    spec = ",".join([output] + [t for t, _ in others]) + "->" + kept
    grad = apply(_EINSUM, (g, *[x for _, x in others]), {"terms": tuple(spec.split("->")[0].split(",")), "output": kept})
    if kept == terms[k]:
        return grad                     # no letter of input k was summed alone: nothing to broadcast back
    shape = tuple(n if c in available else 1 for c, n in zip(terms[k], inputs[k].shape))
    return broadcast_to(reshape(grad, shape), inputs[k].shape)


def _einsum_forward(xp, *xs, terms, output):
    if xp is np and len(xs) == 2 and _worth_a_matmul(xs):
        return _contract_pair(*xs, *terms, output)
    if hasattr(xp, "einsum"):
        return xp.einsum(",".join(terms) + "->" + output, *xs)
    # The standard has no einsum: line every input up on all the letters (length 1 where it lacks
    # one), multiply them together, and sum away the letters the output does not keep.
    letters = output + "".join(sorted(set("".join(terms)) - set(output)))
    product = None
    for term, x in zip(terms, xs):
        order = tuple(sorted(builtins.range(len(term)), key=lambda i: letters.index(term[i])))
        shape = tuple(x.shape[term.index(c)] if c in term else 1 for c in letters)
        aligned = xp.reshape(xp.permute_dims(x, order), shape)
        product = aligned if product is None else product * aligned
    return xp.sum(product, axis=tuple(builtins.range(len(output), len(letters))), dtype=product.dtype)


# The primitive sees distinct letters only: ``einsum`` has taken each input's diagonals first.
_EINSUM = Op("einsum", _einsum_forward, ForEachInput(_einsum_vjp), keep=(INPUTS,))


# Just an optimization: NumPy's einsum without ``optimize`` loops in C over every letter, with no
# BLAS.  Two inputs of floats are instead lined up as one batched ``matmul``: (batch, left, summed)
# @ (batch, summed, right).  Measured on notebook 09's attention (float32, 8×32×2×16), each of its
# einsums goes from 120–2000 µs to 11–23 µs; the transformer step of ``benchmarks/sequence.py``
# loses about 40 ms of 170.  Small contractions (under ~4k products) keep einsum: the plan costs ~1 µs.
def _worth_a_matmul(xs: tuple) -> bool:
    a, b = xs
    return a.dtype == b.dtype and a.dtype.kind in "fc" and a.dtype.itemsize >= 4 and a.size * b.size >= 4096


def _contract_pair(a: np.ndarray, b: np.ndarray, left: str, right: str, output: str) -> np.ndarray:
    """``einsum(f"{left},{right}->{output}", a, b)`` (distinct letters per term) as one batched ``matmul``."""
    alone_a, alone_b, order_a, order_b, shape_a, shape_b, shape, order = _pair_plan(left, right, output,
                                                                                    a.shape, b.shape)
    if alone_a:
        a = a.sum(alone_a)
    if alone_b:
        b = b.sum(alone_b)
    product = np.matmul(a.transpose(order_a).reshape(shape_a), b.transpose(order_b).reshape(shape_b))
    return product.reshape(shape).transpose(order)


@functools.lru_cache(maxsize=1024)
def _pair_plan(left: str, right: str, output: str, shape_left: tuple, shape_right: tuple) -> tuple:
    """How ``_contract_pair`` lines the inputs up: a letter is batch (in both and the output), left or right
    (in one and the output), summed (in both, not the output) or alone (in one only: summed first)."""
    sizes = {**dict(zip(left, shape_left)), **dict(zip(right, shape_right))}
    batch = [c for c in output if c in left and c in right]
    only_left = [c for c in output if c in left and c not in right]
    only_right = [c for c in output if c in right and c not in left]
    summed = [c for c in left if c in right and c not in output]
    alone_a = tuple(i for i, c in enumerate(left) if c not in right and c not in output)
    alone_b = tuple(i for i, c in enumerate(right) if c not in left and c not in output)
    kept_a = [c for c in left if c in right or c in output]
    kept_b = [c for c in right if c in left or c in output]

    def size(letters: list[str]) -> int:
        return int(np.prod([sizes[c] for c in letters], dtype=np.int64))

    middle = batch + only_left + only_right
    return (alone_a, alone_b, tuple(kept_a.index(c) for c in batch + only_left + summed),
            tuple(kept_b.index(c) for c in batch + summed + only_right),
            (size(batch), size(only_left), size(summed)), (size(batch), size(summed), size(only_right)),
            tuple(sizes[c] for c in middle), tuple(middle.index(c) for c in output))
