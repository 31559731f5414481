"""A whole GRU as one primitive: ``gru_sequence``, as ``lstm_sequence`` is for the LSTM.

Keras 3's GRU (``reset_after=True``, its default) computes at each step, from the step's input
through the kernel ``x_t`` and the previous output ``h``::

    inner = h @ recurrent_kernel + recurrent_bias
    z, r = sigmoid(x_t[:, :2n] + inner[:, :2n])                  (update and reset gates)
    candidate = tanh(x_t[:, 2n:] + r * inner[:, 2n:])
    h = z * h + (1 - z) * candidate

Step by step, ``GRUCell`` records a dozen ops a step; ``gru_sequence`` records one entry for the
sequence.  Its VJPs run backpropagation through time: in NumPy when no tape records the backward
pass, and with minitape's ops otherwise, so that a second tape differentiates them.

>>> import minitape as tf
>>> x = tf.constant([[[-100.0, 0.0, 1.0]] * 2])     # 2 steps, 1 unit: the update gate shut, h = candidate
>>> tf.ops.gru_sequence(x, tf.zeros((1, 3)), tf.zeros((3,)), tf.zeros((1, 1)))[0, :, 0].numpy()
array([0.7615942, 0.7615942], dtype=float32)
"""
from __future__ import annotations

from typing import Any

import numpy as np

from minitape.core.primitive import ANS, Op, apply
from minitape.core.tensor import Tensor
from minitape.ops.arguments import operands
from minitape.ops.elementwise import sigmoid, tanh
from minitape.ops.indexing import concat, stack
from minitape.ops.linalg import matmul
from minitape.ops.recurrent import check_sequence, check_shape, sequence_vjps
from minitape.ops.reductions import add_n, reduce_sum


def gru_sequence(projected: Any, recurrent_kernel: Any, recurrent_bias: Any, h: Any) -> Tensor:
    """Every step's output ``h_t`` of a GRU (``reset_after=True``), shape ``(batch, time, units)``.

    ``projected[:, t]`` is step ``t``'s input through the kernel, its bias added (``x_t @ kernel +
    input_bias``); ``h`` the output before the first step.  The same floats as ``GRUCell`` step by step.

    >>> import minitape as tf
    >>> x = tf.zeros((2, 5, 12))
    >>> tf.ops.gru_sequence(x, tf.zeros((4, 12)), tf.zeros((12,)), tf.ones((2, 4)))[:, -1, 0].numpy()
    array([0.03125, 0.03125], dtype=float32)
    """
    projected, recurrent_kernel, recurrent_bias, h = operands(
        "gru_sequence", projected, recurrent_kernel, recurrent_bias, h)
    check_sequence("gru_sequence", projected, recurrent_kernel, 3, {"h": h})
    units = recurrent_kernel.shape[0]
    check_shape("gru_sequence", "recurrent_bias", recurrent_bias, (3 * units,), "3·units")
    return apply(_GRU_SEQUENCE, (projected, recurrent_kernel, recurrent_bias, h))


def _forward(xp, projected, kernel, bias, h):
    n, outputs = kernel.shape[0], []
    for t in range(projected.shape[1]):
        x, inner = projected[:, t, :], xp.matmul(h, kernel) + bias
        gates = 1 / (1 + xp.exp(-(x[:, :2 * n] + inner[:, :2 * n])))
        z, r = gates[:, :n], gates[:, n:]
        h = z * h + (1 - z) * xp.tanh(x[:, 2 * n:] + r * inner[:, 2 * n:])     # the order GRUCell runs
        outputs.append(h)
    return xp.stack(outputs, axis=1)


