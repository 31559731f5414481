"""Linear algebra: matrix products, and Einstein summation.

The derivative of a product with respect to one factor is a product with the
other: ``d(A @ B)/dA`` applied to ``g`` is ``g @ Bᵀ``.  Both VJPs are matmuls, so
second derivatives come for free.

>>> import minitape as tf
>>> tf.matmul([[1.0, 2.0]], [[3.0], [4.0]]).numpy()
array([[11.]], dtype=float32)
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
from minitape.ops.arguments import MATRIX, operands, pair
from minitape.ops.broadcasting import broadcast_to, unbroadcasting
from minitape.ops.shapes import reshape


def _matmul_forward(xp, a, b, transpose_a=False, transpose_b=False):
    if transpose_a:
        a = a.mT                    # the standard's matrix transpose: a view, not a copy
    if transpose_b:
        b = b.mT
    return xp.matmul(a, b)


def _matmul_vjp_a(g, ans, a, b, transpose_a=False, transpose_b=False):
    if transpose_a:
        return _product(b, g, transpose_a=transpose_b, transpose_b=True)
    return _product(g, b, transpose_b=not transpose_b)


def _matmul_vjp_b(g, ans, a, b, transpose_a=False, transpose_b=False):
    if transpose_b:
        return _product(g, a, transpose_a=True, transpose_b=transpose_a)
    return _product(a, g, transpose_a=not transpose_a)


# Leading (batch) axes broadcast, so each VJP is summed back to its factor's shape.
_MATMUL = Op("matmul", _matmul_forward, (unbroadcasting(_matmul_vjp_a, 0), unbroadcasting(_matmul_vjp_b, 1)),
             keep=(0, 1))


def matmul(a: Any, b: Any, transpose_a: bool = False, transpose_b: bool = False, name: str | None = None) -> Tensor:
    """Matrix product of the last two axes (leading axes broadcast as batch axes).

    >>> tf.matmul([[1.0, 2.0]], [[3.0], [4.0]]).numpy()
    array([[11.]], dtype=float32)
    """
    if type(transpose_a) is not bool or type(transpose_b) is not bool:
        for flag, value in (("transpose_a", transpose_a), ("transpose_b", transpose_b)):
            if not isinstance(value, bool | np.bool_):
                raise TypeError(f"matmul: expected bool for argument '{flag}', got {value!r}.")
    a, b = pair("matmul", a, b)
    MATRIX.check("matmul", a)
    shape_a, shape_b = a._value.shape, b._value.shape
    for k, shape in enumerate((shape_a, shape_b)):
        if len(shape) < 2:
            raise InvalidArgumentError(f"matmul: input {k} must have rank >= 2, got shape {tuple(shape)}; "
                                       f"use tf.reshape or tf.expand_dims to make it a matrix.")
    inner_a = shape_a[-2] if transpose_a else shape_a[-1]
    inner_b = shape_b[-1] if transpose_b else shape_b[-2]
    if inner_a != inner_b:
        raise InvalidArgumentError(f"matmul: shapes {tuple(shape_a)} and {tuple(shape_b)} do not match "
                                   f"(inner dimensions {inner_a} vs {inner_b}).")
    try:
        return _product(a, b, transpose_a, transpose_b)
    except ValueError:                      # NumPy's "could not be broadcast": the leading (batch) axes
        if shape_a[:-2] and shape_b[:-2]:
            raise InvalidArgumentError(f"matmul: the batch dimensions of shapes {tuple(shape_a)} and "
                                       f"{tuple(shape_b)} do not broadcast; all but the last two axes must be "
                                       f"equal or 1.") from None
        raise


def _product(a: Tensor, b: Tensor, transpose_a: bool = False, transpose_b: bool = False) -> Tensor:
    """The matmul primitive on tensors known to fit: what ``matmul`` runs once it has checked, and VJPs run."""
    return apply(_MATMUL, (a, b), {"transpose_a": transpose_a, "transpose_b": transpose_b})


def einsum(equation: str, *inputs: Any, name: str | None = None) -> Tensor:
    """Einstein summation in explicit-output form, e.g. ``"ij,jk->ik"``.

    >>> tf.einsum("ij,j->i", [[1.0, 2.0]], [3.0, 4.0]).numpy()
    array([11.], dtype=float32)
    """
    tensors = operands("einsum", *inputs)
    MATRIX.check("einsum", tensors[0])
    terms, output = _parse_einsum(equation, tensors)
    return apply(_EINSUM, tensors, {"terms": terms, "output": output})


def _parse_einsum(equation: str, tensors: Sequence[Tensor]) -> tuple[tuple[str, ...], str]:
    if not isinstance(equation, str):
        raise TypeError(f"einsum: equation must be a string such as 'ij,jk->ik', got {equation!r}.")
    equation = equation.replace(" ", "")
    if "->" not in equation or "." in equation:
        raise ValueError(f"einsum: minitape needs the explicit-output form without '...', e.g. 'ij,jk->ik'; "
                         f"got {equation!r}.")
    left, output = equation.split("->")
    terms = tuple(left.split(","))
    if len(terms) != len(tensors):
        raise ValueError(f"einsum: {equation!r} names {len(terms)} inputs but {len(tensors)} were given.")
    for term, t in zip(terms, tensors):
        if len(term) != t.ndim or len(set(term)) != len(term) or not set(term) <= set(string.ascii_letters):
            raise ValueError(f"einsum: term {term!r} does not fit an input of shape {tuple(t.shape)} "
                             f"(one distinct letter per axis).")
    sizes: dict[str, int] = {}
    for k, (term, t) in enumerate(zip(terms, tensors)):
        for letter, n in zip(term, t.shape):
            if sizes.setdefault(letter, n) != n:
                raise InvalidArgumentError(f"einsum: index {letter!r} has size {sizes[letter]} in one input but {n} "
                                           f"in input {k} (shape {tuple(t.shape)}); a repeated index must match.")
    return terms, output


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
    return xp.sum(product, axis=tuple(builtins.range(len(output), len(letters))))


_EINSUM = Op("einsum", _einsum_forward, ForEachInput(_einsum_vjp), keep=(INPUTS,))