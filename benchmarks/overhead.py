"""How much does minitape's bookkeeping cost?  Two measurements (issue [core]).

(a) Per-op overhead: a scalar float32 chain of 2,000 elementwise ops
    (``y = y + tanh(sin(y)) * c``, 500 times), recorded on a tape and
    differentiated, in microseconds per op.  Scalars make the arithmetic free,
    so this is all dispatch, recording and the backward loop.
(b) Real work: a 784-512-512-10 tanh MLP, batch 128, float32, softmax
    cross-entropy, one forward (to the loss) + backward, as a ratio to the same
    computation written by hand in NumPy on the same weights (runs interleaved, so machine
    drift cancels), after checking that the loss and gradients agree.  Each step is timed
    in two halves, so the script also says how minitape's extra time splits between the
    forward pass (recording) and the backward pass.
(c) The same MLP step on the GPU (CuPy) against minitape on NumPy, where a
    CUDA device and CuPy are present (issue [backends]); otherwise it says why not.

Run:  .venv/bin/python benchmarks/overhead.py
"""
from __future__ import annotations

import statistics
import time

import numpy as np

import minitape as tf

CHAIN_STEPS = 500          # 4 ops each: sin, tanh, multiply, add


def chain_once() -> None:
    c = tf.constant(0.5)
    y0 = tf.constant(0.3)
    with tf.GradientTape() as tape:
        tape.watch(y0)
        y = y0
        for _ in range(CHAIN_STEPS):
            y = y + tf.tanh(tf.sin(y)) * c
    tape.gradient(y, y0)


def chain_numpy_once() -> None:
    """The same forward arithmetic on NumPy scalars, without autodiff: the floor."""
    c, y = np.float32(0.5), np.float32(0.3)
    for _ in range(CHAIN_STEPS):
        y = y + np.tanh(np.sin(y)) * c


def per_op_microseconds(run, repeats: int = 60, warmup: int = 15) -> tuple[float, float]:
    for _ in range(warmup):
        run()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    ops = 4 * CHAIN_STEPS
    return statistics.median(times) / ops * 1e6, min(times) / ops * 1e6


# ---- (b) the MLP ----------------------------------------------------------

SIZES = (784, 512, 512, 10)
BATCH = 128


def make_problem(seed: int = 0) -> tuple[list[np.ndarray], np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    params = []
    for fan_in, fan_out in zip(SIZES[:-1], SIZES[1:]):
        params.append((rng.standard_normal((fan_in, fan_out)) / np.sqrt(fan_in)).astype(np.float32))
        params.append(np.zeros(fan_out, np.float32))
    x = rng.standard_normal((BATCH, SIZES[0])).astype(np.float32)
    labels = rng.integers(0, SIZES[-1], BATCH)
    return params, x, labels


def minitape_forward(variables: list[tf.Variable], x: tf.Tensor, labels: np.ndarray) -> tuple[tf.GradientTape, tf.Tensor]:
    """The forward pass, recorded: the tape and the loss."""
    with tf.GradientTape() as tape:
        h = x
        for k in range(0, len(variables) - 2, 2):
            h = tf.tanh(h @ variables[k] + variables[k + 1])
        logits = h @ variables[-2] + variables[-1]
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits))
    return tape, loss


def mlp_minitape(variables: list[tf.Variable], x: tf.Tensor, labels: np.ndarray) -> tuple[tf.Tensor, list[tf.Tensor]]:
    tape, loss = minitape_forward(variables, x, labels)
    return loss, tape.gradient(loss, variables)


def numpy_forward(params: list[np.ndarray], x: np.ndarray, labels: np.ndarray) -> tuple[np.ndarray, tuple]:
    """The forward pass by hand, to the loss; also returns what the backward pass will read."""
    activations = [x]
    h = x
    for k in range(0, len(params) - 2, 2):
        h = np.tanh(h @ params[k] + params[k + 1])
        activations.append(h)
    logits = h @ params[-2] + params[-1]
    shifted = logits - logits.max(axis=1, keepdims=True)
    probs = np.exp(shifted)
    sums = probs.sum(axis=1, keepdims=True)
    rows = np.arange(len(labels))
    loss = np.mean(np.log(sums[:, 0]) - shifted[rows, labels])
    return loss, (activations, probs, sums, rows)


