"""Rounding: ``round``, to the nearest integer, halves to the even one (banker's rounding), as TF.

Its derivative is zero wherever it exists; TF declares it has none, so ``round`` is a row
without a VJP and a gradient through it is ``None``.

>>> import minitape as tf
>>> tf.round([0.5, 1.5, 2.5, -1.5]).numpy()
array([ 0.,  2.,  2., -2.], dtype=float32)
"""
from __future__ import annotations

from minitape.ops.arguments import NUMBERS
from minitape.ops.elementwise import unary

round = unary("round", lambda xp, x: xp.round(x), None, accepts=NUMBERS, doc="""
    Elementwise rounding to the nearest integer, halves to the even one; integers come back as they are.
    Not differentiable (a gradient through it is None, as in TF).

    >>> tf.round([2.5, 3.5, -0.4]).numpy()
    array([ 2.,  4., -0.], dtype=float32)
    """)
