"""A tiny transformer's training step: minitape against PyTorch, and checkpointing's price (issue [sequence-models]).

The model is notebook 09's: token and position embeddings, 4 blocks of LayerNormalization →
causal multi-head attention (2 heads) → residual → LayerNormalization → Dense(4·32, relu) →
Dense(32) → residual, a last LayerNormalization and a Dense to a 55-character vocabulary;
width 32, context 32, batch 8, float32. One step is the forward pass, the mean cross-entropy,
the backward pass and an Adam update.

It prints
(a) minitape's step against the same model written in PyTorch (CPU eager, ``torch.nn`` modules,
    the same causal attention and the same Adam), each in its own process, 1 thread, the two run
    in turn round after round: each side's median and the median of the per-round ratios, by the
    wall clock and by CPU time;
(b) the bytes the tape holds after the blocks' forward pass (their input made before the tape, and
    watched) with no checkpointing, each block under ``recompute_grad`` and √L segments
    (``checkpoint_sequential``), beside the theory notebook 09 derives: a block keeps
    P = 12·A + 2·R + S bytes (A one activation, R one float per token, S the attention
    weights; the causal mask is made once, before the tape), so none L·P − A, per block (L − 1)·A,
    √L segments (√L − 1)·A;
(c) each checkpointed mode's step time as a ratio to no checkpointing (target: √L ≤ 1.4×).

Run:  .venv/bin/python benchmarks/sequence.py --torch /tmp/torchvenv/bin/python [--rounds 7]
      (a scratch virtualenv with torch: ``python -m venv /tmp/torchvenv && /tmp/torchvenv/bin/pip install torch numpy``)
"""
from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import time

VOCAB, CONTEXT, WIDTH, HEADS, DEPTH, BATCH = 55, 32, 32, 2, 4, 8
ACTIVATION = BATCH * CONTEXT * WIDTH * 4                 # A: bytes of one block's input or output
TOKEN_FLOATS = BATCH * CONTEXT * 4                       # R: one float per token
SCORES = BATCH * HEADS * CONTEXT * CONTEXT * 4           # S: the attention weights
PER_BLOCK = 12 * ACTIVATION + 2 * TOKEN_FLOATS + SCORES     # layer norms and attention fused
THEORY = {"none": DEPTH * PER_BLOCK - ACTIVATION, "block": (DEPTH - 1) * ACTIVATION,
          "sqrt": (math.isqrt(DEPTH) - 1) * ACTIVATION}
ONE_THREAD = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


def data(seed: int = 0):
    import numpy as np
    rng = np.random.default_rng(seed)
    return (rng.integers(0, VOCAB, (BATCH, CONTEXT)), rng.integers(0, VOCAB, (BATCH, CONTEXT)))


def median_step(step, repeats: int, warmup: int = 3, clock=time.perf_counter) -> float:
    """The median time of ``step()`` in milliseconds, by ``clock`` (``time.process_time``: CPU time, for a shared
    machine)."""
    for _ in range(warmup):
        step()
    times = []
    for _ in range(repeats):
        start = clock()
        step()
        times.append(clock() - start)
    return statistics.median(times) * 1e3


# ---- minitape ------------------------------------------------------------------------------

