"""What do image models cost in minitape?  (issue [models])

(a) ``tf.nn.conv2d`` forward + backward (the gradients with respect to the input and the
    filters, for a given upstream gradient), batch 32, 32x32x16 -> 16 channels, 3x3, 'SAME',
    float32, as a ratio to the same algorithm written by hand in NumPy (one matmul per filter
    tap over a block of the padded images' rows: see minitape/ops/convolution.py), after checking that both
    give the same numbers.  Runs are paired and their order alternated, so drift cancels.
    Beside it, PyTorch's CPU eager conv2d forward + backward on the same shapes, where torch
    can be imported here, or from the interpreter named by ``--torch PYTHON`` (e.g. a scratch
    virtualenv: ``python -m venv /tmp/torchvenv && /tmp/torchvenv/bin/pip install torch numpy``).
(b) A chain of 8 residual blocks (Conv-BN-ReLU-Conv-BN + skip, ReLU), batch 32, 32x32x16: bytes
    the tape holds after the forward pass with no checkpointing, each block under recompute_grad,
    and sqrt(L) segments (checkpoint_sequential), beside the theory derived from what each op keeps;
    and the time of forward + backward in each mode.

Run:  .venv/bin/python benchmarks/cnn.py [--torch /tmp/torchvenv/bin/python]

On a shared machine, give both libraries one thread each (a busy BLAS thread pool waits on
its threads): ``OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 .venv/bin/python benchmarks/cnn.py ...``.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from typing import Any

import numpy as np

BATCH, SIDE, CHANNELS, FILTERS, KERNEL = 32, 32, 16, 16, 3


def problem(seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """An NHWC input, HWIO filters and an upstream gradient, float32."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((BATCH, SIDE, SIDE, CHANNELS), dtype=np.float32)
    w = rng.standard_normal((KERNEL, KERNEL, CHANNELS, FILTERS), dtype=np.float32) / np.float32(KERNEL * KERNEL * CHANNELS) ** 0.5
    g = rng.standard_normal((BATCH, SIDE, SIDE, FILTERS), dtype=np.float32)
    return x, w, g


# ---- (a) conv2d ---------------------------------------------------------------------------

