"""An LSTM's forward and backward pass: minitape's ``keras.layers.LSTM`` against PyTorch's ``nn.LSTM``.

``LSTM(32)`` over a batch of 16 sequences of 100 steps of 8 features, float32, returning the last output;
one pass is the forward pass, the sum of the output and the backward pass to every weight.  Each side
runs in its own process, 1 thread, the two in turn round after round; it prints each side's median and
the median of the per-round ratios.

Run:  .venv/bin/python benchmarks/rnn.py --torch /tmp/torchvenv/bin/python [--rounds 5]
"""
from __future__ import annotations

from sequence import against_torch, median_step, paired_rounds

BATCH, STEPS, FEATURES, UNITS = 16, 100, 8, 32


def data():
    import numpy as np
    return np.random.default_rng(0).standard_normal((BATCH, STEPS, FEATURES)).astype(np.float32)


def minitape_figures(repeats: int) -> dict:
    import minitape as tf
    layer, x = tf.keras.layers.LSTM(UNITS), tf.constant(data())
    layer(x)

    def step():
        with tf.GradientTape() as tape:
            total = tf.reduce_sum(layer(x))
        tape.gradient(total, layer.trainable_variables)

    return {"none ms": median_step(step, repeats)}


def torch_figures(repeats: int) -> dict:
    import torch

    torch.set_num_threads(1)
    layer, x = torch.nn.LSTM(FEATURES, UNITS, batch_first=True), torch.from_numpy(data())

    def step():
        layer.zero_grad()
        layer(x)[0][:, -1].sum().backward()

    return {"torch ms": median_step(step, repeats), "torch": torch.__version__}


def main() -> None:
    run = paired_rounds(__doc__, __file__, minitape_figures, torch_figures, rounds=5, repeats=10)
    if run is None:
        return
    args, ours, theirs = run
    print(f"LSTM({UNITS}) on {BATCH}×{STEPS}×{FEATURES}, forward + backward, medians of {args.rounds} rounds, 1 thread")
    print(against_torch(ours, theirs, "none ms", "torch ms", "ms"))


if __name__ == "__main__":
    main()
