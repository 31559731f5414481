"""The inverse and hyperbolic trigonometric functions Keras 3's ``keras.ops`` names and the op table lacks.

Each is a row like those of [`minitape.ops.elementwise`][minitape.ops.elementwise]: a forward rule
over the array namespace beside its derivative, written with minitape's own ops.

>>> from minitape.keras.ops.trig import arccos
>>> x = tf.constant(0.0)
>>> with tf.GradientTape() as tape:
...     tape.watch(x)
...     y = arccos(x)
>>> float(y), float(tape.gradient(y, x))            # d/dx arccos x = -1 / sqrt(1 - x**2)
(1.5707963705062866, -1.0)
"""
from __future__ import annotations

from minitape.ops import cos, sqrt, square
from minitape.ops.elementwise import unary

arccos = unary("arccos", lambda xp, x: xp.acos(x), lambda g, ans, x: -g / sqrt(1 - square(x)), keep=(0,), doc="""
    Elementwise inverse cosine, in radians.

    >>> from minitape.keras.ops.trig import arccos
    >>> arccos([1.0, -1.0]).numpy()
    array([0.       , 3.1415927], dtype=float32)
    """)
arcsin = unary("arcsin", lambda xp, x: xp.asin(x), lambda g, ans, x: g / sqrt(1 - square(x)), keep=(0,), doc="""
    Elementwise inverse sine, in radians.

    >>> from minitape.keras.ops.trig import arcsin
    >>> arcsin([0.0]).numpy()
    array([0.], dtype=float32)
    """)
arctan = unary("arctan", lambda xp, x: xp.atan(x), lambda g, ans, x: g / (1 + square(x)), keep=(0,), doc="""
    Elementwise inverse tangent, in radians.

    >>> from minitape.keras.ops.trig import arctan
    >>> arctan([1.0]).numpy()
    array([0.7853982], dtype=float32)
    """)
tan = unary("tan", lambda xp, x: xp.tan(x), lambda g, ans, x: g / square(cos(x)), keep=(0,), doc="""
    Elementwise tangent.

    >>> from minitape.keras.ops.trig import tan
    >>> tan([0.0]).numpy()
    array([0.], dtype=float32)
    """)
sinh = unary("sinh", lambda xp, x: xp.sinh(x), lambda g, ans, x: g * cosh(x), keep=(0,), doc="""
    Elementwise hyperbolic sine.

    >>> from minitape.keras.ops.trig import sinh
    >>> sinh([0.0]).numpy()
    array([0.], dtype=float32)
    """)
cosh = unary("cosh", lambda xp, x: xp.cosh(x), lambda g, ans, x: g * sinh(x), keep=(0,), doc="""
    Elementwise hyperbolic cosine.

    >>> from minitape.keras.ops.trig import cosh
    >>> cosh([0.0]).numpy()
    array([1.], dtype=float32)
    """)
