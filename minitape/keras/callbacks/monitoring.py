"""Callbacks that watch a metric from epoch to epoch: ``EarlyStopping`` and ``ReduceLROnPlateau``; and
``LearningRateScheduler``, which sets the learning rate each epoch.

A watched metric improves when it beats the best so far by more than ``min_delta``; lower is
better for losses and errors, higher for accuracies (``mode="auto"`` tells which from the
metric, as Keras 3 does; ``"min"`` or ``"max"`` says so).

>>> import minitape as tf
>>> model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer="zeros")])
>>> model.compile(optimizer=tf.keras.optimizers.SGD(2.0), loss="mse")       # too large: the loss grows
>>> stop = tf.keras.callbacks.EarlyStopping(monitor="loss", patience=2, restore_best_weights=True)
>>> history = model.fit(np.ones((4, 1)), np.ones((4, 1)), epochs=20, verbose=0, callbacks=[stop])
>>> history.epoch, stop.best_epoch, model.get_weights()[1]          # back to the weights after the first epoch
([0, 1, 2], 0, array([4.], dtype=float32))
"""
from __future__ import annotations

import operator
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from minitape.keras.callbacks.callback import Callback

#: The direction of Keras 3's metrics, by name (Keras keeps it on each metric as ``_direction``).
_HIGHER_IS_BETTER = ("accuracy", "acc", "auc", "precision", "recall", "f1_score", "fbeta_score", "iou", "r2_score",
                     "top_k_categorical_accuracy", "sparse_top_k_categorical_accuracy", "specificity", "sensitivity")


class MonitorCallback(Callback):
    """What ``EarlyStopping``, ``ReduceLROnPlateau`` and ``ModelCheckpoint`` share: which metric, which way is better.

    >>> import minitape as tf
    >>> from minitape.keras.callbacks.monitoring import MonitorCallback
    >>> watch = MonitorCallback(monitor="val_accuracy", mode="max", min_delta=0.01)
    >>> watch._set_monitor_op(); watch._is_improvement(0.5, 0.495), watch._is_improvement(0.52, 0.5)
    (False, True)
    """

    def __init__(self, monitor: str = "val_loss", mode: str = "auto", baseline: float | None = None,
                 min_delta: float = 0) -> None:
        super().__init__()
        if mode not in ("auto", "min", "max"):
            warnings.warn(f"{type(self).__name__} mode '{mode}' is unknown, fallback to auto mode.", stacklevel=2)
            mode = "auto"
        self.monitor, self.mode, self.best, self.min_delta = monitor, mode, baseline, abs(min_delta)
        self.monitor_op: Callable[[float, float], bool] | None = None

    def _set_monitor_op(self) -> None:
        if self.mode != "auto":
            self.monitor_op = operator.lt if self.mode == "min" else operator.gt
        else:
            name = self.monitor.removeprefix("val_")
            if name == "loss":
                self.monitor_op = operator.lt
            for metric in _every_metric(self.model):
                if metric.name == name and name != "loss":
                    up = getattr(metric, "_direction", "up" if name in _HIGHER_IS_BETTER else "down") == "up"
                    self.monitor_op = operator.gt if up else operator.lt
            if self.monitor_op is None:
                raise ValueError(f"{type(self).__name__} callback received monitor={self.monitor}, but Keras isn't "
                                 f"able to automatically determine whether that metric should be maximized or "
                                 f"minimized. Pass `mode='max'` in order to monitor based on the highest metric "
                                 f"value, or pass `mode='min'` in order to use the lowest value.")
        if self.monitor_op is operator.lt:
            self.min_delta *= -1

    def _is_improvement(self, value: float, reference: float | None) -> bool:
        return reference is None or bool(self.monitor_op(value - self.min_delta, reference))


def _every_metric(model: Any) -> list[Any]:
    """The model's metrics, with those ``compile`` was given taken out of the ``CompileMetrics`` that holds them
    (where Keras 3 looks for a metric's direction).

    >>> import minitape as tf
    >>> model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    >>> model.compile(loss="mse", metrics=["mae"])
    >>> _ = model.evaluate(np.ones((2, 3)), np.ones((2, 1)), verbose=0)
    >>> [metric.name for metric in _every_metric(model)]
    ['loss', 'mae']
    """
    found = []
    for metric in getattr(model, "metrics", None) or []:
        inner = getattr(metric, "metrics", None)
        found += inner if isinstance(inner, list) else [metric]
    return found


