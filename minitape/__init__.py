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

The packages, each importing only those before it.  The **kernel**, the autodiff a
student reads: ``minitape.core`` (values, ``Op`` and ``apply``), [`minitape.ops`][minitape.ops]
(the op table), ``minitape.autodiff`` (the tape and the backward pass) and
``minitape.checkpointing`` (``recompute_grad``).  Around it: ``minitape.dialect``
(TensorFlow's namespaces and objects), ``minitape.course`` (gradient checks and
exercise checkers), ``minitape.viz`` (pictures) and ``minitape.keras``.  This
module only gathers their public names.
"""
from minitape.core import allocator, backends, dtypes, errors, events, nest, random
allocator.keep_freed_memory()   # a fast path: arrays reuse freed memory (see minitape/core/allocator.py)
from minitape.core.scopes import name_scope
from minitape.core.backends import device
from minitape.core.dtypes import (  # noqa: A004
    DType, as_dtype, bool_ as bool, double, float16, float32, float64, half, int8, int16, int32, int64, uint8, uint16,
)
from minitape.core.dtypes import string
from minitape.core.tensor_shape import TensorShape
from minitape.core.tensor import Tensor, Variable, constant, convert_to_tensor
from minitape import ops
from minitape.ops.variable_scatter import IndexedSlices
from minitape.ops import (
    gather_nd, meshgrid, repeat, reverse, roll, scatter_nd, sequence_mask, split, tensor_scatter_nd_add,
    tensor_scatter_nd_sub, tensor_scatter_nd_update, unstack,
)
from minitape.ops import (
    abs, add, add_n, argmax, argmin, boolean_mask, broadcast_to, cast, clip_by_global_norm, clip_by_norm,
    clip_by_value, concat, cos, cumsum, divide, einsum, equal, exp, expand_dims, eye, fill, gather, greater,
    greater_equal, identity, less, less_equal, linspace, log, matmul, maximum, minimum, multiply, negative, norm,
    not_equal, one_hot, ones, ones_like, pad, pow, range, rank, reduce_max, reduce_mean, reduce_min, reduce_prod,
    reduce_sum, reshape, shape, sigmoid, sign, sin, size, sqrt, square, squeeze, stack, stop_gradient, subtract,
    tanh, tensordot, tile, to_device, transpose, where, zeros, zeros_like,
)
from minitape.ops import argsort, round, sort  # noqa: A004
#: ``x[tf.newaxis]`` adds an axis of size 1, as NumPy's ``None`` does (it is ``None``).
newaxis = None
#: ``tf.dtypes`` holds the dtypes under TensorFlow's names, and ``cast``: the one op it names is attached
#: here, from above, since the core never imports the op table; ``bool`` too, which inside the module
#: would hide Python's own.
dtypes.cast = cast
dtypes.bool = bool
from minitape import autodiff
from minitape.autodiff.requests import UnconnectedGradients
from minitape.autodiff.tape import GradientTape
from minitape import checkpointing
from minitape.checkpointing.custom import custom_gradient, grad_pass_through
from minitape.checkpointing.recompute import RecomputeMismatchError, recompute_grad
from minitape.checkpointing.schedules import checkpoint_chain, checkpoint_sequential
from minitape.checkpointing import schedules
from minitape import dialect
from minitape.dialect import config, linalg, math, nn
from minitape.dialect import data
from minitape.dialect import image
from minitape.dialect import bitwise
from minitape.ops import logical_and, logical_not, logical_or
from minitape.dialect.functions import TensorSpec, function
from minitape.dialect.control_flow import while_loop
from minitape.dialect.control_flow import cond, map_fn, scan, vectorized_map
from minitape.dialect.module import Module
from minitape.dialect import train
from minitape.dialect.init_ops import (
    constant_initializer, ones_initializer, random_normal_initializer, random_uniform_initializer, zeros_initializer,
)
from minitape.dialect.printing import print  # noqa: A004
from minitape.dialect.printing import get_logger
from minitape import course, viz
from minitape import keras
from minitape.keras import initializers     # as in TF 2.21, tf.initializers is Keras'
from minitape.keras import optimizers       # as in TF 2.21, tf.optimizers is Keras'

__version__ = "0.1.0"
