"""Keras' own training loop: ``compile``, then ``fit``, ``evaluate`` and ``predict``.

``fit`` is the loop the course writes by hand, run for you: for each epoch, the examples
(shuffled unless ``shuffle=False``) in batches of ``batch_size``; for each batch,
``train_step`` runs the model under a tape with ``training=True``, takes the
gradient of the loss and lets the optimiser apply it.  What it reports is Keras 3's: the
loss shown for an epoch is the mean of its batches' losses, each weighted by its number of
examples (``Mean`` with the batch size as weight), and the metrics are means over every
example of the epoch; ``val_`` entries come from ``evaluate`` on
``validation_data`` after each epoch.  Log names are sorted, as TF's Keras returns them.

>>> import minitape as tf
>>> tf.random.set_seed(0)
>>> model = tf.keras.Sequential([tf.keras.layers.Dense(2, activation="softmax")])
>>> model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
>>> x, y = np.array([[1.0, 0.0], [0.0, 1.0]] * 8), np.array([0, 1] * 8)
>>> history = model.fit(x, y, batch_size=4, epochs=3, verbose=0)
>>> sorted(history.history), len(history.history["loss"])
(['accuracy', 'loss'], 3)
>>> model.predict(x[:2], verbose=0).shape
(2, 2)
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from minitape import ops
from minitape.autodiff.tape import GradientTape
from minitape.core import dtypes, random
from minitape.core.tensor import Tensor, constant
from minitape.keras import losses, optimizers
from minitape.keras import metrics as metrics_module
from minitape.keras.callbacks import Callback, History
from minitape.keras.layers.layer import takes_training
from minitape.keras.progbar import ProgressBar


def _as_array(data: Any) -> np.ndarray:
    """Inputs or labels on the host; floating ones as float32, as Keras' data adapters give them."""
    array = np.asarray(data.numpy() if hasattr(data, "numpy") else data)
    return array.astype(np.float32) if np.issubdtype(array.dtype, np.floating) else array


def _batches(order: np.ndarray, batch_size: int) -> Iterator[np.ndarray]:
    """The rows of each batch, in ``order``; the last batch holds what is left."""
    for start in range(0, len(order), batch_size):
        yield order[start:start + batch_size]


def _verbosity(verbose: int | str) -> int:
    return 1 if verbose == "auto" else int(verbose)


