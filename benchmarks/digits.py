"""A real model on real data: an MLP on scikit-learn's handwritten digits (issue [keras]).

1,797 8×8 images ship with scikit-learn, so this runs offline.  The same MLP
(64-64-64-10, tanh, Adam) is trained twice from the same initial weights and
the same batches: plainly, and with each hidden block under ``recompute_grad``.
It prints test accuracy, time, the loss curves' largest difference, and the
bytes each tape holds after a forward pass over one batch.  Those two figures
are equal, and should be: minitape's plain tape already keeps only each
block's output, and checkpointing a block keeps its input instead, which is
the same tensor.  Checkpointing pays off across several blocks
(``benchmarks/checkpoint.py``).

Run:  .venv/bin/python benchmarks/digits.py
"""
from __future__ import annotations

import time

import numpy as np
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split
from tqdm.auto import tqdm

import minitape as tf


def digits(seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    images, labels = load_digits(return_X_y=True)
    x = (images / 16.0).astype(np.float32)
    return train_test_split(x, labels, test_size=0.25, stratify=labels, random_state=seed)


class MLP(tf.keras.Model):
    """Two tanh blocks and a linear read-out; ``checkpoint`` puts each block under recompute_grad."""

    def __init__(self, checkpoint: bool = False, width: int = 64) -> None:
        super().__init__()
        self.hidden = [tf.keras.layers.Dense(width, activation="tanh") for _ in range(2)]
        self.readout = tf.keras.layers.Dense(10)
        self.blocks = [tf.recompute_grad(layer) if checkpoint else layer for layer in self.hidden]

    def call(self, x: tf.Tensor) -> tf.Tensor:
        for block in self.blocks:
            x = block(x)
        return self.readout(x)


def build(checkpoint: bool, seed: int = 0) -> MLP:
    tf.random.set_seed(seed)              # the same initial weights for both models
    model = MLP(checkpoint)
    model(tf.zeros((1, 64)))
    return model


def train(model: MLP, x: np.ndarray, y: np.ndarray, epochs: int, batch: int = 32, seed: int = 0,
          progress: bool = False) -> list[float]:
    """Adam on shuffled mini-batches; returns the mean loss of each epoch."""
    optimizer = tf.keras.optimizers.Adam(learning_rate=3e-3)
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    order = np.random.default_rng(seed)
    curve = []
    for _ in tqdm(range(epochs), desc="epochs", disable=not progress):
        losses = []
        permutation = order.permutation(len(x))
        for start in range(0, len(x), batch):
            rows = permutation[start:start + batch]
            with tf.GradientTape() as tape:
                loss = loss_fn(y[rows], model(tf.constant(x[rows])))
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
            losses.append(float(loss))
        curve.append(float(np.mean(losses)))
    return curve


def accuracy(model: MLP, x: np.ndarray, y: np.ndarray) -> float:
    return float(np.mean(np.argmax(model(tf.constant(x)).numpy(), axis=1) == y))


def held_bytes(model: MLP, x: np.ndarray, y: np.ndarray) -> int:
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    with tf.GradientTape() as tape:
        loss_fn(y, model(tf.constant(x)))
    return tape.memory_info()["current"]


def main(epochs: int = 40) -> None:
    x_train, x_test, y_train, y_test = digits()
    results = {}
    for checkpoint in (False, True):
        model = build(checkpoint)
        start = time.perf_counter()
        curve = train(model, x_train, y_train, epochs, progress=True)
        seconds = time.perf_counter() - start
        results[checkpoint] = (curve, accuracy(model, x_test, y_test), seconds, held_bytes(model, x_train[:256], y_train[:256]))
    for checkpoint, (curve, acc, seconds, held) in results.items():
        name = "each hidden block under recompute_grad" if checkpoint else "plain"
        print(f"{name:<40} test accuracy {acc:.4f}  time {seconds:.1f} s  final loss {curve[-1]:.5f}  "
              f"held after a 256-example forward: {held / 1024:.1f} KiB")
    difference = np.max(np.abs(np.array(results[False][0]) - np.array(results[True][0])))
    print(f"largest difference between the two loss curves: {difference:.2e}")


if __name__ == "__main__":
    main()
