"""The op table, by family: every primitive's forward rule beside its derivative.

Each family is a module, and each module builds only on those before it:

* :mod:`~minitape.ops.arguments`: how user values become tensors, shapes and axes;
* :mod:`~minitape.ops.creation`: zeros, ones, ranges, ``to_device``;
* :mod:`~minitape.ops.shapes`: reshape, transpose, squeeze, expand_dims;
* :mod:`~minitape.ops.broadcasting`: ``broadcast_to`` and ``reduce_sum``, each the other's derivative; tile;
* :mod:`~minitape.ops.elementwise`: the arithmetic and math functions, ``where``, ``cast``;
* :mod:`~minitape.ops.comparisons`: ``==``, ``<``... and the logic ops, booleans out (no gradient);
* :mod:`~minitape.ops.reductions`: sum, mean, max, min, prod;
* :mod:`~minitape.ops.indexing`: slicing, gather, one_hot, concat and stack;
* :mod:`~minitape.ops.nn`: softmax, log-softmax, fused cross-entropy;
* :mod:`~minitape.ops.linalg`: matmul and einsum;
* :mod:`~minitape.ops.windows`, :mod:`~minitape.ops.convolution`, :mod:`~minitape.ops.pooling`: images (NHWC);
* :mod:`~minitape.ops.normalization`: moments and batch normalization;
* :mod:`~minitape.ops.operators`: Python's ``+ - * / @ []`` on tensors.

The machinery they share (:class:`Op`, :func:`apply`, :class:`Discarded`) is in
:mod:`minitape.core.primitive`.

>>> import minitape as tf
>>> tf.ops.tanh.op
Op('tanh', keep=('ans',))
"""
from minitape.core.primitive import ANS, INPUTS, Discarded, Op, OpEntry, apply  # noqa: F401
from minitape.ops.arguments import as_operand, operands, pair  # noqa: F401
from minitape.ops.broadcasting import broadcast_to, tile, unbroadcast  # noqa: F401
from minitape.ops.creation import (  # noqa: F401
    eye, fill, linspace, ones, ones_like, range, to_device, zeros, zeros_like,
)
from minitape.ops.convolution import conv2d  # noqa: F401
from minitape.ops.elementwise import (  # noqa: F401
    abs, add, cast, clip_by_value, cos, divide, exp, floordiv, identity, log, log1p, maximum, minimum, mod,
    multiply, negative, pow, relu, sigmoid, sign, sin, softplus, sqrt, square, stop_gradient, subtract, tanh, where,
)
from minitape.ops.comparisons import (  # noqa: F401
    equal, greater, greater_equal, less, less_equal, logical_and, logical_not, logical_or, not_equal,
)
from minitape.ops.indexing import concat, gather, getitem, one_hot, stack  # noqa: F401
from minitape.ops.linalg import einsum, matmul  # noqa: F401
from minitape.ops.nn import log_softmax, softmax, sparse_softmax_cross_entropy  # noqa: F401
from minitape.ops.normalization import batch_normalization, moments  # noqa: F401
from minitape.ops import operators  # noqa: F401  (attaches + - * / @ [] to tensors)
from minitape.ops.pooling import avg_pool2d, max_pool2d  # noqa: F401
from minitape.ops.reductions import reduce_max, reduce_mean, reduce_min, reduce_prod, reduce_sum  # noqa: F401
from minitape.ops.shapes import expand_dims, reshape, squeeze, transpose  # noqa: F401