class Trainer:
    """What ``Model`` adds to a layer to train it Keras' way (``Model`` and ``Sequential`` have these methods).

    >>> import minitape as tf
    >>> issubclass(tf.keras.Model, tf.keras.trainer.Trainer)
    True
    """

    compiled = False
    optimizer: Any = None

    def compile(self, optimizer: Any = "rmsprop", loss: Any = None, metrics: Any = None,
                run_eagerly: bool | None = None, jit_compile: Any = None, steps_per_execution: int = 1) -> None:
        """Choose the optimiser, the loss and the metrics, by name or as objects.

        ``run_eagerly``, ``jit_compile`` and ``steps_per_execution`` are accepted for Keras'
        sake; minitape always runs eagerly, one step at a time.

        >>> import minitape as tf
        >>> model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        >>> model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse", metrics=["mse"])
        >>> type(model.optimizer).__name__, type(model.loss).__name__
        ('SGD', 'LossFunctionWrapper')
        """
        self.optimizer = optimizers.get(optimizer)
        self.loss = None if loss is None else losses.compiled(loss)
        self._metric_ids = [] if metrics is None else list(metrics) if isinstance(metrics, list | tuple) else [metrics]
        self._metrics: list[metrics_module.Metric] | None = None      # resolved on the first batch, as Keras does
        self._loss_tracker = metrics_module.Mean(name="loss")
        self.compiled = True

    @property
    def metrics(self) -> list:
        """The metrics ``fit`` reports: the loss's running mean, then the compiled ones (after the first batch).

        >>> import minitape as tf
        >>> model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        >>> model.compile(loss="mse")
        >>> [m.name for m in model.metrics]
        ['loss']
        """
        return [self._loss_tracker, *(self._metrics or [])] if self.compiled else []

    def train_step(self, data: tuple[Any, Any]) -> dict[str, float]:
        """One step on a batch ``(x, y)``: forward under a tape, gradient of the loss, the optimiser's update.

        Returns the running means so far (what the progress bar shows).  Override it to train
        another way; ``fit`` calls it for every batch.

        >>> import minitape as tf
        >>> model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer="zeros")])
        >>> model.compile(optimizer="sgd", loss="mse")
        >>> model.train_step((tf.ones((2, 3)), tf.ones((2, 1))))
        {'loss': 1.0}
        """
        x, y = data
        with GradientTape() as tape:
            y_pred = self._forward(x, training=True)
            loss = self._compute_loss(y, y_pred)
        variables = self.trainable_variables
        self.optimizer.apply_gradients(zip(tape.gradient(loss, variables), variables))
        return self._update_metrics(y, y_pred, loss, len(x))

    def test_step(self, data: tuple[Any, Any]) -> dict[str, float]:
        """One evaluation step on a batch ``(x, y)``, with ``training=False``: the running means so far.

        >>> import minitape as tf
        >>> model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer="zeros")])
        >>> model.compile(loss="mse")
        >>> model.test_step((tf.ones((2, 3)), 3 * tf.ones((2, 1))))
        {'loss': 9.0}
        """
        x, y = data
        y_pred = self._forward(x, training=False)
        return self._update_metrics(y, y_pred, self._compute_loss(y, y_pred), len(x))

    def predict_step(self, data: Any) -> Tensor:
        """The model's output on one batch of inputs, with ``training=False``.

        >>> import minitape as tf
        >>> model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer="ones")])
        >>> model.predict_step(tf.ones((1, 3))).numpy()
        array([[3.]], dtype=float32)
        """
        return self._forward(data, training=False)

    def _forward(self, x: Any, training: bool) -> Tensor:
        # As Keras: a model whose call takes no `training` is called without one (its layers then infer).
        return self(x, training=training) if takes_training(type(self)) else self(x)

    def _compute_loss(self, y: Any, y_pred: Tensor) -> Tensor:
        # As Keras: the compiled loss, plus each loss of `self.losses` (add_loss, regularizers) summed to a scalar;
        # a non-floating term is cast to float32 (Keras' floatx), a floating one is kept.
        terms = [] if self.loss is None else [self.loss(y, y_pred)]
        terms += [ops.reduce_sum(term if term.dtype.is_floating else ops.cast(term, dtypes.float32))
                  for term in self.losses]
        if not terms:
            raise ValueError("No loss to compute. Provide a `loss` argument in `compile()`.")
        for term in terms[1:]:            # as Keras: floating terms are summed as they are, so they must agree
            if term.dtype != terms[0].dtype:
                raise TypeError(f"Cannot convert a list containing a tensor of dtype {term.dtype} to {terms[0].dtype} "
                                f"(Tensor is: {term!r}). The compiled loss and `model.losses` (add_loss, "
                                f"regularizers) are summed: give them one dtype, e.g. "
                                f"tf.cast(loss, tf.{terms[0].dtype.name}) in `add_loss`.")
        return terms[0] if len(terms) == 1 else ops.reduce_sum(ops.stack(terms))

    def _update_metrics(self, y: Any, y_pred: Tensor, loss: Tensor, batch_size: int) -> dict[str, float]:
        if self._metrics is None:
            self._metrics = [metrics_module.get(m, y, y_pred) for m in self._metric_ids]
        self._loss_tracker.update_state(loss, sample_weight=batch_size)
        for metric in self._metrics:
            metric.update_state(y, y_pred)
        return {m.name: float(m.result()) for m in sorted(self.metrics, key=lambda m: m.name)}

    def _reset_metrics(self) -> None:
        for metric in self.metrics:
            metric.reset_state()

    def _require_compile(self) -> None:
        if not self.compiled:
            raise ValueError("You must call `compile()` before using the model.")

    def fit(self, x: Any = None, y: Any = None, batch_size: int | None = None, epochs: int = 1,
            verbose: int | str = "auto", callbacks: Sequence[Callback] | None = None, validation_split: float = 0.0,
            validation_data: tuple[Any, Any] | None = None, shuffle: bool = True, initial_epoch: int = 0,
            validation_batch_size: int | None = None) -> History:
        """Train for ``epochs`` passes over ``(x, y)`` in batches of ``batch_size`` (32); returns the ``History``.

        ``validation_split`` holds out the last fraction of the examples (before shuffling) as
        ``validation_data``.  Shuffling draws from minitape's seeded random source, so
        ``tf.random.set_seed`` (or ``keras.utils.set_random_seed``) makes it repeatable.

        >>> import minitape as tf
        >>> model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer="zeros")])
        >>> model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
        >>> x, y = np.ones((8, 1)), 2 * np.ones((8, 1))
        >>> history = model.fit(x, y, batch_size=4, epochs=2, validation_data=(x, y), verbose=0)
        >>> {name: [round(v, 3) for v in values] for name, values in history.history.items()}
        {'loss': [2.72, 0.353], 'val_loss': [0.518, 0.067]}
        """
        self._require_compile()
        if y is None:
            raise ValueError("fit needs labels: call model.fit(x, y, ...).")
        x, y = _as_array(x), _as_array(y)
        if len(x) != len(y):
            raise ValueError(f"Data cardinality is ambiguous: x has {len(x)} examples but y has {len(y)}. Make sure "
                             f"all arrays contain the same number of samples.")
        if validation_split and validation_data is None:
            split = int(len(x) * (1 - validation_split))
            x, y, validation_data = x[:split], y[:split], (x[split:], y[split:])
        batch_size, verbose = batch_size or 32, _verbosity(verbose)
        steps = -(-len(x) // batch_size)
        history = History()
        for callback in [history, *(callbacks or [])]:
            callback.model, callback.params = self, {"verbose": verbose, "epochs": epochs, "steps": steps}
        callbacks = [history, *(callbacks or [])]
        for callback in callbacks:
            callback.on_train_begin()
        shuffler = np.random.default_rng(random.draw_seed())
        logs: dict[str, float] = {}
        for epoch in range(initial_epoch, epochs):
            for callback in callbacks:
                callback.on_epoch_begin(epoch)
            self._reset_metrics()
            bar = ProgressBar(steps, verbose, title=f"Epoch {epoch + 1}/{epochs}")
            order = shuffler.permutation(len(x)) if shuffle else np.arange(len(x))
            for step, rows in enumerate(_batches(order, batch_size)):
                logs = self.train_step((constant(x[rows]), constant(y[rows])))
                bar.update(step + 1, logs)
                for callback in callbacks:
                    callback.on_train_batch_end(step, logs)
            if validation_data is not None:
                validation = self.evaluate(*validation_data, batch_size=validation_batch_size or batch_size, verbose=0,
                                           return_dict=True)
                logs = {**logs, **{f"val_{name}": value for name, value in validation.items()}}
            bar.close(logs)
            for callback in callbacks:
                callback.on_epoch_end(epoch, logs)
        for callback in callbacks:
            callback.on_train_end(logs)
        self.history = history
        return history

    def evaluate(self, x: Any = None, y: Any = None, batch_size: int | None = None, verbose: int | str = "auto",
                 return_dict: bool = False) -> float | list[float] | dict[str, float]:
        """The loss and metrics over ``(x, y)``, in batches, with ``training=False``.

        Returns the loss alone when there are no metrics, else ``[loss, *metrics]`` in
        compile's order, or a dict with ``return_dict=True``.

        >>> import minitape as tf
        >>> model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer="zeros")])
        >>> model.compile(loss="mse", metrics=["mse"])
        >>> model.evaluate(np.ones((3, 2)), 2 * np.ones((3, 1)), verbose=0)
        [4.0, 4.0]
        """
        self._require_compile()
        x, y = _as_array(x), _as_array(y)
        batch_size = batch_size or 32
        self._reset_metrics()
        bar = ProgressBar(-(-len(x) // batch_size), _verbosity(verbose))
        logs: dict[str, float] = {}
        for step, rows in enumerate(_batches(np.arange(len(x)), batch_size)):
            logs = self.test_step((constant(x[rows]), constant(y[rows])))
            bar.update(step + 1, logs)
        bar.close(logs)
        if return_dict:
            return logs
        values = [logs["loss"], *(logs[m.name] for m in self._metrics or [])]
        return values if len(values) > 1 else values[0]

    def predict(self, x: Any, batch_size: int | None = None, verbose: int | str = "auto") -> np.ndarray:
        """The model's outputs for ``x``, computed in batches with ``training=False``, as one NumPy array.

        >>> import minitape as tf
        >>> model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer="ones")])
        >>> model.predict(np.ones((5, 2)), batch_size=2, verbose=0).ravel()
        array([2., 2., 2., 2., 2.], dtype=float32)
        """
        x = _as_array(x)
        batch_size = batch_size or 32
        bar = ProgressBar(-(-len(x) // batch_size), _verbosity(verbose))
        outputs = []
        for step, rows in enumerate(_batches(np.arange(len(x)), batch_size)):
            outputs.append(self.predict_step(constant(x[rows])).numpy())
            bar.update(step + 1, {})
        bar.close({})
        return np.concatenate(outputs)