class EarlyStopping(MonitorCallback):
    """Stop training once ``monitor`` has not improved for ``patience`` epochs (see the module's example).

    ``baseline``: keep counting (do not reset the wait) until the metric beats it.
    ``restore_best_weights``: at the end, put back the weights of the best epoch.
    ``start_from_epoch``: watch only from this epoch on.

    >>> import minitape as tf
    >>> tf.keras.callbacks.EarlyStopping(patience=3).patience
    3
    """

    def __init__(self, monitor: str = "val_loss", min_delta: float = 0, patience: int = 0, verbose: int = 0,
                 mode: str = "auto", baseline: float | None = None, restore_best_weights: bool = False,
                 start_from_epoch: int = 0) -> None:
        super().__init__(monitor, mode, min_delta=min_delta)
        self.patience, self.verbose, self.baseline = patience, verbose, baseline
        self.restore_best_weights, self.start_from_epoch = restore_best_weights, start_from_epoch
        self.wait = self.stopped_epoch = self.best_epoch = 0
        self.best_weights: list[np.ndarray] | None = None

    def on_train_begin(self, logs: dict | None = None) -> None:
        """Forget the last ``fit``'s best.

        >>> import minitape as tf
        >>> stop = tf.keras.callbacks.EarlyStopping(); stop.wait = 5
        >>> stop.on_train_begin(); stop.wait, stop.best
        (0, None)
        """
        self.wait = self.stopped_epoch = self.best_epoch = 0
        self.best, self.best_weights = None, None

    def on_epoch_end(self, epoch: int, logs: dict | None = None) -> None:
        """Compare the epoch's metric with the best so far; stop when the wait reaches ``patience``.

        >>> import minitape as tf
        >>> stop = tf.keras.callbacks.EarlyStopping(monitor="loss")
        >>> stop.on_epoch_end(0, {"loss": 1.0}); stop.best
        1.0
        """
        if self.monitor_op is None:
            self._set_monitor_op()
        current = self.get_monitor_value(logs)
        if current is None or epoch < self.start_from_epoch:
            return
        if self.restore_best_weights and self.best_weights is None:
            self.best_weights, self.best_epoch = self.model.get_weights(), epoch
        self.wait += 1
        if self._is_improvement(current, self.best):
            self.best, self.best_epoch = current, epoch
            if self.restore_best_weights:
                self.best_weights = self.model.get_weights()
            if self.baseline is None or self._is_improvement(current, self.baseline):
                self.wait = 0
            return
        if self.wait >= self.patience and epoch > 0:
            self.stopped_epoch = epoch
            self.model.stop_training = True

    def on_train_end(self, logs: dict | None = None) -> None:
        """Say where training stopped (``verbose``), and restore the best weights if asked.

        >>> import minitape as tf
        >>> tf.keras.callbacks.EarlyStopping().on_train_end()
        """
        if self.stopped_epoch > 0 and self.verbose > 0:
            print(f"Epoch {self.stopped_epoch + 1}: early stopping")
        if self.restore_best_weights and self.best_weights is not None:
            if self.verbose > 0:
                print(f"Restoring model weights from the end of the best epoch: {self.best_epoch + 1}.")
            self.model.set_weights(self.best_weights)

    def get_monitor_value(self, logs: dict | None) -> float | None:
        """The watched metric in ``logs``, or None with Keras' warning naming those there are.

        >>> import minitape as tf
        >>> tf.keras.callbacks.EarlyStopping(monitor="loss").get_monitor_value({"loss": 0.5})
        0.5
        """
        logs = logs or {}
        value = logs.get(self.monitor)
        if value is None:
            warnings.warn(f"Early stopping conditioned on metric `{self.monitor}` which is not available. Available "
                          f"metrics are: {','.join(logs)}", stacklevel=2)
        return value


def _learning_rate(model: Any) -> float:
    return float(np.asarray(model.optimizer.learning_rate.numpy()
                            if hasattr(model.optimizer.learning_rate, "numpy") else model.optimizer.learning_rate))


