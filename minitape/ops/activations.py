"""Activations: relu, elu, selu, leaky_relu, relu6 and gelu, each beside its derivative.

As TensorFlow's kernels do, the piecewise ones are differentiated by a gradient op of their
own (``ReluGrad``, ``EluGrad``, ``SeluGrad``, ``LeakyReluGrad``, ``Relu6Grad``): the gradient is
routed by the sign of the output (or input), or, for relu and relu6, multiplied by its mask (so an
infinite upstream gradient where it is flat gives nan, as in TF).  Each gradient op has VJPs of
its own, so a second tape differentiates it again, and gets what TF gets: the exact second
derivative of elu and selu, and zeros (not None) for leaky_relu and relu6, whose pieces are
straight lines.  gelu is written with other ops; its derivatives come from theirs.

>>> import minitape as tf
>>> tf.nn.elu([-1.0, 2.0]).numpy()
array([-0.63212055,  2.        ], dtype=float32)
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from minitape.core import arrays, dtypes
from minitape.core.messages import with_hint
from minitape.core.primitive import ANS, Op, apply
from minitape.core.tensor import Tensor
from minitape.ops.arguments import NUMBERS, as_operand, needs_floating
from minitape.ops.creation import zeros_like
from minitape.ops.elementwise import cast, exp, gradient_op, tanh, unary, where
from minitape.ops.fast_path import run

#: selu's constants (Klambauer et al., 2017), as TF's kernel spells them.
SELU_SCALE = 1.0507009873554804934193349852946
SELU_ALPHA = 1.6732632423543772848170429916717


# relu's mask, as TF's ReluGrad: multiplied (an inf upstream where relu is flat gives nan, as in TF).
# Its derivative with respect to relu's output is zeros, not None: TF's second derivative of relu is 0.
_RELU_GRAD = gradient_op("relu_grad", lambda xp, y, g: g * xp.astype(y > 0, g.dtype),
                         lambda gg, y, g: zeros_like(y), keep=(0,))


def _relu(xp: Any, x: Any) -> Any:
    """``max(x, 0)``."""
    # Fast path (NumPy): NumPy 2.4's maximum runs a vector loop on two arrays, not on an array and a
    # number.  Against a row of zeros broadcast over the batch, relu of benchmarks/cnn_step.py's 2 MiB
    # of float32 takes 0.05 ms instead of 0.16, of 256x784 0.027 instead of 0.061 (medians of 300, 1
    # thread); below 4096 values making the row costs more than it saves.
    if type(x) is np.ndarray and x.ndim > 1 and x.size >= 4096:
        zeros = np.zeros(x.size // x.shape[0], x.dtype)
        return np.maximum(x.reshape(x.shape[0], -1), zeros).reshape(x.shape)
    return xp.maximum(x, 0)


relu = unary("relu", _relu, lambda g, ans, x: run(_RELU_GRAD, (ans, g)), keep=(ANS,), accepts=NUMBERS,
             argument="features", doc="""
    Elementwise ``max(x, 0)``; its derivative at 0 is 0, and its second derivative 0 (not None), as TF's.

    >>> tf.nn.relu([-1.0, 2.0]).numpy()
    array([0., 2.], dtype=float32)
    """)


def _where_negative(gg: Tensor, y: Tensor, g: Tensor) -> Tensor:
    # d/dy of g * (y + c) where y < 0 (elu's and selu's gradient): g there, and nothing elsewhere.
    return where(y < 0, gg * g, zeros_like(y))


_ELU_GRAD = gradient_op("elu_grad", lambda xp, y, g: xp.where(y < 0, g * (y + 1), g), _where_negative)
_SELU_GRAD = gradient_op(
    "selu_grad", lambda xp, y, g: xp.where(y < 0, g * (y + SELU_SCALE * SELU_ALPHA), g * SELU_SCALE), _where_negative)
_LEAKY_RELU_GRAD = gradient_op("leaky_relu_grad", lambda xp, x, g, alpha: xp.where(x > 0, g, g * alpha),
                               lambda gg, x, g, alpha: zeros_like(x))
_RELU6_GRAD = gradient_op("relu6_grad", lambda xp, y, g: g * xp.astype((y > 0) & (y < 6), g.dtype),   # TF multiplies
                          lambda gg, y, g: zeros_like(y))


def _elu(xp, x):
    return xp.where(x > 0, x, xp.expm1(xp.minimum(x, 0)))     # expm1 only where it is used: no overflow


elu = unary("elu", _elu, lambda g, ans, x: apply(_ELU_GRAD, (ans, g)), keep=(ANS,), argument="features", doc="""
    Exponential linear unit: ``x`` where ``x > 0``, else ``exp(x) - 1``.

    >>> tf.nn.elu([-1.0, 0.0, 2.0]).numpy()
    array([-0.63212055,  0.        ,  2.        ], dtype=float32)
    """)
selu = unary("selu", lambda xp, x: SELU_SCALE * xp.where(x > 0, x, SELU_ALPHA * xp.expm1(xp.minimum(x, 0))),
             lambda g, ans, x: apply(_SELU_GRAD, (ans, g)), keep=(ANS,), argument="features", doc="""
    Scaled exponential linear unit: ``scale * elu`` with ``alpha`` below 0 (``scale ≈ 1.0507``, ``alpha ≈ 1.6733``).

    >>> tf.nn.selu([-1.0, 1.0]).numpy()
    array([-1.1113307,  1.050701 ], dtype=float32)
    """)
relu6 = unary("relu6", lambda xp, x: xp.minimum(xp.maximum(x, 0), 6), lambda g, ans, x: apply(_RELU6_GRAD, (ans, g)),
              keep=(ANS,), accepts=NUMBERS, argument="features", doc="""
    ``min(max(x, 0), 6)``; its gradient is 1 strictly between 0 and 6, and its second derivative 0 (as TF's).

    >>> tf.nn.relu6([-1.0, 3.0, 8.0]).numpy()
    array([0., 3., 6.], dtype=float32)
    """)


def _leaky_relu_forward(xp, x, alpha):
    return xp.where(x > 0, x, x * alpha)


_LEAKY_RELU = Op("leaky_relu", _leaky_relu_forward,
                 (lambda g, ans, x, alpha: apply(_LEAKY_RELU_GRAD, (x, g), {"alpha": alpha}),), keep=(0,))


def leaky_relu(features: Any, alpha: float = 0.2, name: str | None = None) -> Tensor:
    """``x`` where ``x > 0``, else ``alpha * x``.  Integers are computed as float32, as TF does.

    >>> tf.nn.leaky_relu([-1.0, 2.0]).numpy()
    array([-0.2,  2. ], dtype=float32)
    """
    x = as_operand(features, "leaky_relu")
    if x.dtype.is_integer:
        x = cast(x, dtypes.float32)
    needs_floating("leaky_relu", x)
    if isinstance(alpha, bool) or not isinstance(alpha, int | float):
        raise with_hint(TypeError(f"Expected float for argument 'alpha' not {alpha!r}."),
                        "leaky_relu: alpha is the slope below 0, one Python number such as 0.2.")
    return apply(_LEAKY_RELU, (x,), {"alpha": float(alpha)})


def gelu(features: Any, approximate: bool = False, name: str | None = None) -> Tensor:
    """Gaussian error linear unit ``x * Φ(x)``; ``approximate`` uses TF's tanh formula.

    Written with other ops (as TF writes it), so its derivatives of every order come from theirs.

    >>> tf.nn.gelu([-1.0, 1.0]).numpy()
    array([-0.15865526,  0.8413447 ], dtype=float32)
    """
    x = as_operand(features, "gelu")
    if not x.dtype.is_floating:
        raise with_hint(ValueError(f"`features.dtype` must be a floating point tensor.Received:features.dtype="
                                   f"<dtype: '{x.dtype.name}'>"), "gelu: use tf.cast(x, tf.float32) first.")
    if approximate:
        inner = math.sqrt(2 / math.pi) * (x + 0.044715 * x * x * x)
        return 0.5 * x * (1.0 + tanh(inner))
    return 0.5 * x * (1.0 + erf(x * (1 / math.sqrt(2))))


def _erf_forward(xp, x):
    # Neither NumPy nor the array standard has erf: math.erf per value, on the host, back in x's dtype and place.
    host = arrays.to_numpy(x)
    return arrays.asarray_beside(x, np.asarray(np.frompyfunc(math.erf, 1, 1)(host), dtype=host.dtype))


erf = unary("erf", _erf_forward, lambda g, ans, x: g * (2 / math.sqrt(math.pi)) * exp(-(x * x)), keep=(0,), doc="""
    The error function ``2/√π ∫₀ˣ exp(-t²) dt``.

    >>> tf.math.erf([0.0, 1.0]).numpy()
    array([0.       , 0.8427008], dtype=float32)
    """)
