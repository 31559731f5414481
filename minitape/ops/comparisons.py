"""Comparisons and logic: elementwise ops whose outputs are booleans.

Each is one ``binary`` (or ``unary``) row with no
VJP: a boolean has no gradient, so these ops are never recorded.  ``==`` and
``!=`` take any dtype, the orderings take numbers, the logic ops booleans only,
as TensorFlow registers them.  ``is_nan``, ``is_inf`` and ``is_finite`` ask about floats only.
The bitwise ops (``&``, ``|``, ``^``, ``~`` on integers) are here too: integers in, integers out.

>>> import minitape as tf
>>> tf.less([1.0, 2.0], 2.0).numpy(), tf.math.logical_not([True]).numpy()
(array([ True, False]), array([False]))
"""
from __future__ import annotations

from minitape.core import dtypes
from minitape.ops.arguments import BOOLS, FLOATS, Dtypes
from minitape.ops.elementwise import binary, unary

#: ``==`` and ``!=`` compare strings too (``tf.string``), as TF registers them.
_EQUATABLE = Dtypes(dtypes.EVERY, "", "")
equal = binary("equal", lambda xp, x, y: xp.equal(x, y), None, None, accepts=_EQUATABLE, doc="""
    Elementwise ``x == y``.

    >>> tf.equal([1.0, 2.0], 2.0).numpy()
    array([False,  True])
    """)
not_equal = binary("not_equal", lambda xp, x, y: xp.not_equal(x, y), None, None, accepts=_EQUATABLE,
                   doc="""
    Elementwise ``x != y``.

    >>> tf.not_equal([1.0, 2.0], 2.0).numpy()
    array([ True, False])
    """)
less = binary("less", lambda xp, x, y: xp.less(x, y), None, None, doc="""
    Elementwise ``x < y``.

    >>> tf.less([1.0, 2.0], 2.0).numpy()
    array([ True, False])
    """)
less_equal = binary("less_equal", lambda xp, x, y: xp.less_equal(x, y), None, None, doc="""
    Elementwise ``x <= y``.

    >>> tf.less_equal([1.0, 2.0], 2.0).numpy()
    array([ True,  True])
    """)
greater = binary("greater", lambda xp, x, y: xp.greater(x, y), None, None, doc="""
    Elementwise ``x > y``.

    >>> tf.greater([1.0, 2.0], 1.0).numpy()
    array([False,  True])
    """)
greater_equal = binary("greater_equal", lambda xp, x, y: xp.greater_equal(x, y), None, None, doc="""
    Elementwise ``x >= y``.

    >>> tf.greater_equal([1.0, 2.0], 2.0).numpy()
    array([False,  True])
    """)
logical_and = binary("logical_and", lambda xp, x, y: xp.logical_and(x, y), None, None, accepts=BOOLS, doc="""
    Elementwise ``x and y`` of booleans.

    >>> tf.math.logical_and([True, True], [True, False]).numpy()
    array([ True, False])
    """)
logical_or = binary("logical_or", lambda xp, x, y: xp.logical_or(x, y), None, None, accepts=BOOLS, doc="""
    Elementwise ``x or y`` of booleans.

    >>> tf.math.logical_or([False, True], [False, False]).numpy()
    array([False,  True])
    """)
logical_xor = binary("logical_xor", lambda xp, x, y: xp.logical_xor(x, y), None, None, accepts=BOOLS, doc="""
    Elementwise ``x != y`` of booleans: one or the other, not both (``x ^ y`` on boolean tensors).

    >>> (tf.constant([False, True, True]) ^ [False, False, True]).numpy()
    array([False,  True, False])
    """)
logical_not = unary("logical_not", lambda xp, x: xp.logical_not(x), None, accepts=BOOLS, doc="""
    Elementwise ``not x`` of booleans.

    >>> tf.math.logical_not([True]).numpy()
    array([False])
    """)
