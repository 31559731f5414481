"""``keras.ops``: Keras 3's NumPy-like op namespace, each a minitape op the tape records.

Code written against Keras 3 (Deep Learning with Python, 3rd edition, uses it throughout) runs
unchanged: NumPy's names and signatures (``ops.mean(x, axis, keepdims)``, ``ops.split`` at
split points), Keras 3's dtypes ([`promotion`][minitape.keras.ops.promotion]) and its answers
(``ops.shape`` a tuple, ``ops.convert_to_numpy`` a NumPy array).

>>> from minitape import keras
>>> x = keras.ops.array([[1.0, 2.0], [3.0, 4.0]])
>>> with tf.GradientTape() as tape:
...     tape.watch(x)
...     y = keras.ops.sum(keras.ops.square(x - keras.ops.mean(x, axis=0, keepdims=True)))
>>> keras.ops.convert_to_numpy(tape.gradient(y, x))
array([[-2., -2.],
       [ 2.,  2.]], dtype=float32)
"""
from minitape.keras.ops import linalg
from minitape.keras.ops.arrays import (
    arange, array, broadcast_to, concatenate, expand_dims, eye, flip, full, full_like, identity, linspace, ones,
    ones_like, pad, ravel, repeat, reshape, split, squeeze, stack, tile, transpose, zeros, zeros_like,
)
from minitape.keras.ops.core import (
    cast, cond, convert_to_numpy, convert_to_tensor, dtype, fori_loop, is_tensor, map, ndim, scan, shape, size, slice,
    stop_gradient, vectorized_map, while_loop,
)
from minitape.keras.ops.indexing import (
    argsort, clip, diag, dot, einsum, matmul, outer, sort, take, take_along_axis, tensordot, top_k, trace, where,
)
from minitape.keras.ops.nn import (
    binary_crossentropy, categorical_crossentropy, elu, gelu, leaky_relu, log_softmax, normalize, one_hot, relu, relu6,
    selu, sigmoid, silu, softmax, softplus, sparse_categorical_crossentropy, swish,
)
from minitape.keras.ops.numpy import (
    abs, absolute, add, arccos, arcsin, arctan, ceil, cos, cosh, divide, divide_no_nan, equal, exp, floor,
    floor_divide, greater, greater_equal, isfinite, isnan, less, less_equal, log, log1p, logical_and, logical_not,
    logical_or, maximum, minimum, mod, multiply, negative, not_equal, power, round, sign, sin, sinh, sqrt, square,
    subtract, tan, tanh, true_divide,
)
from minitape.keras.ops.reductions import (
    all, any, argmax, argmin, count_nonzero, cumprod, cumsum, max, mean, min, prod, std, sum, var,
)
from minitape.keras.ops.linalg import det, inv, norm, solve
from minitape.keras.ops.layout import (
    append, average, copy, diagonal, expm1, hstack, log2, log10, logaddexp, logsumexp, meshgrid, moveaxis,
    reciprocal, swapaxes, tri, tril, triu, vstack,
)

__all__ = [name for name in dir() if not name.startswith("_") and name not in (
    "arrays", "core", "indexing", "layout", "nn", "numpy", "promotion", "reductions", "trig")]