def numpy_forward(x: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """3x3 'SAME' stride 1 by hand: the padded images as one row of pixels; each tap's block of rows @ w[i, j]."""
    n, h, width, c = x.shape
    padded = np.zeros((n, h + 2, width + 2, c), x.dtype)
    padded[:, 1:-1, 1:-1] = x
    rows = padded.reshape(-1, c)
    block = len(rows) - 2 * (width + 2) - 2                 # the rows every tap can read from
    out = np.zeros((len(rows), w.shape[3]), x.dtype)
    for i in range(KERNEL):
        for j in range(KERNEL):
            start = i * (width + 2) + j
            out[:block] += rows[start:start + block] @ w[i, j]
    return out.reshape(n, h + 2, width + 2, -1)[:, :h, :width].copy(), rows


def numpy_backward(rows: np.ndarray, w: np.ndarray, g: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each tap's g @ w[i, j]ᵀ added into the block it read; the block ᵀ @ g for the filters."""
    n, h, width, o = g.shape
    grid = np.zeros((n, h + 2, width + 2, o), g.dtype)
    grid[:, :h, :width] = g
    block = len(rows) - 2 * (width + 2) - 2
    upstream = grid.reshape(-1, o)[:block]
    d_rows, d_w = np.zeros_like(rows), np.empty_like(w)
    for i in range(KERNEL):
        for j in range(KERNEL):
            start = i * (width + 2) + j
            d_rows[start:start + block] += upstream @ w[i, j].T
            d_w[i, j] = rows[start:start + block].T @ upstream
    return d_rows.reshape(n, h + 2, width + 2, -1)[:, 1:-1, 1:-1], d_w


def conv_ratio(repeats: int = 30, warmup: int = 3) -> dict[str, float]:
    """Paired runs: the median ratio minitape / NumPy, and each side's median in ms."""
    import minitape as tf

    x_np, w_np, g_np = problem()
    x, w, g = tf.constant(x_np), tf.constant(w_np), tf.constant(g_np)

    def ours() -> list:
        with tf.GradientTape() as tape:
            tape.watch([x, w])
            y = tf.nn.conv2d(x, w, strides=1, padding="SAME")
        return [y, *tape.gradient(y, [x, w], output_gradients=g)]

    def theirs() -> list:
        y, rows = numpy_forward(x_np, w_np)
        return [y, *numpy_backward(rows, w_np, g_np)]

    for a, b in zip(ours(), theirs()):
        np.testing.assert_allclose(a.numpy(), b, rtol=1e-4, atol=1e-6 * np.abs(b).max())   # float32 sums differ
    for _ in range(warmup):
        ours(), theirs()
    pairs = []
    for k in range(repeats):
        first, second = (ours, theirs) if k % 2 == 0 else (theirs, ours)     # the second finds warmer caches
        times = {}
        for run in (first, second):
            start = time.perf_counter()
            run()
            times[run] = time.perf_counter() - start
        pairs.append((times[ours], times[theirs]))
    ours_ms, theirs_ms = [o * 1e3 for o, _ in pairs], [t * 1e3 for _, t in pairs]
    return {"ratio": statistics.median(o / t for o, t in pairs), "ours": statistics.median(ours_ms),
            "theirs": statistics.median(theirs_ms), "ours_best": min(ours_ms), "theirs_best": min(theirs_ms)}


def torch_conv_ms(repeats: int = 30, warmup: int = 3) -> dict[str, float]:
    """PyTorch's eager conv2d forward + backward on the same problem, in ms (median), NCHW and channels-last."""
    import torch

    x_np, w_np, g_np = problem()
    weights = torch.from_numpy(w_np.transpose(3, 2, 0, 1).copy()).requires_grad_()
    upstream = torch.from_numpy(g_np.transpose(0, 3, 1, 2).copy())
    result = {"threads": torch.get_num_threads(), "version": torch.__version__}
    for layout, memory_format in (("nchw", torch.contiguous_format), ("channels_last", torch.channels_last)):
        x = torch.from_numpy(x_np.transpose(0, 3, 1, 2).copy()).to(memory_format=memory_format).requires_grad_()
        times = []
        for k in range(warmup + repeats):
            start = time.perf_counter()
            y = torch.nn.functional.conv2d(x, weights, padding=1)
            torch.autograd.grad(y, [x, weights], upstream)
            times.append(time.perf_counter() - start)
        result[layout] = statistics.median(times[warmup:]) * 1e3
        result[layout + "_best"] = min(times[warmup:]) * 1e3
    return result


def torch_figures(python: str | None) -> dict | str:
    """PyTorch's figures, here or from another interpreter; a sentence saying why not when there are none."""
    try:
        return torch_conv_ms()
    except ImportError:
        pass
    if python is None:
        return "torch is not importable here; give --torch PYTHON for an interpreter that has it"
    run = subprocess.run([python, __file__, "--torch-only"], capture_output=True, text=True)   # no minitape there
    if run.returncode:
        return f"{python} could not run it: {run.stderr.strip().splitlines()[-1]}"
    return json.loads(run.stdout)


# ---- (b) 8 residual blocks -----------------------------------------------------------------
# Each block is relu(x + bn(conv(relu(bn(conv(x)))))), 3x3 'SAME' convolutions without bias, batch
# normalization training; 8 of them on a batch of 32 images, 32x32x16, float32.  What the tape holds
# after the forward pass is predicted from what each op keeps (docs/keras-checkpointing.md derives it):
#   conv2d: its input (a ReLU output already counted, or the block's input) and its filters (a variable);
#   batch normalization (fused_batch_norm): its input (and γ, a variable);
#   relu: its output; add: nothing.

BLOCKS = 8
SEGMENTS = round(BLOCKS ** 0.5)          # sqrt(L) segments: 3


def residual_blocks(n: int) -> list:
    import minitape as tf
    layers = tf.keras.layers

    class ResidualBlock(tf.keras.Model):
        def __init__(self) -> None:
            super().__init__()
            self.conv1 = layers.Conv2D(CHANNELS, 3, padding="same", use_bias=False, kernel_initializer="he_normal")
            self.bn1 = layers.BatchNormalization()
            self.conv2 = layers.Conv2D(CHANNELS, 3, padding="same", use_bias=False, kernel_initializer="he_normal")
            self.bn2 = layers.BatchNormalization()

        def call(self, x: Any, training: bool | None = None) -> Any:
            h = tf.nn.relu(self.bn1(self.conv1(x), training=training))
            return tf.nn.relu(x + self.bn2(self.conv2(h), training=training))

    return [ResidualBlock() for _ in range(n)]


def theory(mode: str, activation: int, channels: int) -> int:
    """Bytes held after the forward pass, from what each op keeps (see the comment above)."""
    batch_norm = activation                              # fused_batch_norm keeps its input (and γ, a variable)
    if mode == "none":
        return BLOCKS * (2 * batch_norm + 2 * activation)       # the first block's input is the user's
    if mode == "per block":
        return (BLOCKS - 1) * activation                       # each block keeps its input
    return (SEGMENTS - 1) * activation                         # sqrt(L) segments: each keeps its input


def chain_figures(repeats: int = 5) -> dict[str, dict[str, float]]:
    """Held bytes (measured and predicted) and forward+backward time (median, ms) per checkpointing mode."""
    import minitape as tf

    tf.random.set_seed(0)
    blocks = residual_blocks(BLOCKS)
    steps = [lambda h, block=block: block(h, training=True) for block in blocks]
    x = tf.constant(problem()[0])
    for block in blocks:
        block(x)                                               # build the weights before any tape
    variables = [v for block in blocks for v in block.trainable_variables]
    modes = {
        "none": lambda h: in_order(steps, h),
        "per block": lambda h: in_order([tf.recompute_grad(step) for step in steps], h),
        "sqrt(L) segments": lambda h: tf.checkpoint_sequential(steps, SEGMENTS, h),
    }
    figures = {name: {"times": []} for name in modes}
    for k in range(repeats + 1):                               # the first round warms up
        for name in list(modes)[k % 3:] + list(modes)[:k % 3]:  # each mode in each position, in turn
            start = time.perf_counter()
            with tf.GradientTape() as tape:
                out = modes[name](x)
                held = tape.memory_info()["current"]
                loss = tf.reduce_sum(out)                      # keeps nothing
            grads = tape.gradient(loss, variables)
            assert all(g is not None for g in grads)
            if k:
                figures[name]["times"].append(time.perf_counter() - start)
            figures[name]["held"] = held
    activation = x.numpy().nbytes
    for name, figure in figures.items():
        figure["theory"] = theory(name, activation, CHANNELS)
        figure["ms"] = statistics.median(figure.pop("times")) * 1e3
    return figures


def in_order(steps: list, h: Any) -> Any:
    for step in steps:
        h = step(h)
    return h


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--torch", metavar="PYTHON", help="an interpreter with torch, when this one has none")
    parser.add_argument("--torch-only", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--only", choices=["conv", "chain"], help="run one part")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs per checkpointing mode in (b)")
    args = parser.parse_args()
    if args.torch_only:
        print(json.dumps(torch_conv_ms()))
        return
    if args.only != "chain":
        report_conv(args.torch)
    if args.only != "conv":
        report_chain(args.repeats)


def report_conv(torch_python: str | None) -> None:
    conv = conv_ratio()
    shape = f"batch {BATCH}, {SIDE}x{SIDE}x{CHANNELS} -> {FILTERS}, {KERNEL}x{KERNEL}, 'SAME', float32"
    print(f"(a) conv2d forward+backward ({shape}): minitape {conv['ours']:.1f} ms (best {conv['ours_best']:.1f}) "
          f"vs hand-written NumPy {conv['theirs']:.1f} ms (best {conv['theirs_best']:.1f}), the same algorithm: "
          f"ratio {conv['ratio']:.3f} (median of paired runs, order alternated; target ≤ 1.2); outputs and "
          f"gradients agree")
    torch = torch_figures(torch_python)
    if isinstance(torch, str):
        print(f"    PyTorch: not measured. {torch}")
    else:
        print(f"    PyTorch {torch['version']} CPU eager, {torch['threads']} thread(s): {torch['nchw']:.1f} ms "
              f"(best {torch['nchw_best']:.1f}) NCHW, {torch['channels_last']:.1f} ms "
              f"(best {torch['channels_last_best']:.1f}) channels-last; minitape / PyTorch: "
              f"{conv['ours'] / torch['nchw']:.2f} NCHW, {conv['ours'] / torch['channels_last']:.2f} channels-last "
              f"(medians), {conv['ours_best'] / torch['nchw_best']:.2f} and "
              f"{conv['ours_best'] / torch['channels_last_best']:.2f} (best against best)")


def report_chain(repeats: int) -> None:
    figures = chain_figures(repeats)
    none = figures["none"]
    print(f"(b) {BLOCKS} residual blocks, batch {BATCH}, {SIDE}x{SIDE}x{CHANNELS}, float32 (one activation "
          f"{BATCH * SIDE * SIDE * CHANNELS * 4 / 2**20:.0f} MiB; sqrt(L): {SEGMENTS} segments); held after the "
          f"forward pass, and forward+backward time (median of {repeats}):")
    for name, figure in figures.items():
        print(f"    {name:>22}: {figure['held'] / 2**20:7.3f} MiB held, theory {figure['theory'] / 2**20:7.3f} MiB "
              f"(held/theory {figure['held'] / figure['theory']:.4f}); {figure['held'] / none['held']:.3f} of none; "
              f"{figure['ms']:7.0f} ms, {figure['ms'] / none['ms']:.2f}x none")
    sqrt = figures["sqrt(L) segments"]
    print(f"    targets: held = theory ±5% ({all(abs(f['held'] / f['theory'] - 1) <= 0.05 for f in figures.values())}); "
          f"per block ≤ 1/4 of none ({figures['per block']['held'] <= none['held'] / 4}); "
          f"sqrt(L) ≤ 1.40x the time of none ({sqrt['ms'] <= 1.40 * none['ms']})")


if __name__ == "__main__":
    main()
