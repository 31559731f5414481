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
    terms, output = _parse_einsum(equation, tensors)
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


def _parse_einsum(equation: str, tensors: Sequence[Tensor]) -> tuple[tuple[str, ...], str]:
    if not isinstance(equation, str):
        raise TypeError(f"einsum: equation must be a string such as 'ij,jk->ik', got {equation!r}.")
    equation = equation.replace(" ", "")
    if "." in equation:
        raise ValueError(f"einsum: minitape does not take '...' (an ellipsis); name every axis with a letter, "
                         f"e.g. 'bij,bjk->bik'; got {equation!r}.")
    left, arrow, output = equation.partition("->")
    terms = tuple(left.split(","))
    if not arrow:                       # implicit form: the letters used exactly once, in alphabetical order
        output = "".join(sorted(c for c in set(left) - {","} if left.count(c) == 1))
    if len(terms) != len(tensors):
        raise ValueError(f"einsum: {equation!r} names {len(terms)} inputs but {len(tensors)} were given.")
    for term, t in zip(terms, tensors):
        if len(term) != t.ndim or not set(term) <= set(string.ascii_letters):
            raise ValueError(f"einsum: term {term!r} does not fit an input of shape {tuple(t.shape)} "
                             f"(one letter per axis).")
    for c in output:
        if output.count(c) > 1:
            raise ValueError(f"einsum: Output subscripts contain a label appearing more than once: {equation}; "
                             f"name each output axis once.")
        if c not in left:
            raise ValueError(f"einsum: Output subscripts contain the label {c} not present in the input "
                             f"subscripts of {equation!r}.")
    _check_sizes(terms, tensors)
    return terms, output


def _check_sizes(terms: Sequence[str], tensors: Sequence[Tensor]) -> None:
    """Every axis a letter names has one size, within an input (a diagonal) and across inputs."""
    sizes: dict[str, int] = {}
    for k, (term, t) in enumerate(zip(terms, tensors)):
        for letter, n in zip(term, t.shape):
            if sizes.setdefault(letter, n) != n:
                raise InvalidArgumentError(f"einsum: index {letter!r} has size {sizes[letter]} in one axis but {n} "
                                           f"in input {k} (shape {tuple(t.shape)}); a repeated index must match.")


def _einsum_vjp(k, g, ans, *inputs, terms, output):
    # Contract the upstream gradient with the other inputs back to input k's letters;
    # letters only input k has are summed in the forward pass, so they are broadcast back.
    others = [(t, x) for j, (t, x) in enumerate(zip(terms, inputs)) if j != k]
    available = set(output).union(*[t for t, _ in others])
    kept = "".join(c for c in terms[k] if c in available)
    spec = ",".join([output] + [t for t, _ in others]) + "->" + kept
    grad = apply(_EINSUM, (g, *[x for _, x in others]), {"terms": tuple(spec.split("->")[0].split(",")), "output": kept})
    shape = tuple(n if c in available else 1 for c, n in zip(terms[k], inputs[k].shape))
    return broadcast_to(reshape(grad, shape), inputs[k].shape)


def _einsum_forward(xp, *xs, terms, output):
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