def minitape_model():
    import minitape as tf
    layers = tf.keras.layers

    class Block(tf.keras.Model):
        def __init__(self) -> None:
            super().__init__()
            self.norm1, self.norm2 = layers.LayerNormalization(), layers.LayerNormalization()
            self.attention = layers.MultiHeadAttention(num_heads=HEADS, key_dim=WIDTH // HEADS)
            self.expand, self.project = layers.Dense(4 * WIDTH, activation="relu"), layers.Dense(WIDTH)

        def call(self, x):
            h = self.norm1(x)
            x = x + self.attention(h, h, use_causal_mask=True)
            return x + self.project(self.expand(self.norm2(x)))

    class CharTransformer(tf.keras.Model):
        def __init__(self) -> None:
            super().__init__()
            self.tokens, self.positions = layers.Embedding(VOCAB, WIDTH), layers.Embedding(CONTEXT, WIDTH)
            self.blocks = [Block() for _ in range(DEPTH)]
            self.norm, self.logits = layers.LayerNormalization(), layers.Dense(VOCAB)

        def embed(self, x):
            return self.tokens(x) + self.positions(tf.range(x.shape[1]))

        def run_blocks(self, h, checkpoint):
            if checkpoint == "sqrt":
                return tf.checkpoint_sequential(self.blocks, math.isqrt(DEPTH), h)
            for block in self.blocks:
                h = (tf.recompute_grad(block) if checkpoint == "block" else block)(h)
            return h

        def call(self, x, checkpoint="none"):
            return self.logits(self.norm(self.run_blocks(self.embed(x), checkpoint)))

    tf.keras.utils.set_random_seed(0)
    return tf, CharTransformer()


def minitape_figures(repeats: int) -> dict:
    """Step times per mode, and the bytes held after the forward pass per mode."""
    tf, model = minitape_model()
    x, y = (tf.constant(a) for a in data())
    optimizer = tf.keras.optimizers.Adam(1e-3)

    def step(checkpoint):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(y, model(x, checkpoint=checkpoint)))
        optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))

    def held(checkpoint):
        h = model.embed(x)                   # the blocks' input, made before the tape
        with tf.GradientTape() as tape:
            tape.watch(h)
            model.run_blocks(h, checkpoint)
        return tape.memory_info()["current"]

    figures = {"none cpu ms": median_step(lambda: step("none"), repeats, clock=time.process_time)}
    for mode in ("none", "block", "sqrt"):
        figures[f"{mode} ms"] = median_step(lambda: step(mode), repeats)
        figures[f"{mode} held"] = held(mode)
    return figures


# ---- PyTorch (run in its own interpreter: no minitape there) ----------------------------------