class ReduceLROnPlateau(MonitorCallback):
    """Multiply the learning rate by ``factor`` once ``monitor`` has not improved for ``patience`` epochs (not below
    ``min_lr``), then wait ``cooldown`` epochs; each epoch's logs get the ``learning_rate``.

    >>> import minitape as tf
    >>> model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer="zeros")])
    >>> model.compile(optimizer=tf.keras.optimizers.SGD(2.0), loss="mse")
    >>> reduce = tf.keras.callbacks.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=1)
    >>> history = model.fit(np.ones((4, 1)), np.ones((4, 1)), epochs=4, verbose=0, callbacks=[reduce])
    >>> history.history["learning_rate"]          # each epoch's rate, logged before that epoch's reduction
    [2.0, 2.0, 1.0, 0.5]
    """

    def __init__(self, monitor: str = "val_loss", factor: float = 0.1, patience: int = 10, verbose: int = 0,
                 mode: str = "auto", min_delta: float = 1e-4, cooldown: int = 0, min_lr: float = 0.0,
                 **kwargs: Any) -> None:
        super().__init__(monitor, mode, min_delta=min_delta)
        if factor >= 1.0:
            raise ValueError(f"ReduceLROnPlateau does not support a factor >= 1.0. Received factor={factor}")
        self.factor, self.min_lr, self.patience, self.verbose = factor, min_lr, patience, verbose
        self.cooldown = cooldown
        self.cooldown_counter = self.wait = 0

    def on_train_begin(self, logs: dict | None = None) -> None:
        """Forget the last ``fit``'s best, wait and cooldown.

        >>> import minitape as tf
        >>> reduce = tf.keras.callbacks.ReduceLROnPlateau(); reduce.wait = 3
        >>> reduce.on_train_begin(); reduce.wait
        0
        """
        self.best, self.cooldown_counter, self.wait = None, 0, 0

    def in_cooldown(self) -> bool:
        """Whether the callback is resting after a reduction.

        >>> import minitape as tf
        >>> tf.keras.callbacks.ReduceLROnPlateau().in_cooldown()
        False
        """
        return self.cooldown_counter > 0

    def on_epoch_end(self, epoch: int, logs: dict | None = None) -> None:
        """Log the learning rate; count an epoch without improvement; reduce when the count reaches ``patience``.

        >>> import minitape as tf
        >>> tf.keras.callbacks.ReduceLROnPlateau(factor=2.0)
        Traceback (most recent call last):
        ...
        ValueError: ReduceLROnPlateau does not support a factor >= 1.0. Received factor=2.0
        """
        if self.monitor_op is None:
            self._set_monitor_op()
        logs = {} if logs is None else logs
        logs["learning_rate"] = _learning_rate(self.model)
        current = logs.get(self.monitor)
        if current is None:
            warnings.warn(f"Learning rate reduction is conditioned on metric `{self.monitor}` which is not "
                          f"available. Available metrics are: {','.join(logs)}.", stacklevel=2)
            return
        if self.in_cooldown():
            self.cooldown_counter -= 1
            self.wait = 0
        if self._is_improvement(current, self.best):
            self.best, self.wait = current, 0
        elif not self.in_cooldown():
            self.wait += 1
            if self.wait >= self.patience and self._reduce(epoch):
                self.cooldown_counter, self.wait = self.cooldown, 0

    def _reduce(self, epoch: int) -> bool:
        old = _learning_rate(self.model)
        if old <= np.float32(self.min_lr):
            return False
        new = max(old * self.factor, self.min_lr)
        self.model.optimizer.learning_rate = new
        if self.verbose > 0:
            print(f"\nEpoch {epoch + 1}: ReduceLROnPlateau reducing learning rate to {new}.")
        return True


class LearningRateScheduler(Callback):
    """Set the learning rate at each epoch's start to ``schedule(epoch, lr)`` (or ``schedule(epoch)``); each
    epoch's logs get the ``learning_rate``.

    >>> import minitape as tf
    >>> model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    >>> model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
    >>> halve = tf.keras.callbacks.LearningRateScheduler(lambda epoch, lr: lr / 2 if epoch else lr)
    >>> history = model.fit(np.ones((2, 1)), np.ones((2, 1)), epochs=3, verbose=0, callbacks=[halve])
    >>> [round(lr, 4) for lr in history.history["learning_rate"]]
    [0.1, 0.05, 0.025]
    """

    def __init__(self, schedule: Callable[..., float], verbose: int = 0) -> None:
        super().__init__()
        self.schedule, self.verbose = schedule, verbose

    def on_epoch_begin(self, epoch: int, logs: dict | None = None) -> None:
        """Ask the schedule for this epoch's learning rate and set it.

        >>> import minitape as tf
        >>> callback = tf.keras.callbacks.LearningRateScheduler(lambda epoch: 1)
        >>> callback.model = tf.keras.Sequential(); callback.model.optimizer = tf.keras.optimizers.SGD()
        >>> callback.on_epoch_begin(0)
        Traceback (most recent call last):
        ...
        ValueError: The output of the `schedule` function should be a float. Got: 1
        """
        try:       # as Keras: a schedule that takes one argument is called with the epoch alone
            rate = self.schedule(epoch, _learning_rate(self.model))
        except TypeError:
            rate = self.schedule(epoch)
        if not isinstance(rate, float | np.float32 | np.float64):
            raise ValueError(f"The output of the `schedule` function should be a float. Got: {rate}")
        self.model.optimizer.learning_rate = rate
        if self.verbose > 0:
            print(f"\nEpoch {epoch + 1}: LearningRateScheduler setting learning rate to {rate}.")

    def on_epoch_end(self, epoch: int, logs: dict | None = None) -> None:
        """Log the learning rate.

        >>> import minitape as tf
        >>> callback, logs = tf.keras.callbacks.LearningRateScheduler(lambda epoch: 0.5), {}
        >>> callback.model = tf.keras.Sequential(); callback.model.optimizer = tf.keras.optimizers.SGD(0.5)
        >>> callback.on_epoch_end(0, logs); logs
        {'learning_rate': 0.5}
        """
        if logs is not None:
            logs["learning_rate"] = _learning_rate(self.model)
