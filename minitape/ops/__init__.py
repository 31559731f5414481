"""The op table, by family: every primitive's forward rule beside its derivative.

Each family is a module, and each module builds only on those before it:

* ``arguments``: how user values become tensors, shapes and axes;
* ``creation``: zeros, ones, ranges, ``to_device``;
* ``shapes``: reshape, transpose, squeeze, expand_dims; a tensor's shape, size and rank as tensors;
* ``broadcasting``: ``broadcast_to`` and ``reduce_sum``, each the other's derivative; tile;
* ``elementwise``: the arithmetic and math functions, ``where``, ``cast``;
* ``comparisons``: ``==``, ``<``... and the logic ops, booleans out (no gradient); the bitwise ops;
* ``reductions``: sum, mean, max, min, prod; argmax and argmin; add_n; cumsum and cumprod;
* ``segments``: segment sums (rows summed by id); ``sorting``: top_k, sort, argsort; ``rounding``: round;
* ``indexing``: slicing, gather, one_hot, concat and stack;
* ``splitting``: split, unstack, reverse, roll, repeat, meshgrid;
* ``scatter``: gather_nd, scatter_nd, tensor_scatter_nd_update/add/sub;
* ``masking``: sequence_mask and band_part;
* ``nn``: softmax, log-softmax, the cross-entropies, dropout;
* ``activations``: relu, elu, selu, leaky_relu, relu6, gelu (and erf);
* ``linalg``: matmul, tensordot, a matrix's transpose and diagonal, trace;
* ``einsum``: Einstein summation, diagonals included;
* ``attention``: dot-product attention, every head at once, as one primitive;
* ``dense``: a dense layer's ``x · kernel + bias`` as one primitive;
* ``inverses``: solve, inv, det;
* ``norms``: norm, clip_by_norm, clip_by_global_norm;
* ``windows``, ``convolution``, ``pooling``: images (NHWC); ``im2col``, convolution's fast path on NumPy;
* ``transposed_convolution``: ``conv2d_transpose``, a convolution's input gradient as an op of its own;
* ``normalization``: moments and batch normalization;
* ``recurrent``: the LSTM cell's arithmetic as one primitive (TF's ``LSTMBlockCell``);
* ``operators``: Python's ``+ - * / @ [] == & | ^ ~`` on tensors.

The machinery they share ([`Op`][minitape.core.primitive.Op], [`apply`][minitape.core.primitive.apply],
[`Discarded`][minitape.core.primitive.Discarded]) is in [`minitape.core.primitive`][minitape.core.primitive].

>>> import minitape as tf
>>> tf.ops.tanh.op
Op('tanh', keep=('ans',))
"""
from minitape.core.primitive import ANS, INPUTS, Discarded, Op, OpEntry, apply  # noqa: F401
from minitape.ops.arguments import as_operand, operands, pair  # noqa: F401
from minitape.ops.activations import elu, erf, gelu, leaky_relu, relu, relu6, selu  # noqa: F401
from minitape.ops.broadcasting import broadcast_to, tile, unbroadcast  # noqa: F401
from minitape.ops.creation import (  # noqa: F401
    eye, fill, linspace, ones, ones_like, range, to_device, zeros, zeros_like,
)
from minitape.ops.convolution import conv2d  # noqa: F401
from minitape.ops.transposed_convolution import conv2d_transpose  # noqa: F401
from minitape.ops.elementwise import (  # noqa: F401
    abs, add, cast, clip_by_value, cos, divide, exp, floordiv, identity, log, log1p, maximum, minimum, mod,
    multiply, negative, pow, sigmoid, sign, sin, softplus, sqrt, square, stop_gradient, subtract, tanh, where,
)
from minitape.ops.comparisons import (  # noqa: F401
    bitwise_and, bitwise_or, bitwise_xor, equal, greater, greater_equal, invert, is_finite, is_inf, is_nan, less,
    less_equal, logical_and, logical_not, logical_or, logical_xor, not_equal,
)
from minitape.ops.indexing import boolean_mask, concat, gather, getitem, one_hot, stack  # noqa: F401
from minitape.ops.einsum import einsum  # noqa: F401
from minitape.ops.attention import dot_product_attention  # noqa: F401
from minitape.ops.dense import dense  # noqa: F401
from minitape.ops.inverses import det, inv, solve  # noqa: F401
from minitape.ops.linalg import diag, diag_part, matmul, matrix_transpose, matvec, tensordot, trace  # noqa: F401
from minitape.ops.norms import clip_by_global_norm, clip_by_norm, global_norm, norm  # noqa: F401
from minitape.ops.nn import (  # noqa: F401
    dropout, log_softmax, softmax, softmax_cross_entropy_with_logits, sparse_softmax_cross_entropy,
    sparse_softmax_cross_entropy_with_logits,
)
from minitape.ops.normalization import batch_normalization, moments  # noqa: F401
from minitape.ops.normalization import layer_normalization  # noqa: F401
from minitape.ops.normalization import fused_batch_norm  # noqa: F401
from minitape.ops import operators  # noqa: F401  (attaches + - * / @ [] to tensors)
from minitape.ops.padding import pad  # noqa: F401
from minitape.ops.pooling import avg_pool2d, max_pool2d  # noqa: F401
from minitape.ops.reductions import (  # noqa: F401
    add_n, argmax, argmin, cumsum, reduce_max, reduce_mean, reduce_min, reduce_prod, reduce_sum,
)
from minitape.ops.rounding import round  # noqa: F401, A004
from minitape.ops.segments import segment_sum, unsorted_segment_sum  # noqa: F401
from minitape.ops.sorting import TopKV2, argsort, sort, top_k  # noqa: F401
from minitape.ops.reductions import cumprod  # noqa: F401
from minitape.ops.shapes import expand_dims, rank, reshape, shape, size, squeeze, transpose  # noqa: F401
from minitape.ops.masking import band_part, sequence_mask  # noqa: F401
from minitape.ops.scatter import (  # noqa: F401
    gather_nd, scatter_nd, tensor_scatter_nd_add, tensor_scatter_nd_sub, tensor_scatter_nd_update,
)
from minitape.ops.splitting import meshgrid, repeat, reverse, roll, split, unstack  # noqa: F401
from minitape.ops.recurrent import lstm_cell, lstm_sequence  # noqa: F401
from minitape.ops.gru import gru_sequence  # noqa: F401
from minitape.ops.simple_rnn import simple_rnn_sequence  # noqa: F401
from minitape.ops.comparisons import left_shift, right_shift  # noqa: F401
