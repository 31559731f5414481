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

import inspect
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from minitape import ops
from minitape.autodiff.tape import GradientTape
from minitape.core import dtypes, nest
from minitape.core.tensor import Tensor
from minitape.keras import losses, optimizers
from minitape.keras import metrics as metrics_module
from minitape.keras.callbacks import Callback, CallbackList, History
from minitape.keras import data_adapter
from minitape.keras.compile_loss import CompileLoss
from minitape.keras.compile_utils import CompileMetrics, Reporting, class_weight_samples, pythonify_logs
from minitape.keras.layers.layer import takes_training
from minitape.keras.progbar import ProgressBar


def _verbosity(verbose: int | str) -> int:
    return 1 if verbose == "auto" else int(verbose)


class Trainer(Reporting):
    """What ``Model`` adds to a layer to train it Keras' way (``Model`` and ``Sequential`` have these methods).

    >>> import minitape as tf
    >>> issubclass(tf.keras.Model, tf.keras.trainer.Trainer)
    True
    """

    compiled = False
    optimizer: Any = None

    def compile(self, optimizer: Any = "rmsprop", loss: Any = None, loss_weights: Any = None, metrics: Any = None,
                run_eagerly: bool | None = None, jit_compile: Any = None, steps_per_execution: int = 1) -> None:
        """Choose the optimiser, the loss and the metrics, by name or as objects.

        A model of several outputs takes a list of losses (one per output) or a dict by output name, and
        ``loss_weights`` to weigh them in the total; ``metrics`` likewise (see ``CompileLoss`` and
        ``CompileMetrics``).  ``run_eagerly``, ``jit_compile`` and ``steps_per_execution`` are accepted for
        Keras' sake; minitape always runs eagerly, one step at a time.

        >>> import minitape as tf
        >>> model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        >>> model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse", metrics=["mse"])
        >>> type(model.optimizer).__name__, type(model.loss).__name__
        ('SGD', 'LossFunctionWrapper')
        """
        self.optimizer = optimizers.get(optimizer)
        output_names = getattr(self, "output_names", None)
        self._compile_loss = None if loss is None else CompileLoss(loss, loss_weights, output_names)
        self.loss = losses.compiled(loss) if loss is not None and not isinstance(loss, list | tuple | dict) else loss
        self._compile_metrics = None if metrics is None else CompileMetrics(metrics, output_names)
        self._loss_tracker = metrics_module.Mean(name="loss")
        self._compile_config = {"loss": loss, "loss_weights": loss_weights, "metrics": metrics}  # what `model.save` writes
        self.compiled = True

    def train_step(self, data: Any) -> dict[str, Tensor]:
        """One step on a batch ``(x, y)`` or ``(x, y, sample_weight)``: forward under a tape, gradient of the loss,
        the optimiser's update.

        Returns the metrics' running values so far (tensors; ``fit`` logs them as floats).  Override it
        to train another way, as keras.io's "customizing what happens in fit" does; ``fit`` calls it for
        every batch.

        >>> import minitape as tf
        >>> model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer="zeros")])
        >>> model.compile(optimizer="sgd", loss="mse")
        >>> model.train_step((tf.ones((2, 3)), tf.ones((2, 1))))
        {'loss': <minitape.Tensor: shape=(), dtype=float32, numpy=1.0>}
        """
        x, y, sample_weight = data_adapter.unpack_x_y_sample_weight(data)
        with GradientTape() as tape:
            y_pred = self._forward(x, training=True)
            loss = self._compute_loss(x, y, y_pred, sample_weight, training=True)
        self._loss_tracker.update_state(loss, sample_weight=_batch_size(x))
        variables = self.trainable_variables
        self.optimizer.apply_gradients(zip(tape.gradient(loss, variables), variables))
        return self.compute_metrics(x, y, y_pred, sample_weight)

    def test_step(self, data: Any) -> dict[str, Tensor]:
        """One evaluation step on a batch ``(x, y)``, with ``training=False``: the running values so far.

        >>> import minitape as tf
        >>> model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer="zeros")])
        >>> model.compile(loss="mse")
        >>> float(model.test_step((tf.ones((2, 3)), 3 * tf.ones((2, 1))))["loss"])
        9.0
        """
        x, y, sample_weight = data_adapter.unpack_x_y_sample_weight(data)
        y_pred = self._forward(x, training=False)
        loss = self._compute_loss(x, y, y_pred, sample_weight, training=False)
        self._loss_tracker.update_state(loss, sample_weight=_batch_size(x))
        return self.compute_metrics(x, y, y_pred, sample_weight)

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

    def compute_loss(self, x: Any = None, y: Any = None, y_pred: Any = None, sample_weight: Any = None,
                     training: bool = True) -> Tensor:
        """The loss to minimise (Keras 3's signature): the compiled loss of ``y`` and ``y_pred``, plus each loss
        of ``self.losses`` (``add_loss``, regularizers) summed to a scalar.  Override it to train on another loss.

        >>> import minitape as tf
        >>> model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        >>> model.compile(loss="mse")
        >>> model.compute_loss(y=tf.ones((2, 1)), y_pred=tf.zeros((2, 1)))
        <minitape.Tensor: shape=(), dtype=float32, numpy=1.0>
        """
        # As Keras: a non-floating term is cast to float32 (Keras' floatx), a floating one is kept.
        compiled = None if self._compile_loss is None else self._compile_loss(y, y_pred, sample_weight)
        terms = [] if compiled is None else [compiled]
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

    def _compute_loss(self, x: Any, y: Any, y_pred: Any, sample_weight: Any, training: bool) -> Tensor:
        # As Keras: an overriding compute_loss written before Keras 3.3 has no `training`.
        if "training" in inspect.signature(self.compute_loss).parameters:
            return self.compute_loss(x, y, y_pred, sample_weight, training=training)
        return self.compute_loss(x, y, y_pred, sample_weight)

    def compiled_loss(self, y: Any, y_pred: Any, sample_weight: Any = None, regularization_losses: Any = None) -> Tensor:
        """tf.keras' spelling, kept by Keras 3 with a warning: ``compute_loss(y=y, y_pred=y_pred, ...)``.

        >>> import minitape as tf, warnings
        >>> model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        >>> model.compile(loss="mse")
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     float(model.compiled_loss(tf.ones((2, 1)), tf.zeros((2, 1))))
        1.0
        """
        warnings.warn("`model.compiled_loss()` is deprecated. Instead, use "
                      "`model.compute_loss(x, y, y_pred, sample_weight, training)`.", stacklevel=2)
        return self.compute_loss(x=None, y=y, y_pred=y_pred, sample_weight=sample_weight)

    def _require_compile(self) -> None:
        if not self.compiled:
            raise ValueError("You must call `compile()` before using the model.")

    def fit(self, x: Any = None, y: Any = None, batch_size: int | None = None, epochs: int = 1,
            verbose: int | str = "auto", callbacks: Sequence[Callback] | None = None, validation_split: float = 0.0,
            validation_data: Any = None, shuffle: bool = True, sample_weight: Any = None, initial_epoch: int = 0,
            steps_per_epoch: int | None = None, validation_steps: int | None = None,
            validation_batch_size: int | None = None, validation_freq: int | Sequence[int] = 1,
            class_weight: dict[int, float] | None = None) -> History:
        """Train for ``epochs`` passes over the data; returns the ``History``.

        The data is arrays ``x``, ``y`` (and ``sample_weight``), cut into batches of ``batch_size`` (32),
        or a ``tf.data.Dataset`` or Python generator of ``(x, y)`` or ``(x, y, sample_weight)`` batches
        (then ``y`` stays ``None``, ``shuffle`` is ignored with Keras' warning, and ``batch_size``
        is ignored as Keras 3 ignores it).  ``steps_per_epoch`` makes an epoch that many batches of a
        stream that goes on (a ``repeat()``ed dataset).  ``validation_split`` holds out the last
        fraction of the arrays (before shuffling) as ``validation_data``, which may also be a Dataset.
        Shuffling draws from minitape's seeded random source, so ``tf.random.set_seed`` (or
        ``keras.utils.set_random_seed``) makes it repeatable.

        >>> import minitape as tf
        >>> model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer="zeros")])
        >>> model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
        >>> x, y = np.ones((8, 1)), 2 * np.ones((8, 1))
        >>> history = model.fit(x, y, batch_size=4, epochs=2, validation_data=(x, y), verbose=0)
        >>> {name: [round(v, 3) for v in values] for name, values in history.history.items()}
        {'loss': [2.72, 0.353], 'val_loss': [0.518, 0.067]}
        >>> dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(4).repeat()
        >>> len(model.fit(dataset, epochs=3, steps_per_epoch=2, shuffle=False, verbose=0).history["loss"])
        3
        """
        self._require_compile()
        if class_weight is not None:
            if data_adapter.is_stream(x) or y is None:
                raise ValueError("`class_weight` is only supported here for arrays `x` and `y`.")
            weights = class_weight_samples(class_weight, data_adapter.as_host_array(y))
            sample_weight = weights if sample_weight is None else weights * data_adapter.as_host_array(sample_weight)
        if validation_split and validation_data is None:
            if data_adapter.is_stream(x):
                raise ValueError("`validation_split` is only supported for Tensors or NumPy arrays.")
            (x, y, sample_weight), validation_data = data_adapter.split_arrays((x, y, sample_weight), validation_split)
        batches = data_adapter.EpochIterator(x, y, sample_weight, batch_size, steps_per_epoch, shuffle)
        if not self.built:                   # Keras 3 builds it for its data's batch spec: summary() shows that
            self._spec_batch = batches.spec_batch
        verbose = _verbosity(verbose)
        # As Keras 3: a History is added after the given callbacks (so it sees the logs they add to).
        callbacks = CallbackList(callbacks, add_history=True, model=self, verbose=verbose, epochs=epochs,
                                 steps=batches.steps)
        self.stop_training = False
        callbacks.on_train_begin()
        validation = None if validation_data is None else data_adapter.EpochIterator(
            *_validation_parts(validation_data), batch_size=validation_batch_size or batch_size,
            steps_per_epoch=validation_steps)
        logs: dict[str, float] | None = None
        for epoch in range(initial_epoch, epochs):
            self.reset_metrics()
            callbacks.on_epoch_begin(epoch)
            bar = ProgressBar(batches.steps, verbose, title=f"Epoch {epoch + 1}/{epochs}" if epochs > 1 else None)
            step = -1
            for step, batch in batches.epoch():
                callbacks.on_train_batch_begin(step)
                logs = pythonify_logs(self.train_step(batch))
                bar.update(step + 1, logs)
                callbacks.on_train_batch_end(step, logs)
                if self.stop_training:
                    break
            if step < 0:            # a generator used up: no batch left, so training ends here (with the warning)
                break
            if validation is not None and _should_validate(epoch, validation_freq):
                tested = self._run_test(validation, 0, callbacks)
                logs = {**logs, **{f"val_{name}": value for name, value in tested.items()}}
            bar.close(logs)
            logs = dict(logs or {})
            callbacks.on_epoch_end(epoch, logs)
            if self.stop_training:
                break
        if epochs > 0 and isinstance(self.optimizer, optimizers.Optimizer):
            self.optimizer.finalize_variable_values(self.trainable_variables)     # use_ema's averages
        callbacks.on_train_end(logs)
        self.history = callbacks.history
        return callbacks.history

    def _run_test(self, batches: data_adapter.EpochIterator, verbose: int,
                  callbacks: CallbackList) -> dict[str, float]:
        """One pass of ``test_step`` over the batches, telling ``callbacks``: the metrics' values at the end."""
        self.reset_metrics()
        if not self.built:
            self._spec_batch = batches.spec_batch
        bar = ProgressBar(batches.steps, verbose)
        logs: dict[str, float] = {}
        callbacks.on_test_begin()
        for step, batch in batches.epoch():
            callbacks.on_test_batch_begin(step)
            logs = pythonify_logs(self.test_step(batch))
            bar.update(step + 1, logs)
            callbacks.on_test_batch_end(step, logs)
        bar.close(logs)
        callbacks.on_test_end(logs)
        return logs

    def evaluate(self, x: Any = None, y: Any = None, batch_size: int | None = None, verbose: int | str = "auto",
                 sample_weight: Any = None, steps: int | None = None, callbacks: Sequence[Callback] | None = None,
                 return_dict: bool = False) -> float | list[float] | dict[str, float]:
        """The loss and metrics over ``(x, y)`` in batches (or over a Dataset's batches), with ``training=False``.

        Returns the loss alone when there are no metrics, else ``[loss, *metrics]`` in
        compile's order, or a dict with ``return_dict=True``.  ``callbacks`` are told each batch (``on_test_*``).

        >>> import minitape as tf
        >>> model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer="zeros")])
        >>> model.compile(loss="mse", metrics=["mse"])
        >>> model.evaluate(np.ones((3, 2)), 2 * np.ones((3, 1)), verbose=0)
        [4.0, 4.0]
        >>> model.evaluate(tf.data.Dataset.from_tensors((np.ones((3, 2)), np.ones((3, 1)))), verbose=0)
        [1.0, 1.0]
        """
        self._require_compile()
        batches, verbose = data_adapter.EpochIterator(x, y, sample_weight, batch_size, steps), _verbosity(verbose)
        logs = self._run_test(batches, verbose, CallbackList(callbacks, model=self, verbose=verbose, epochs=1,
                                                             steps=batches.steps))
        if return_dict:
            return logs
        names = [name for m in self.metrics for name in (
            [sub.name for sub in m.metrics] if isinstance(m, CompileMetrics) else [m.name])]
        values = [logs[name] for name in names if name in logs] + [logs[k] for k in sorted(logs) if k not in names]
        return values if len(values) > 1 else values[0]

    def predict(self, x: Any, batch_size: int | None = None, verbose: int | str = "auto",
                steps: int | None = None, callbacks: Sequence[Callback] | None = None) -> np.ndarray:
        """The model's outputs for ``x`` (arrays, or a Dataset whose batches hold ``x`` first), computed in batches
        with ``training=False``, as one NumPy array (a model of several outputs: one per output, in the
        structure of its outputs).  ``callbacks`` are told each batch (``on_predict_*``).

        >>> import minitape as tf
        >>> model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer="ones")])
        >>> model.predict(np.ones((5, 2)), batch_size=2, verbose=0).ravel()
        array([2., 2., 2., 2., 2.], dtype=float32)
        >>> model.predict(tf.data.Dataset.from_tensor_slices(np.ones((3, 2))).batch(2), verbose=0).shape
        (3, 1)
        """
        batches = data_adapter.EpochIterator(x, batch_size=batch_size, steps_per_epoch=steps)
        verbose = _verbosity(verbose)
        bar = ProgressBar(batches.steps, verbose)
        callbacks = CallbackList(callbacks, model=self, verbose=verbose, epochs=1, steps=batches.steps)
        outputs = []
        callbacks.on_predict_begin()
        for step, batch in batches.epoch():
            callbacks.on_predict_batch_begin(step)
            predicted = self.predict_step(batch[0])
            outputs.append(nest.pack_sequence_as(predicted, [y.numpy() for y in nest.flatten(predicted)]))
            bar.update(step + 1, {})
            callbacks.on_predict_batch_end(step, {"outputs": outputs[-1]})
        bar.close({})
        callbacks.on_predict_end()
        return nest.pack_sequence_as(outputs[0], [np.concatenate(part) for part in
                                                  zip(*(nest.flatten(batch) for batch in outputs))])


def _validation_parts(validation_data: Any) -> tuple[Any, ...]:
    """``validation_data`` as EpochIterator's ``x, y, sample_weight``: a Dataset, or a tuple of arrays."""
    if data_adapter.is_stream(validation_data):
        return (validation_data,)
    x, y, sample_weight = data_adapter.unpack_x_y_sample_weight(validation_data)
    return x, y, sample_weight


def _should_validate(epoch: int, validation_freq: int | Sequence[int]) -> bool:
    """Keras' ``validation_freq``: every that many epochs, or the (1-based) epochs listed."""
    if isinstance(validation_freq, int):
        return (epoch + 1) % validation_freq == 0
    return epoch + 1 in validation_freq


def _batch_size(x: Any) -> int:
    """The number of examples in a batch of inputs (a tensor, or a structure of them)."""
    first = x
    while isinstance(first, dict | list | tuple):
        first = first[sorted(first)[0]] if isinstance(first, dict) else first[0]
    return int(np.shape(first)[0])
