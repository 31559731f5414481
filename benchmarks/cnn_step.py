"""A small ResNet's training step: minitape against PyTorch CPU eager, NCHW and channels-last (issue [performance]).

The model: a 3x3 convolution to 16 channels, batch normalization and ReLU (the stem); a residual
block of two 3x3 convolutions at 16 channels; a residual block to 32 channels with stride 2 (its
shortcut a 1x1 convolution with stride 2); global average pooling and a dense layer to 10 classes.
Each block is ``relu(shortcut(x) + bn(conv(relu(bn(conv(x))))))``, its convolutions without bias.
Input a batch of 32 images, 32x32x16, float32. One step is the forward pass, the mean sparse
cross-entropy, the backward pass and an Adam update.

Each side runs in a fresh process with one thread (``OMP/OPENBLAS/MKL_NUM_THREADS=1``, and
``torch.set_num_threads(1)``); a round runs minitape, PyTorch NCHW and PyTorch channels-last one
after another, the order rotated every round, so drift on a shared machine falls on all three.
It prints each side's median step and the median of the per-round ratios minitape / PyTorch.

With ``--conv`` the same harness times ``conv2d`` forward + backward alone (``cnn.py``'s problem);
with ``--against TREE`` a fourth side runs minitape from another checkout (the tree before a change).

Run:  .venv/bin/python benchmarks/cnn_step.py --torch /tmp/torchvenv/bin/python [--rounds 7] [--conv] [--against TREE]
      (a scratch virtualenv with torch: ``python -m venv /tmp/torchvenv && /tmp/torchvenv/bin/pip install torch numpy``)
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys

import time

from sequence import numpy_blas, worker_figures

BATCH, SIDE, CHANNELS, CLASSES = 32, 32, 16, 10
WIDTHS = ((16, 1), (32, 2))                              # each residual block's channels and stride


def median_step(step, repeats: int, warmup: int = 3) -> dict:
    """The median wall time of ``step()`` and the median CPU time of this process during it, in ms.

    On a machine shared by more processes than cores, wall time also counts the waits for a core;
    CPU time does not (with one thread, it is the time the step computed).
    """
    for _ in range(warmup):
        step()
    wall, cpu = [], []
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        step()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return {"ms": statistics.median(wall) * 1e3, "cpu ms": statistics.median(cpu) * 1e3}


def data(seed: int = 0):
    """NHWC images and integer labels."""
    import numpy as np
    rng = np.random.default_rng(seed)
    return (rng.standard_normal((BATCH, SIDE, SIDE, CHANNELS), dtype=np.float32),
            rng.integers(0, CLASSES, BATCH))


# ---- minitape ------------------------------------------------------------------------------

def minitape_step(repeats: int) -> dict:
    import minitape as tf
    layers = tf.keras.layers

    def conv(channels, size, stride=1):
        return layers.Conv2D(channels, size, strides=stride, padding="same", use_bias=False)

    class Block(tf.keras.Model):
        def __init__(self, channels: int, stride: int) -> None:
            super().__init__()
            self.conv1, self.bn1 = conv(channels, 3, stride), layers.BatchNormalization()
            self.conv2, self.bn2 = conv(channels, 3), layers.BatchNormalization()
            self.project = (conv(channels, 1, stride), layers.BatchNormalization()) if stride > 1 else None

        def call(self, x, training=None):
            h = tf.nn.relu(self.bn1(self.conv1(x), training=training))
            shortcut = x if self.project is None else self.project[1](self.project[0](x), training=training)
            return tf.nn.relu(shortcut + self.bn2(self.conv2(h), training=training))

    class ResNet(tf.keras.Model):
        def __init__(self) -> None:
            super().__init__()
            self.stem, self.bn = conv(16, 3), layers.BatchNormalization()
            self.blocks = [Block(channels, stride) for channels, stride in WIDTHS]
            self.pool, self.logits = layers.GlobalAveragePooling2D(), layers.Dense(CLASSES)

        def call(self, x, training=None):
            h = tf.nn.relu(self.bn(self.stem(x), training=training))
            for block in self.blocks:
                h = block(h, training=training)
            return self.logits(self.pool(h))

    tf.keras.utils.set_random_seed(0)
    model, optimizer = ResNet(), tf.keras.optimizers.Adam(1e-3)
    x, y = (tf.constant(a) for a in data())
    model(x)                                                 # build the weights before any tape

    def step():
        with tf.GradientTape() as tape:
            logits = model(x, training=True)
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(y, logits))
        optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))

    return median_step(step, repeats)


# ---- PyTorch (run in its own interpreter: no minitape there) ----------------------------------

def torch_step(repeats: int, channels_last: bool) -> dict:
    import torch
    from torch import nn

    torch.set_num_threads(1)
    torch.manual_seed(0)

    def conv_bn(inputs, channels, size, stride=1):
        return nn.Sequential(nn.Conv2d(inputs, channels, size, stride, padding=size // 2, bias=False),
                             nn.BatchNorm2d(channels))

    class Block(nn.Module):
        def __init__(self, inputs: int, channels: int, stride: int) -> None:
            super().__init__()
            self.first, self.second = conv_bn(inputs, channels, 3, stride), conv_bn(channels, channels, 3)
            self.project = conv_bn(inputs, channels, 1, stride) if stride > 1 else nn.Identity()

        def forward(self, x):
            return torch.relu(self.project(x) + self.second(torch.relu(self.first(x))))

    blocks, inputs = [], 16
    for channels, stride in WIDTHS:
        blocks.append(Block(inputs, channels, stride))
        inputs = channels
    model = nn.Sequential(conv_bn(CHANNELS, 16, 3), nn.ReLU(), *blocks,
                          nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(inputs, CLASSES))
    images, labels = data()
    x, y = torch.from_numpy(images.transpose(0, 3, 1, 2).copy()), torch.from_numpy(labels)
    if channels_last:
        model, x = model.to(memory_format=torch.channels_last), x.to(memory_format=torch.channels_last)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, eps=1e-7)

    def step():
        optimizer.zero_grad()
        nn.functional.cross_entropy(model(x), y).backward()
        optimizer.step()

    return median_step(step, repeats) | {"torch": torch.__version__, "threads": torch.get_num_threads()}


# ---- conv2d alone: benchmarks/cnn.py's problem, forward + backward --------------------------------

def minitape_conv(repeats: int) -> dict:
    import cnn
    import minitape as tf

    x, w, g = (tf.constant(a) for a in cnn.problem())

    def step():
        with tf.GradientTape() as tape:
            tape.watch([x, w])
            y = tf.nn.conv2d(x, w, strides=1, padding="SAME")
        tape.gradient(y, [x, w], output_gradients=g)

    return median_step(step, repeats)


def torch_conv(repeats: int, channels_last: bool) -> dict:
    import cnn
    import torch

    torch.set_num_threads(1)
    layout = torch.channels_last if channels_last else torch.contiguous_format
    x, w, g = cnn.problem()
    x = torch.from_numpy(x.transpose(0, 3, 1, 2).copy()).to(memory_format=layout).requires_grad_()
    w = torch.from_numpy(w.transpose(3, 2, 0, 1).copy()).requires_grad_()
    g = torch.from_numpy(g.transpose(0, 3, 1, 2).copy()).to(memory_format=layout)

    def step():
        torch.autograd.grad(torch.nn.functional.conv2d(x, w, padding=1), [x, w], g)

    return median_step(step, repeats) | {"torch": torch.__version__, "threads": torch.get_num_threads()}


SIDES = {"minitape": (minitape_step, minitape_conv),
         "nchw": (lambda repeats: torch_step(repeats, False), lambda repeats: torch_conv(repeats, False)),
         "channels_last": (lambda repeats: torch_step(repeats, True), lambda repeats: torch_conv(repeats, True))}


def in_fresh_process(python: str, side: str, repeats: int, conv: bool, tree: str | None = None) -> dict:
    """One side's figures from a fresh process with one thread (``tree``: minitape from that checkout)."""
    return worker_figures([python, __file__, "--side", side, "--repeats", str(repeats)] + ["--conv"] * conv,
                          {"PYTHONPATH": tree} if tree else None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--torch", metavar="PYTHON", help="an interpreter that has torch (a scratch virtualenv)")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--repeats", type=int, default=15, help="timed steps per process")
    parser.add_argument("--against", metavar="TREE", help="also time minitape from another checkout (before a change)")
    parser.add_argument("--conv", action="store_true", help="time conv2d forward + backward alone (cnn.py's problem)")
    parser.add_argument("--side", choices=list(SIDES), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.side:
        return print(json.dumps(SIDES[args.side][args.conv](args.repeats)))
    pythons = {"minitape": sys.executable} | ({"nchw": args.torch, "channels_last": args.torch} if args.torch else {})
    trees = {"before": args.against} if args.against else {}
    pythons |= {side: sys.executable for side in trees}
    results = {side: [] for side in pythons}
    for k in range(args.rounds):
        order = list(pythons)[k % len(pythons):] + list(pythons)[:k % len(pythons)]   # each side leads in turn
        for side in order:
            results[side].append(in_fresh_process(pythons[side], "minitape" if side in trees else side,
                                                  args.repeats, args.conv, trees.get(side)))
        print(f"round {k + 1}/{args.rounds} done", file=sys.stderr)
    what = ("conv2d forward + backward (cnn.py's problem)" if args.conv
            else f"ResNet training step (batch {BATCH}, {SIDE}x{SIDE}x{CHANNELS}, Adam)")
    print(f"{what}, medians of {args.rounds} rounds of fresh processes, 1 thread each; wall time, and CPU time "
          f"(which leaves out waits for a core); {numpy_blas()}:")
    ours = results["minitape"]
    print(f"    minitape {statistics.median(r['ms'] for r in ours):.1f} ms "
          f"(CPU {statistics.median(r['cpu ms'] for r in ours):.1f} ms)")
    for side in [s for s in pythons if s != "minitape"]:
        theirs = results[side]
        name = f"minitape at {args.against}" if side in trees else f"PyTorch {theirs[0]['torch']} {side}"
        ratios = [statistics.median(o[key] / t[key] for o, t in zip(ours, theirs)) for key in ("ms", "cpu ms")]
        print(f"    {name}: {statistics.median(r['ms'] for r in theirs):.1f} ms (CPU "
              f"{statistics.median(r['cpu ms'] for r in theirs):.1f} ms); minitape / it = {ratios[0]:.2f} wall, "
              f"{ratios[1]:.2f} CPU (medians of per-round ratios{'; target ≤ 1.0' if side not in trees else ''})")
    if not args.torch:
        print("    (no --torch interpreter: no PyTorch figures)")


if __name__ == "__main__":
    main()