def numpy_backward(params: list[np.ndarray], labels: np.ndarray, saved: tuple) -> list[np.ndarray]:
    """The backward pass by hand: what a careful person writes without autodiff."""
    activations, probs, sums, rows = saved
    probs /= sums
    d = probs
    d[rows, labels] -= 1
    d /= len(labels)
    grads = [None] * len(params)
    for k in range(len(params) - 2, -1, -2):
        inputs = activations[k // 2]
        grads[k], grads[k + 1] = inputs.T @ d, d.sum(axis=0)
        if k:
            d = (d @ params[k].T) * (1 - inputs * inputs)
    return grads


def mlp_numpy(params: list[np.ndarray], x: np.ndarray, labels: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
    loss, saved = numpy_forward(params, x, labels)
    return loss, numpy_backward(params, labels, saved)


def timed_halves(forward, backward) -> tuple[float, float]:
    """One step timed in two halves: seconds in ``forward()``, then in ``backward(what forward returned)``."""
    start = time.perf_counter()
    saved = forward()
    middle = time.perf_counter()
    backward(saved)
    return middle - start, time.perf_counter() - middle


def mlp_ratio(repeats: int = 80, warmup: int = 5) -> dict[str, float]:
    """Paired runs of both steps: the median ratio, each side's median in ms, and where minitape's extra goes."""
    params, x_np, labels = make_problem()
    variables = [tf.Variable(p) for p in params]
    x = tf.constant(x_np)
    (loss, ours), (their_loss, theirs) = mlp_minitape(variables, x, labels), mlp_numpy(params, x_np, labels)
    np.testing.assert_allclose(loss.numpy(), their_loss, rtol=1e-5)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a.numpy(), b, rtol=2e-4, atol=1e-6)     # same gradients, to float32 rounding
    minitape_step = (lambda: minitape_forward(variables, x, labels),
                     lambda tape_and_loss: tape_and_loss[0].gradient(tape_and_loss[1], variables))
    numpy_step = (lambda: numpy_forward(params, x_np, labels),
                  lambda saved: numpy_backward(params, labels, saved[1]))
    for _ in range(warmup):
        timed_halves(*minitape_step)
        timed_halves(*numpy_step)
    pairs = []
    for k in range(repeats):
        # Alternate who goes first: the second run of a pair finds warmer caches.
        if k % 2 == 0:
            pairs.append((timed_halves(*minitape_step), timed_halves(*numpy_step)))
        else:
            theirs_first = timed_halves(*numpy_step)
            pairs.append((timed_halves(*minitape_step), theirs_first))
    return {"ratio": statistics.median([sum(o) / sum(t) for o, t in pairs]),
            "ours": _median_ms([sum(o) for o, _ in pairs]), "theirs": _median_ms([sum(t) for _, t in pairs]),
            "extra_forward": _median_ms([o[0] - t[0] for o, t in pairs]),
            "extra_backward": _median_ms([o[1] - t[1] for o, t in pairs])}


def _median_ms(seconds: list[float]) -> float:
    return statistics.median(seconds) * 1e3


def gpu_speedup(repeats: int = 50, warmup: int = 5) -> tuple[float, float, float]:
    """Milliseconds per MLP step on NumPy and on GPU:0, and their ratio (raises if there is no GPU)."""
    gpu = tf.device("GPU:0")        # raises DeviceNotFoundError, saying why, when there is no GPU
    import cupy

    params, x_np, labels = make_problem()
    on_host = [tf.Variable(p) for p in params]
    with gpu:
        on_gpu = [tf.Variable(p) for p in params]
        x_gpu = tf.constant(x_np)
    for a, b in zip(mlp_minitape(on_gpu, x_gpu, labels)[1], mlp_numpy(params, x_np, labels)[1]):
        np.testing.assert_allclose(a.numpy(), b, rtol=1e-3, atol=1e-5)

    def gpu_step() -> None:
        mlp_minitape(on_gpu, x_gpu, labels)
        cupy.cuda.Device(0).synchronize()       # GPU work is asynchronous: wait for it before stopping the clock

    def timed(run, *args) -> float:
        for _ in range(warmup):
            run(*args)
        times = []
        for _ in range(repeats):
            start = time.perf_counter()
            run(*args)
            times.append(time.perf_counter() - start)
        return statistics.median(times) * 1e3

    host_ms, gpu_ms = timed(mlp_minitape, on_host, tf.constant(x_np), labels), timed(gpu_step)
    return host_ms, gpu_ms, host_ms / gpu_ms


def main() -> None:
    median, best = per_op_microseconds(chain_once)
    floor, _ = per_op_microseconds(chain_numpy_once)
    print(f"(a) scalar chain, forward on a tape + gradient: {median:.2f} µs/op median, {best:.2f} best "
          f"(NumPy forward alone, no autodiff: {floor:.2f} µs/op; target ≤ 5)")
    mlp = mlp_ratio()
    print(f"(b) MLP 784-512-512-10, batch 128, forward+backward: {mlp['ours']:.2f} ms vs hand-written NumPy "
          f"{mlp['theirs']:.2f} ms: ratio {mlp['ratio']:.3f} (median of paired runs, order alternated; "
          f"target ≤ 1.15); loss and gradients agree\n"
          f"    minitape's extra time: {mlp['extra_forward']:+.2f} ms in the forward pass, "
          f"{mlp['extra_backward']:+.2f} ms in the backward pass (medians)")
    try:
        host_ms, gpu_ms, speedup = gpu_speedup()
    except tf.errors.DeviceNotFoundError as error:
        print(f"(c) MLP step on the GPU: not measured here. {error}")
    else:
        print(f"(c) MLP step on GPU:0 (CuPy): {gpu_ms:.2f} ms vs minitape on NumPy {host_ms:.2f} ms: "
              f"{speedup:.1f}x faster; gradients agree with hand-written NumPy")


if __name__ == "__main__":
    main()
