"""Comparisons and logic: elementwise ops whose outputs are booleans.

Each is one ``binary`` (or ``unary``) row with no
VJP: a boolean has no gradient, so these ops are never recorded.  ``==`` and
``!=`` take any dtype, the orderings take numbers, the logic ops booleans only,
as TensorFlow registers them.  ``is_nan``, ``is_inf`` and ``is_finite`` ask about floats only.

>>> import minitape as tf
>>> tf.less([1.0, 2.0], 2.0).numpy(), tf.math.logical_not([True]).numpy()
(array([ True, False]), array([False]))
"""
from __future__ import annotations

from minitape.ops.arguments import ANY, BOOLS, FLOATS
from minitape.ops.elementwise import binary, unary

equal = binary("equal", lambda xp, x, y: xp.equal(x, y), None, None, accepts=ANY, doc="""
    Elementwise ``x == y``.

    >>> tf.equal([1.0, 2.0], 2.0).numpy()
    array([False,  True])
    """)
not_equal = binary("not_equal", lambda xp, x, y: xp.not_equal(x, y), None, None, accepts=ANY, doc="""
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