def _through_time(g: Tensor, projected: Tensor, kernel: Tensor, bias: Tensor, h: Tensor,
                  outputs: Tensor) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """The gradients of ``projected``, the kernel, the bias and ``h`` given ``g``, with minitape's ops.

    The steps backwards, each one worked out again from ``h_{t-1}``: the update gate ``z`` sends
    ``g_h · (h_{t-1} - candidate)`` to its pre-activation and ``g_h · z`` straight to ``h_{t-1}``,
    the candidate ``g_h · (1 - z)`` to its own, and the reset gate what the candidate's reads of
    ``inner`` give it; ``inner``'s gradient goes back through the recurrent kernel to ``h_{t-1}``.
    """
    n, g_x, g_inners, kernel_parts, g_h = kernel.shape[0], [], [], [], None
    for t in reversed(range(projected.shape[1])):
        h_previous, x = (h if t == 0 else outputs[:, t - 1, :]), projected[:, t, :]
        inner = matmul(h_previous, kernel) + bias
        gates = sigmoid(x[:, :2 * n] + inner[:, :2 * n])
        z, r = gates[:, :n], gates[:, n:]
        candidate = tanh(x[:, 2 * n:] + r * inner[:, 2 * n:])
        g_h = g[:, t, :] if g_h is None else g[:, t, :] + g_h
        g_candidate = g_h * (1 - z) * (1 - candidate * candidate)
        g_z = g_h * (h_previous - candidate) * z * (1 - z)
        g_r = g_candidate * inner[:, 2 * n:] * r * (1 - r)
        g_inner = concat([g_z, g_r, g_candidate * r], axis=-1)
        g_x.append(concat([g_z, g_r, g_candidate], axis=-1))
        g_h = g_h * z + matmul(g_inner, kernel, transpose_b=True)
        kernel_parts.append(matmul(h_previous, g_inner, transpose_a=True))
        g_inners.append(g_inner)
    return stack(g_x[::-1], axis=1), add_n(kernel_parts), reduce_sum(add_n(g_inners), axis=0), g_h


# Fast path (NumPy): what does not depend on the gradient flowing back (every step's gates, candidate
# and the factors they multiply g_h by) is worked out for all steps at once; the loop keeps only the
# recurrence, and the kernel's and bias's gradients are one product and one sum at the end. On
# benchmarks/rnn.py's sequence with GRU(32), 1 thread, the backward pass alone: 7.3 ms against 56.8 ms
# for the loop above in ops (CPU time, medians of 15 alternating in one process, a busy machine).
def _numpy_through_time(g, projected, kernel, bias, h, outputs):
    n, (batch, steps) = kernel.shape[0], projected.shape[:2]
    h_previous = np.concatenate([h[:, None, :], outputs[:, :-1, :]], axis=1)     # every step's h_{t-1}
    inner = h_previous @ kernel + bias
    gates = 1 / (1 + np.exp(-(projected[..., :2 * n] + inner[..., :2 * n])))
    z, r = gates[..., :n], gates[..., n:]
    candidate = np.tanh(projected[..., 2 * n:] + r * inner[..., 2 * n:])
    to_candidate = (1 - z) * (1 - candidate * candidate)
    to_z, to_r = (h_previous - candidate) * z * (1 - z), to_candidate * inner[..., 2 * n:] * r * (1 - r)
    to_x = np.concatenate([to_z, to_r, to_candidate], axis=-1)               # g_h times these: x's gradient
    to_inner = np.concatenate([to_z, to_r, to_candidate * r], axis=-1)       # and inner's
    g_x, g_inner, spread = np.empty_like(projected), np.empty_like(projected), np.empty((batch, 3, n), g.dtype)
    g_h = np.zeros_like(h)
    for t in reversed(range(steps)):
        g_h = g[:, t, :] + g_h
        spread[...] = g_h[:, None, :]
        np.multiply(spread.reshape(batch, 3 * n), to_x[:, t, :], out=g_x[:, t, :])
        np.multiply(spread.reshape(batch, 3 * n), to_inner[:, t, :], out=g_inner[:, t, :])
        g_h = g_h * z[:, t, :] + g_inner[:, t, :] @ kernel.mT
    return g_x, np.tensordot(h_previous, g_inner, axes=([0, 1], [0, 1])), g_inner.sum(axis=(0, 1)), g_h


_GRU_SEQUENCE = Op("gru_sequence", _forward, sequence_vjps(_numpy_through_time, _through_time),
                   keep=(ANS, 0, 1, 2, 3))
