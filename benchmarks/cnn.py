"""What do image models cost in minitape?  (issue [models])

(a) ``tf.nn.conv2d`` forward + backward (the gradients with respect to the input and the
    filters, for a given upstream gradient), batch 32, 32x32x16 -> 16 channels, 3x3, 'SAME',
    float32, as a ratio to the same algorithm written by hand in NumPy (a sum of shifted
    matmuls, one per filter tap: see minitape/ops/convolution.py), after checking that both
    give the same numbers.  Runs are paired and their order alternated, so drift cancels.
    Beside it, PyTorch's CPU eager conv2d forward + backward on the same shapes, where torch
    can be imported here, or from the interpreter named by ``--torch PYTHON`` (e.g. a scratch
    virtualenv: ``python -m venv /tmp/torchvenv && /tmp/torchvenv/bin/pip install torch numpy``).
(b) A chain of 8 residual blocks: bytes held after the forward pass for no, per-block and
    sqrt(L) checkpointing, against the theory (not built yet: the Keras layers come first).

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
    """3x3 'SAME' stride 1 by hand: the padded input, and the sum over taps of its shifted slice @ w[i, j]."""
    n, h, width, c = x.shape
    padded = np.zeros((n, h + 2, width + 2, c), x.dtype)
    padded[:, 1:-1, 1:-1] = x
    out = np.zeros((n * h * width, w.shape[3]), x.dtype)
    for i in range(KERNEL):
        for j in range(KERNEL):
            out += padded[:, i:i + h, j:j + width].reshape(-1, c) @ w[i, j]
    return out.reshape(n, h, width, -1), padded


def numpy_backward(padded: np.ndarray, w: np.ndarray, g: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each tap's g @ w[i, j]ᵀ added back where its slice was read; its slice ᵀ @ g for the filters."""
    n, h, width, o = g.shape
    c = padded.shape[3]
    rows = g.reshape(-1, o)
    d_padded, d_w = np.zeros_like(padded), np.empty_like(w)
    for i in range(KERNEL):
        for j in range(KERNEL):
            d_padded[:, i:i + h, j:j + width] += (rows @ w[i, j].T).reshape(n, h, width, c)
            d_w[i, j] = padded[:, i:i + h, j:j + width].reshape(-1, c).T @ rows
    return d_padded[:, 1:-1, 1:-1], d_w


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
        y, padded = numpy_forward(x_np, w_np)
        return [y, *numpy_backward(padded, w_np, g_np)]

    for a, b in zip(ours(), theirs()):
        np.testing.assert_allclose(a.numpy(), b, rtol=1e-4, atol=1e-4)
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
# To come (issue [models], with the Keras layers): a chain of 8 Conv-BN-ReLU-Conv-BN + skip blocks,
# 32x32x16, batch 32; the bytes the tape holds after the forward pass for checkpointing none /
# per-block / sqrt(L) segments, beside the theory derived from what each op keeps
# (conv2d: its input and filters; max_pool2d: its input; avg_pool2d: nothing); targets: held =
# theory ±5%, per-block ≤ 1/4 of none, sqrt(L) ≤ 1.40x the time of none.


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--torch", metavar="PYTHON", help="an interpreter with torch, when this one has none")
    parser.add_argument("--torch-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.torch_only:
        print(json.dumps(torch_conv_ms()))
        return
    conv = conv_ratio()
    shape = f"batch {BATCH}, {SIDE}x{SIDE}x{CHANNELS} -> {FILTERS}, {KERNEL}x{KERNEL}, 'SAME', float32"
    print(f"(a) conv2d forward+backward ({shape}): minitape {conv['ours']:.1f} ms (best {conv['ours_best']:.1f}) "
          f"vs hand-written NumPy {conv['theirs']:.1f} ms (best {conv['theirs_best']:.1f}), the same algorithm: "
          f"ratio {conv['ratio']:.3f} (median of paired runs, order alternated; target ≤ 1.2); outputs and "
          f"gradients agree")
    torch = torch_figures(args.torch)
    if isinstance(torch, str):
        print(f"    PyTorch: not measured. {torch}")
    else:
        print(f"    PyTorch {torch['version']} CPU eager, {torch['threads']} thread(s): {torch['nchw']:.1f} ms "
              f"(best {torch['nchw_best']:.1f}) NCHW, {torch['channels_last']:.1f} ms "
              f"(best {torch['channels_last_best']:.1f}) channels-last; minitape / PyTorch: "
              f"{conv['ours'] / torch['nchw']:.2f} NCHW, {conv['ours'] / torch['channels_last']:.2f} channels-last "
              f"(medians), {conv['ours_best'] / torch['nchw_best']:.2f} and "
              f"{conv['ours_best'] / torch['channels_last_best']:.2f} (best against best)")
    print("(b) 8 residual blocks, held bytes per checkpointing mode: not built yet (needs the Keras layers).")


if __name__ == "__main__":
    main()