is_nan = unary("is_nan", lambda xp, x: xp.isnan(x), None, accepts=FLOATS, doc="""
    Elementwise: is ``x`` NaN (not a number)?

    >>> tf.math.is_nan([1.0, float("nan"), float("inf")]).numpy()
    array([False,  True, False])
    """)
is_inf = unary("is_inf", lambda xp, x: xp.isinf(x), None, accepts=FLOATS, doc="""
    Elementwise: is ``x`` infinite (``inf`` or ``-inf``)?

    >>> tf.math.is_inf([1.0, float("nan"), float("-inf")]).numpy()
    array([False, False,  True])
    """)
is_finite = unary("is_finite", lambda xp, x: xp.isfinite(x), None, accepts=FLOATS, doc="""
    Elementwise: is ``x`` neither infinite nor NaN?

    >>> tf.math.is_finite([1.0, float("nan"), float("inf")]).numpy()
    array([ True, False, False])
    """)

#: What TF's bitwise kernels (``BitwiseAnd``, ``Invert``...) are registered for.
INTEGERS = Dtypes((dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64, dtypes.uint8, dtypes.uint16),
                  "integers (int8/16/32/64 or uint8/16)",
                  "use tf.cast(x, tf.int32) first, or compare (x > 0) for a boolean mask.")
bitwise_and = binary("bitwise_and", lambda xp, x, y: xp.bitwise_and(x, y), None, None, accepts=INTEGERS, doc="""
    Elementwise ``x & y`` of integers, bit by bit (the ``&`` of integer tensors; on booleans ``&`` is logical_and).

    >>> (tf.constant([6, 3]) & [3, 5]).numpy()
    array([2, 1], dtype=int32)
    """)
bitwise_or = binary("bitwise_or", lambda xp, x, y: xp.bitwise_or(x, y), None, None, accepts=INTEGERS, doc="""
    Elementwise ``x | y`` of integers, bit by bit (the ``|`` of integer tensors).

    >>> (tf.constant([6, 3]) | [3, 5]).numpy()
    array([7, 7], dtype=int32)
    """)
bitwise_xor = binary("bitwise_xor", lambda xp, x, y: xp.bitwise_xor(x, y), None, None, accepts=INTEGERS, doc="""
    Elementwise ``x ^ y`` of integers, bit by bit (the ``^`` of integer tensors).

    >>> (tf.constant([6, 3]) ^ [3, 5]).numpy()
    array([5, 6], dtype=int32)
    """)
invert = unary("invert", lambda xp, x: xp.bitwise_invert(x), None, accepts=INTEGERS, doc="""
    Elementwise ``~x`` of integers: every bit flipped (``-x - 1`` for signed integers).

    >>> (~tf.constant([0, 5])).numpy()
    array([-1, -6], dtype=int32)
    """)


def _shifting(shift: str):
    """A shift's forward rule: ``y`` clamped to ``[0, bits - 1]`` first, as TF's kernel does (the C shift of a
    negative or too-wide amount is undefined)."""
    def forward(xp, x, y):
        return getattr(xp, shift)(x, xp.clip(y, 0, xp.iinfo(x.dtype).bits - 1))
    return forward


left_shift = binary("left_shift", _shifting("bitwise_left_shift"), None, None, accepts=INTEGERS, doc="""
    Elementwise ``x << y`` of integers: bits shifted out of the top are lost (wrapping, as TF's).

    ``y`` outside ``[0, bits - 1]`` is clamped into it, as TF's kernel does.

    >>> tf.bitwise.left_shift(tf.constant([1, 64], tf.int8), tf.constant([3, 2], tf.int8)).numpy()
    array([8, 0], dtype=int8)
    """)
right_shift = binary("right_shift", _shifting("bitwise_right_shift"), None, None, accepts=INTEGERS, doc="""
    Elementwise ``x >> y`` of integers; signed integers keep their sign (``-8 >> 1`` is ``-4``).

    ``y`` outside ``[0, bits - 1]`` is clamped into it, as TF's kernel does.

    >>> tf.bitwise.right_shift([-8, 8], [1, 2]).numpy()
    array([-4,  2], dtype=int32)
    """)
