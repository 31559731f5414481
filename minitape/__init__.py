"""minitape: reverse-mode autodiff you can read, speaking TensorFlow's eager dialect.

Programs written against TensorFlow's eager autodiff run unchanged with
``import minitape as tf``:

>>> import minitape as tf
>>> x = tf.constant(3.0)
>>> with tf.GradientTape() as tape:
...     tape.watch(x)
...     y = x * x
>>> tape.gradient(y, x)
<minitape.Tensor: shape=(), dtype=float32, numpy=6.0>

Where to read next: :mod:`minitape.tensor` (values), :mod:`minitape.ops` (the
op table: each forward beside its derivative), :mod:`minitape.tape` (recording
and the backward pass), :mod:`minitape.checkpoint` (``recompute_grad``).
"""
from minitape import backends, dtypes, errors, events, exercises, linalg, math, nest, nn, ops, random, schedules, viz
from minitape.dtypes import DType, as_dtype, bool_ as bool, float16, float32, float64, int32, int64  # noqa: A004
from minitape.ops import (
    abs, add, broadcast_to, cast, clip_by_value, concat, cos, divide, einsum, equal, exp, expand_dims,
    eye, fill, gather, greater, greater_equal, identity, less, less_equal, linspace, log, matmul,
    maximum, minimum, multiply, negative, not_equal, one_hot, ones, ones_like, pow, range, reduce_max, reduce_mean,
    reduce_min, reduce_prod, reduce_sum, reshape, sigmoid, sign, sin, sqrt, square, squeeze, stack,
    stop_gradient, subtract, tanh, tile, to_device, transpose, where, zeros, zeros_like,
)
from minitape.backends import device
from minitape.checkpoint import RecomputeMismatchError, custom_gradient, recompute_grad
from minitape.printing import print  # noqa: A004
from minitape.schedules import checkpoint_chain, checkpoint_sequential
from minitape.tape import GradientTape, UnconnectedGradients
from minitape.tensor import Tensor, TensorShape, Variable, constant, convert_to_tensor

from minitape import keras  # noqa: E402  (keras builds on everything above)

__version__ = "0.1.0"
