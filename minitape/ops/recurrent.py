"""The LSTM cell's arithmetic as one primitive, as TensorFlow's ``LSTMBlockCell`` kernel.

An LSTM step written with elementwise ops records a dozen of them per time step (a split, three
sigmoids, two tanhs, three products, a sum), and the backward pass runs about as many again:
on small batches each step's time is Python's, not the arithmetic's.  ``lstm_cell`` takes the
gates' pre-activations ``z`` (input, forget, cell, output side by side, as Keras orders them)
and the previous carry, and gives ``[h, c]`` side by side; its VJPs work out from ``z`` what the
ops would have kept.  They are written once (``_backward``) and run on NumPy arrays when no tape
records the backward pass (a plain training step: the gradient is never differentiated again),
and with minitape's ops otherwise, so that a second tape differentiates them.

>>> import minitape as tf
>>> hc = tf.ops.lstm_cell(tf.zeros((1, 4)), tf.ones((1, 1)))     # every gate half open, candidate 0
>>> hc.numpy()                                                    # h = 0.5·tanh(0.5), c = 0.5·1
array([[0.2310586, 0.5      ]], dtype=float32)
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from minitape.core.arrays import quietly
from minitape.core.errors import InvalidArgumentError
from minitape.core.primitive import ANS, Joint, Op, apply
from minitape.core.state import first_order_numpy
from minitape.core.tensor import Tensor, wrap
from minitape.ops.arguments import needs_floating, operands
from minitape.ops.elementwise import sigmoid, tanh
from minitape.ops.indexing import concat, stack
from minitape.ops.linalg import matmul
from minitape.ops.reductions import add_n
from minitape.ops.splitting import split


def lstm_cell(z: Any, c_previous: Any) -> Tensor:
    """``[h, c]`` (side by side on the last axis) from the gates' pre-activations ``z = [z_i, z_f, z_c, z_o]``:
    ``c = σ(z_f)·c_previous + σ(z_i)·tanh(z_c)`` and ``h = σ(z_o)·tanh(c)``.

    >>> import minitape as tf
    >>> z = tf.constant([[-100.0, 100.0, 1.0, 100.0]])     # input gate shut, forget and output open: c = c_previous
    >>> tf.ops.lstm_cell(z, tf.constant([[2.0]])).numpy().round(4)
    array([[0.964, 2.   ]], dtype=float32)
    """
    z, c_previous = operands("lstm_cell", z, c_previous)
    needs_floating("lstm_cell", z)
    batch, units = (tuple(c_previous.shape[:-1]), c_previous.shape[-1]) if c_previous.ndim else ((), -1)
    check_shape("lstm_cell", "z", z, (*batch, 4 * units), "batch, 4·units (units: c_previous's last axis)")
    return apply(_LSTM_CELL, (z, c_previous))


def check_shape(op: str, name: str, tensor: Tensor, wanted: tuple[int, ...], spelled: str) -> None:
    """Raise unless ``tensor`` has the shape ``wanted``, spelled out as ``[spelled]`` (a negative size is never met).

    >>> check_shape("lstm_cell", "z", tf.zeros((2, 8)), (2, 12), "batch, 4·units")
    Traceback (most recent call last):
    ...
    minitape.core.errors.InvalidArgumentError: lstm_cell: z must have shape [batch, 4·units], here [2, 12]; got [2, 8].
    """
    if tuple(tensor.shape) != tuple(wanted):
        here = f", here {list(wanted)}" if min(wanted, default=0) >= 0 else ""
        raise InvalidArgumentError(f"{op}: {name} must have shape [{spelled}]{here}; got {list(tensor.shape)}.")


def _gates(z: Any, sigmoid: Callable, tanh: Callable, cut: Callable) -> tuple[Any, Any, Any, Any]:
    z_i, z_f, z_c, z_o = cut(z, 4)
    return sigmoid(z_i), sigmoid(z_f), tanh(z_c), sigmoid(z_o)


def _forward(xp, z, c_previous):
    n = z.shape[-1] // 4
    gates = 1 / (1 + xp.exp(-z))          # i, f and o (and the cell's quarter, not used) in one pass over z
    i, f, o = gates[..., :n], gates[..., n:2 * n], gates[..., 3 * n:]
    c = f * c_previous + i * xp.tanh(z[..., 2 * n:3 * n])    # the order of the ops LSTMCell would run
    return xp.concat([o * xp.tanh(c), c], axis=-1)


def _numpy_cut(value: Any, count: int) -> list[Any]:
    n = value.shape[-1] // count
    return [value[..., k * n:(k + 1) * n] for k in range(count)]


def _backward(g: Any, z: Any, c_previous: Any, sigmoid: Callable, tanh: Callable, cut: Callable,
              join: Callable) -> tuple[Any, Any]:
    """The gradients of ``z`` and ``c_previous`` given ``g = [g_h, g_c]``, in whichever arithmetic is passed."""
    i, f, candidate, o = _gates(z, sigmoid, tanh, cut)
    g_h, g_c = cut(g, 2)
    squashed = tanh(f * c_previous + i * candidate)
    g_carry = g_c + g_h * o * (1 - squashed * squashed)
    g_z = join([g_carry * candidate * i * (1 - i), g_carry * c_previous * f * (1 - f),
                g_carry * i * (1 - candidate * candidate), g_h * squashed * o * (1 - o)])
    return g_z, g_carry * f


# The arithmetic _backward runs in: sigmoid, tanh, cutting the last axis into equal parts, joining parts.
_IN_NUMPY = (lambda v: 1 / (1 + np.exp(-v)), np.tanh, _numpy_cut, lambda parts: np.concatenate(parts, axis=-1))
_IN_OPS = (sigmoid, tanh, lambda v, count: split(v, count, axis=-1), lambda parts: concat(parts, axis=-1))

def _vjps(wanted: tuple[bool, bool], g: Tensor, ans: Any, z: Tensor, c_previous: Tensor) -> tuple[Any, Any]:
    """The gradients of ``z`` and ``c_previous``, from one backward step."""
    # Just an optimization: with no tape recording, NumPy works the gradients out in one step, where
    # ops would record about 25: that saves about a quarter of the CPU time of benchmarks/rnn.py's LSTM
    # pass (34.7 against 47.6 ms, medians of 5 alternating runs).
    if first_order_numpy(g, z, c_previous):
        return tuple(wrap(v) for v in quietly(_backward, g._value, z._value, c_previous._value, *_IN_NUMPY))
    return _backward(g, z, c_previous, *_IN_OPS)


_LSTM_CELL = Op("lstm_cell", _forward, Joint(_vjps), keep=(0, 1))


def lstm_sequence(projected: Any, recurrent_kernel: Any, h: Any, c: Any) -> Tensor:
    """Every step of an LSTM as one primitive: ``[h_t, c_t]`` for each step ``t``, shape ``(batch, time, 2·units)``.

    ``projected[:, t]`` is step ``t``'s input through the kernel (``x_t @ kernel + bias``); each step
    is ``lstm_cell(projected[:, t] + h_{t-1} @ recurrent_kernel, c_{t-1})`` from ``h, c`` at the
    start: the same floats, but one tape entry for the sequence, where each step records three.
    Its VJPs run backpropagation through time: in one NumPy loop when no tape records the backward
    pass, and with minitape's ops otherwise, so that a second tape differentiates them.

    >>> import minitape as tf
    >>> z = tf.constant([[[100.0, 100.0, 1.0, 100.0]] * 3])     # 3 steps, 1 unit: c gains tanh(1) a step
    >>> tf.ops.lstm_sequence(z, tf.zeros((1, 4)), tf.zeros((1, 1)), tf.zeros((1, 1)))[0, :, 1].numpy()
    array([0.7615942, 1.5231884, 2.2847824], dtype=float32)
    """
    projected, recurrent_kernel, h, c = operands("lstm_sequence", projected, recurrent_kernel, h, c)
    check_sequence("lstm_sequence", projected, recurrent_kernel, 4, {"h": h, "c": c})
    return apply(_LSTM_SEQUENCE, (projected, recurrent_kernel, h, c))


def check_sequence(op: str, projected: Tensor, kernel: Tensor, gates: int, states: dict[str, Tensor]) -> None:
    """Refuse by name what ``op``, an RNN over a whole sequence, cannot run: integers, a kernel of other than
    ``gates`` blocks of units, a projected sequence or ``states`` of other shapes, or no time steps.

    >>> check_sequence("gru_sequence", tf.zeros((2, 0, 6)), tf.zeros((2, 6)), 3, {"h": tf.zeros((2, 2))})
    Traceback (most recent call last):
    ...
    minitape.core.errors.InvalidArgumentError: gru_sequence: projected has no time steps (shape [2, 0, 6]): give it at least one.
    """
    needs_floating(op, projected)
    units = kernel.shape[0] if kernel.ndim == 2 else -1
    batch, steps = projected.shape[:2] if projected.ndim == 3 else (-1, -1)
    width = "units" if gates == 1 else f"{gates}·units"
    check_shape(op, "recurrent_kernel", kernel, (units, gates * units), f"units, {width}")
    check_shape(op, "projected", projected, (batch, steps, gates * units), f"batch, time, {width}")
    for name, tensor in states.items():
        check_shape(op, name, tensor, (batch, units), "batch, units")
    if steps == 0:
        raise InvalidArgumentError(f"{op}: projected has no time steps (shape {list(projected.shape)}): "
                                   f"give it at least one.")


def _sequence_forward(xp, projected, kernel, h, c):
    units, steps = kernel.shape[0], []
    for t in range(projected.shape[1]):
        steps.append(_forward(xp, projected[:, t, :] + xp.matmul(h, kernel), c))
        h, c = steps[-1][:, :units], steps[-1][:, units:]
    return xp.stack(steps, axis=1)


def _through_time(g: Tensor, projected: Tensor, kernel: Tensor, h: Tensor, c: Tensor,
                  hc: Tensor) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """The gradients of ``projected``, the kernel, ``h`` and ``c`` given ``g`` (of every ``[h_t, c_t]``), in ops.

    The steps backwards: each one's ``lstm_cell`` VJP on ``g_t`` plus what the step after it sent
    back, ``z_t`` worked out again from ``h_{t-1}``; the kernel's gradient summed over the steps.
    """
    units, g_z, kernel_parts, g_h, g_c = kernel.shape[0], [], [], None, None
    for t in reversed(range(projected.shape[1])):
        h_previous, c_previous = (h, c) if t == 0 else (hc[:, t - 1, :units], hc[:, t - 1, units:])
        g_t = g[:, t, :] if g_h is None else g[:, t, :] + concat([g_h, g_c], axis=-1)
        g_z_t, g_c = _backward(g_t, projected[:, t, :] + matmul(h_previous, kernel), c_previous, *_IN_OPS)
        g_h = matmul(g_z_t, kernel, transpose_b=True)
        kernel_parts.append(matmul(h_previous, g_z_t, transpose_a=True))
        g_z.append(g_z_t)
    return stack(g_z[::-1], axis=1), add_n(kernel_parts), g_h, g_c


# Fast path (NumPy): what does not depend on the gradient flowing back (every step's gates, tanh(c_t),
# and what they multiply the gradients by) is worked out for all steps at once, from h_{t-1} and c_t
# read off the output; the loop keeps only the recurrence, and the kernel's gradient is one product
# over every step at the end. On benchmarks/rnn.py's sequence (16 x 100 steps x 32 units), 1 thread,
# the backward pass alone: 8.9 ms against 17.4 ms for the loop above in NumPy (CPU time, medians of
# 15 alternating in one process, a busy machine).
def _numpy_through_time(g, projected, kernel, h, c, hc):
    n, (batch, steps) = kernel.shape[0], projected.shape[:2]
    h_previous = np.concatenate([h[:, None, :], hc[:, :-1, :n]], axis=1)        # every step's h_{t-1}
    c_previous = np.concatenate([c[:, None, :], hc[:, :-1, n:]], axis=1)
    z = projected + h_previous @ kernel
    gates, candidate, squashed = 1 / (1 + np.exp(-z)), np.tanh(z[..., 2 * n:3 * n]), np.tanh(hc[..., n:])
    slopes = gates * (1 - gates)
    # z's gradient is g_carry times the first three quarters, g_h times the last (see _backward)
    factors = np.concatenate([candidate * slopes[..., :n], c_previous * slopes[..., n:2 * n],
                              gates[..., :n] * (1 - candidate * candidate), squashed * slopes[..., 3 * n:]], axis=-1)
    into_carry, forget = gates[..., 3 * n:] * (1 - squashed * squashed), gates[..., n:2 * n]
    g_z, spread = np.empty_like(projected), np.empty((batch, 4, n), projected.dtype)
    g_h, g_c = np.zeros_like(h), np.zeros_like(c)
    for t in reversed(range(steps)):
        g_h = g[:, t, :n] + g_h
        g_carry = g[:, t, n:] + g_c + g_h * into_carry[:, t, :]
        spread[:, :3, :], spread[:, 3, :] = g_carry[:, None, :], g_h
        np.multiply(spread.reshape(batch, 4 * n), factors[:, t, :], out=g_z[:, t, :])
        g_h, g_c = g_z[:, t, :] @ kernel.mT, g_carry * forget[:, t, :]
    return g_z, np.tensordot(h_previous, g_z, axes=([0, 1], [0, 1])), g_h, g_c


def sequence_vjps(numpy_pass: Callable, ops_pass: Callable) -> Joint:
    """The VJPs of an op over a whole sequence: one backward pass through time gives every input's gradient.

    ``numpy_pass(g, *inputs, ans)`` on NumPy arrays, and ``ops_pass`` on tensors, each give every
    input's gradient; the NumPy one runs when no tape records (just an optimization, as lstm_cell's).
    """
    def vjp(wanted: tuple[bool, ...], g: Tensor, ans: Tensor, *inputs: Tensor) -> list[Tensor]:
        if first_order_numpy(g, ans, *inputs):
            return [wrap(v) for v in quietly(numpy_pass, g._value, *(t._value for t in inputs), ans._value)]
        return list(ops_pass(g, *inputs, ans))
    return Joint(vjp)


_LSTM_SEQUENCE = Op("lstm_sequence", _sequence_forward,
                    sequence_vjps(_numpy_through_time, _through_time), keep=(ANS, 0, 1, 2, 3))
