"""``tf.math``: the elementwise and reduction ops under their TensorFlow names.

>>> import minitape as tf
>>> tf.math.log1p(0.0).numpy()
np.float32(0.0)
"""
from minitape.ops import (  # noqa: F401
    abs, add, add_n, argmax, argmin, cos, cumsum, divide, equal, erf, exp, floordiv, greater, greater_equal, is_finite, is_inf, is_nan, less, less_equal, log, log1p,
    logical_and, logical_not, logical_or, maximum, minimum, mod, multiply, negative, not_equal, pow,
    reduce_max, reduce_mean, reduce_min, reduce_prod, reduce_sum, sigmoid, sign, sin, softplus, sqrt,
    square, subtract, tanh,
)
from minitape.ops import floordiv as floor_div  # noqa: F401
from minitape.ops import mod as floormod  # noqa: F401
from minitape.ops import divide as truediv  # noqa: F401
from minitape.ops import cumprod, round, segment_sum, top_k, unsorted_segment_sum  # noqa: F401, A004
from minitape.ops import logical_xor  # noqa: F401