def torch_figures(repeats: int) -> dict:
    import torch
    from torch import nn

    torch.set_num_threads(1)
    torch.manual_seed(0)
    causal = torch.triu(torch.ones(CONTEXT, CONTEXT, dtype=torch.bool), diagonal=1)

    class Block(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.norm1, self.norm2 = nn.LayerNorm(WIDTH, eps=1e-3), nn.LayerNorm(WIDTH, eps=1e-3)
            self.attention = nn.MultiheadAttention(WIDTH, HEADS, batch_first=True)
            self.mlp = nn.Sequential(nn.Linear(WIDTH, 4 * WIDTH), nn.ReLU(), nn.Linear(4 * WIDTH, WIDTH))

        def forward(self, x):
            h = self.norm1(x)
            x = x + self.attention(h, h, h, attn_mask=causal, need_weights=False)[0]
            return x + self.mlp(self.norm2(x))

    class CharTransformer(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.tokens, self.positions = nn.Embedding(VOCAB, WIDTH), nn.Embedding(CONTEXT, WIDTH)
            self.blocks = nn.Sequential(*[Block() for _ in range(DEPTH)])
            self.norm, self.logits = nn.LayerNorm(WIDTH, eps=1e-3), nn.Linear(WIDTH, VOCAB)

        def forward(self, x):
            h = self.tokens(x) + self.positions(torch.arange(x.shape[1]))
            return self.logits(self.norm(self.blocks(h)))

    model = CharTransformer()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, eps=1e-7)
    x, y = (torch.from_numpy(a) for a in data())

    def step():
        optimizer.zero_grad()
        loss = nn.functional.cross_entropy(model(x).reshape(-1, VOCAB), y.reshape(-1))
        loss.backward()
        optimizer.step()

    return {"torch ms": median_step(step, repeats), "torch cpu ms": median_step(step, repeats, clock=time.process_time),
            "torch": torch.__version__, "threads": torch.get_num_threads()}


def worker_figures(command: list[str], env: dict | None = None, cwd: str | None = None) -> dict:
    """The figures a worker process prints as JSON on its last line; it runs with one thread (and ``env``)."""
    out = subprocess.run(command, env={**os.environ, **ONE_THREAD, **(env or {})}, cwd=cwd,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def in_fresh_process(python: str, side: str, repeats: int, script: str = __file__) -> dict:
    return worker_figures([python, script, f"--{side}-only", str(repeats)])


def paired_rounds(doc: str, script: str, minitape_figures, torch_figures, rounds: int, repeats: int):
    """The command line a peer comparison shares: as a worker (``--minitape-only``/``--torch-only``) print one
    side's figures and return None; else run the rounds, each side in a fresh process and each starting every
    other round, and return ``(args, ours, theirs)``."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--torch", metavar="PYTHON", help="an interpreter that has torch (a scratch virtualenv)")
    parser.add_argument("--rounds", type=int, default=rounds)
    parser.add_argument("--repeats", type=int, default=repeats)
    parser.add_argument("--minitape-only", type=int, metavar="REPEATS")
    parser.add_argument("--torch-only", type=int, metavar="REPEATS")
    args = parser.parse_args()
    if args.minitape_only or args.torch_only:
        figures = minitape_figures(args.minitape_only) if args.minitape_only else torch_figures(args.torch_only)
        return print(json.dumps(figures))
    ours, theirs = [], []
    for k in range(args.rounds):
        sides = [(sys.executable, "minitape", ours)] + ([(args.torch, "torch", theirs)] if args.torch else [])
        for python, side, results in sides if k % 2 == 0 else reversed(sides):   # each side starts every other round
            results.append(in_fresh_process(python, side, args.repeats, script))
        print(f"round {k + 1}/{args.rounds} done", file=sys.stderr)
    return args, ours, theirs


def numpy_blas() -> str:
    """Which BLAS NumPy multiplies with here, and its kernels: a figure of matrix work depends on them.

    An environment may force OpenBLAS's kernels (``OPENBLAS_CORETYPE``): the line says so.
    """
    import numpy as np
    try:
        from threadpoolctl import threadpool_info
    except ImportError:                       # scikit-learn brings it; without it, say less
        return f"NumPy {np.__version__}"
    blas = next((lib for lib in threadpool_info() if lib["user_api"] == "blas"), None)
    if blas is None:
        return f"NumPy {np.__version__}, BLAS not found"
    coretype = os.environ.get("OPENBLAS_CORETYPE")
    forced = f", forced by OPENBLAS_CORETYPE={coretype}" if coretype else ""
    return (f"NumPy {np.__version__} on {blas['internal_api']} {blas['version']} "
            f"({blas.get('architecture') or 'its own'} kernels{forced})")


def against_torch(ours: list, theirs: list, key: str, torch_key: str, unit: str) -> str:
    """The line a peer comparison prints: minitape's median, then PyTorch's and the median per-round ratio."""
    line = f"    minitape {statistics.median(r[key] for r in ours):.2f} {unit}"
    if not theirs:
        return line + " (no --torch interpreter: no PyTorch figure)"
    ratio = statistics.median(o[key] / t[torch_key] for o, t in zip(ours, theirs))
    return (line + f", PyTorch {theirs[0]['torch']} {statistics.median(t[torch_key] for t in theirs):.2f} {unit}:"
            f" minitape / PyTorch = {ratio:.2f}")


def main() -> None:
    run = paired_rounds(__doc__, __file__, minitape_figures, torch_figures, rounds=7, repeats=15)
    if run is None:
        return
    args, ours, theirs = run
    med = {key: statistics.median(r[key] for r in ours) for key in ours[0]}
    print(f"(a) training step, medians of {args.rounds} rounds, 1 thread each; {numpy_blas()}")
    print(against_torch(ours, theirs, "none ms", "torch ms", "ms"))
    print("    CPU time (steadier where other work shares the cores):")
    print(against_torch(ours, theirs, "none cpu ms", "torch cpu ms", "ms"))
    print(f"(b) bytes held after the blocks' forward pass (one activation A = {ACTIVATION:,} bytes)")
    for mode, theory in THEORY.items():
        held = int(med[f"{mode} held"])
        print(f"    {mode:>5}: {held:>9,}  theory {theory:>9,}  {'equal' if held == theory else 'DIFFERENT'}")
    print("(c) step time against no checkpointing (medians of per-round ratios)")
    for mode in ("block", "sqrt"):
        print(f"    {mode:>5}: {statistics.median(r[f'{mode} ms'] / r['none ms'] for r in ours):.2f}×")


if __name__ == "__main__":
    main()
