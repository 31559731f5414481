"""Recurrent layers' forward and backward pass: minitape's Keras ``LSTM``, ``GRU`` and ``SimpleRNN`` against PyTorch's.

``LSTM(32)``, ``GRU(32)`` (PyTorch's GRU is Keras 3's ``reset_after=True``) and ``SimpleRNN(32)`` (PyTorch's
``RNN``, tanh) over a batch of 16 sequences of 100 steps of 8 features, float32, returning the last output;
one pass is the forward pass, the sum of the output and the backward pass to every weight.  Each side runs
in its own process, 1 thread, the two in turn round after round; it prints each side's median and the
median of the per-round ratios.

Run:  .venv/bin/python benchmarks/rnn.py --torch /tmp/torchvenv/bin/python [--rounds 5]
"""
from __future__ import annotations

from sequence import against_torch, median_step, numpy_blas, paired_rounds

BATCH, STEPS, FEATURES, UNITS = 16, 100, 8, 32
LAYERS = {"LSTM": "LSTM", "GRU": "GRU", "SimpleRNN": "RNN"}          # Keras' name: PyTorch's


def data():
    import numpy as np
    return np.random.default_rng(0).standard_normal((BATCH, STEPS, FEATURES)).astype(np.float32)


def minitape_figures(repeats: int) -> dict:
    import minitape as tf
    x, figures = tf.constant(data()), {}
    for name in LAYERS:
        layer = getattr(tf.keras.layers, name)(UNITS)
        layer(x)

        def step():
            with tf.GradientTape() as tape:
                total = tf.reduce_sum(layer(x))
            tape.gradient(total, layer.trainable_variables)

        figures[f"{name} ms"] = median_step(step, repeats)
    return figures


def torch_figures(repeats: int) -> dict:
    import torch

    torch.set_num_threads(1)
    x, figures = torch.from_numpy(data()), {"torch": torch.__version__}
    for name, torch_name in LAYERS.items():
        layer = getattr(torch.nn, torch_name)(FEATURES, UNITS, batch_first=True)

        def step():
            layer.zero_grad()
            layer(x)[0][:, -1].sum().backward()

        figures[f"torch {name} ms"] = median_step(step, repeats)
    return figures


def main() -> None:
    run = paired_rounds(__doc__, __file__, minitape_figures, torch_figures, rounds=5, repeats=10)
    if run is None:
        return
    args, ours, theirs = run
    for name in LAYERS:
        print(f"{name}({UNITS}) on {BATCH}×{STEPS}×{FEATURES}, forward + backward, medians of {args.rounds} rounds, "
              f"1 thread; {numpy_blas()}")
        print(against_torch(ours, theirs, f"{name} ms", f"torch {name} ms", "ms"))


if __name__ == "__main__":
    main()
