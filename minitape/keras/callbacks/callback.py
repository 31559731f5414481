"""Callbacks: objects ``fit`` tells about its progress, and ``CallbackList``, how ``fit`` tells them.

``fit`` calls, as Keras 3 does: ``on_train_begin``; for each epoch ``on_epoch_begin(epoch)``,
for each batch ``on_train_batch_begin(batch)`` and ``on_train_batch_end(batch, logs)`` (the
running means), then ``on_epoch_end(epoch, logs)`` with the epoch's means and the ``val_``
ones; finally ``on_train_end(logs)``.  Every callback gets the same ``logs`` dict of floats,
so one callback's entry (``learning_rate``...) is seen by those after it, ``History`` last.
A callback stops training by setting ``self.model.stop_training = True``.

>>> import minitape as tf
>>> model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer="zeros")])
>>> model.compile(optimizer="sgd", loss="mse")
>>> history = model.fit(np.ones((4, 2)), np.ones((4, 1)), epochs=2, verbose=0)
>>> history.epoch, [round(loss, 4) for loss in history.history["loss"]]
([0, 1], [1.0, 0.8836])
"""
from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from minitape.keras.callbacks.loop_hooks import EvaluationHooks, ForwardsEvaluationHooks


class Callback(EvaluationHooks):
    """The base class: override the hooks you need; ``self.model`` and ``self.params`` are set by ``fit``.

    ``on_train_batch_begin``/``end`` call ``on_batch_begin``/``end``, as in Keras.

    >>> import minitape as tf
    >>> class Shout(tf.keras.callbacks.Callback):
    ...     def on_epoch_end(self, epoch, logs=None):
    ...         print(f"epoch {epoch}: loss {logs['loss']:.2f}")
    >>> model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer="zeros")])
    >>> model.compile(optimizer="sgd", loss="mse")
    >>> _ = model.fit(np.ones((2, 1)), np.ones((2, 1)), epochs=2, verbose=0, callbacks=[Shout()])
    epoch 0: loss 1.00
    epoch 1: loss 0.92
    """

    def __init__(self) -> None:
        self.model: Any = None
        self.params: dict[str, Any] = {}

    def set_model(self, model: Any) -> None:
        """Tell the callback which model it watches (``fit`` does).

        >>> import minitape as tf
        >>> callback = tf.keras.callbacks.Callback()
        >>> callback.set_model("a model"); callback.model
        'a model'
        """
        self.model = model

    def set_params(self, params: dict[str, Any]) -> None:
        """Tell the callback ``fit``'s parameters: ``verbose``, ``epochs``, ``steps``.

        >>> import minitape as tf
        >>> callback = tf.keras.callbacks.Callback()
        >>> callback.set_params({"epochs": 3}); callback.params
        {'epochs': 3}
        """
        self.params = params

    def on_train_begin(self, logs: dict | None = None) -> None:
        """Called once, before the first epoch.

        >>> import minitape as tf
        >>> tf.keras.callbacks.Callback().on_train_begin()
        """

    def on_train_end(self, logs: dict | None = None) -> None:
        """Called once, after the last epoch, with the last epoch's logs.

        >>> import minitape as tf
        >>> tf.keras.callbacks.Callback().on_train_end({"loss": 0.1})
        """

    def on_epoch_begin(self, epoch: int, logs: dict | None = None) -> None:
        """Called at the start of each epoch (counted from 0).

        >>> import minitape as tf
        >>> tf.keras.callbacks.Callback().on_epoch_begin(0)
        """

    def on_epoch_end(self, epoch: int, logs: dict | None = None) -> None:
        """Called at the end of each epoch with its logs: the metrics' means, validation ones prefixed ``val_``.

        >>> import minitape as tf
        >>> tf.keras.callbacks.Callback().on_epoch_end(0, {"loss": 0.5, "val_loss": 0.6})
        """

    def on_batch_begin(self, batch: int, logs: dict | None = None) -> None:
        """Called before each training batch (what ``on_train_batch_begin`` calls unless overridden).

        >>> import minitape as tf
        >>> tf.keras.callbacks.Callback().on_batch_begin(0)
        """

    def on_batch_end(self, batch: int, logs: dict | None = None) -> None:
        """Called after each training batch (what ``on_train_batch_end`` calls unless overridden).

        >>> import minitape as tf
        >>> tf.keras.callbacks.Callback().on_batch_end(0, {"loss": 0.5})
        """

    def on_train_batch_begin(self, batch: int, logs: dict | None = None) -> None:
        """Called before each training step (counted from 0 in each epoch).

        >>> import minitape as tf
        >>> tf.keras.callbacks.Callback().on_train_batch_begin(3)
        """
        self.on_batch_begin(batch, logs=logs)

    def on_train_batch_end(self, batch: int, logs: dict | None = None) -> None:
        """Called after each training step with the running means of the epoch so far.

        >>> import minitape as tf
        >>> tf.keras.callbacks.Callback().on_train_batch_end(3, {"loss": 0.5})
        """
        self.on_batch_end(batch, logs=logs)


class History(Callback):
    """What ``fit`` returns: ``history`` maps each metric's name to its list of per-epoch values (floats).

    >>> import minitape as tf
    >>> history = tf.keras.callbacks.History()
    >>> history.on_train_begin()
    >>> history.on_epoch_end(0, {"loss": 0.5}); history.on_epoch_end(1, {"loss": 0.25})
    >>> history.history, history.epoch
    ({'loss': [0.5, 0.25]}, [0, 1])
    """

    def __init__(self) -> None:
        super().__init__()
        self.history: dict[str, list[float]] = {}
        self.epoch: list[int] = []

    def on_train_begin(self, logs: dict | None = None) -> None:
        """Start a new list of epochs (the per-metric lists go on, as Keras' do across ``fit`` calls).

        >>> import minitape as tf
        >>> history = tf.keras.callbacks.History()
        >>> history.on_train_begin(); history.epoch
        []
        """
        self.epoch = []

    def on_epoch_end(self, epoch: int, logs: dict | None = None) -> None:
        """Append each log's value to its list, and be the model's ``history``.

        >>> import minitape as tf
        >>> history = tf.keras.callbacks.History()
        >>> history.on_epoch_end(0, {"loss": 1.5, "accuracy": 0.25})
        >>> history.history
        {'loss': [1.5], 'accuracy': [0.25]}
        """
        self.epoch.append(epoch)
        for name, value in (logs or {}).items():
            self.history.setdefault(name, []).append(value)
        if self.model is not None:
            self.model.history = self


class ProgbarLogger(Callback):
    """Keras' progress-bar callback, accepted by name: minitape's ``fit`` draws its progress bar itself
    (``verbose=1``), so this one adds nothing.

    >>> import minitape as tf
    >>> model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    >>> model.compile(optimizer="sgd", loss="mse")
    >>> _ = model.fit(np.ones((2, 1)), np.ones((2, 1)), verbose=0, callbacks=[tf.keras.callbacks.ProgbarLogger()])
    """


class LambdaCallback(Callback):
    """A callback made of functions: ``on_epoch_end=lambda epoch, logs: ...`` and the like; other keyword
    arguments become attributes, as in Keras.

    >>> import minitape as tf
    >>> seen = []
    >>> callback = tf.keras.callbacks.LambdaCallback(on_epoch_end=lambda epoch, logs: seen.append(epoch))
    >>> model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    >>> model.compile(optimizer="sgd", loss="mse")
    >>> _ = model.fit(np.ones((2, 1)), np.ones((2, 1)), epochs=3, verbose=0, callbacks=[callback])
    >>> seen
    [0, 1, 2]
    """

    def __init__(self, on_epoch_begin: Callable | None = None, on_epoch_end: Callable | None = None,
                 on_train_begin: Callable | None = None, on_train_end: Callable | None = None,
                 on_train_batch_begin: Callable | None = None, on_train_batch_end: Callable | None = None,
                 **kwargs: Any) -> None:
        super().__init__()
        self.__dict__.update(kwargs)
        hooks = {"on_epoch_begin": on_epoch_begin, "on_epoch_end": on_epoch_end, "on_train_begin": on_train_begin,
                 "on_train_end": on_train_end, "on_train_batch_begin": on_train_batch_begin,
                 "on_train_batch_end": on_train_batch_end}
        for name, hook in hooks.items():
            if hook is not None:
                setattr(self, name, hook)


class TerminateOnNaN(Callback):
    """Stop training at the first batch whose loss is NaN or infinite (or raise, with ``raise_error=True``).

    >>> import minitape as tf
    >>> model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer="zeros")])
    >>> model.compile(optimizer=tf.keras.optimizers.SGD(1e18), loss="mse")     # diverges: inf by the third batch
    >>> history = model.fit(np.ones((8, 1)), np.ones((8, 1)), batch_size=1, epochs=3, verbose=0,
    ...                     callbacks=[tf.keras.callbacks.TerminateOnNaN()])
    Batch 2: Invalid loss, terminating training
    >>> history.epoch
    [0]
    """

    def __init__(self, raise_error: bool = False) -> None:
        super().__init__()
        self.raise_error = raise_error

    def on_batch_end(self, batch: int, logs: dict | None = None) -> None:
        """Look at the batch's loss.

        >>> import minitape as tf
        >>> tf.keras.callbacks.TerminateOnNaN(raise_error=True).on_batch_end(4, {"loss": float("nan")})
        Traceback (most recent call last):
        ...
        RuntimeError: NaN or Inf loss encountered at batch 4. Loss value: nan. Terminating training immediately.
        """
        loss = (logs or {}).get("loss")
        if loss is None or math.isfinite(loss):
            return
        if self.raise_error:
            raise RuntimeError(f"NaN or Inf loss encountered at batch {batch}. Loss value: {loss}. Terminating "
                               f"training immediately.")
        print(f"Batch {batch}: Invalid loss, terminating training")
        self.model.stop_training = True


class CallbackList(ForwardsEvaluationHooks, Callback):
    """The callbacks of one ``fit``, told in turn; it adds a ``History`` at the end unless one is given.

    >>> import minitape as tf
    >>> callbacks = tf.keras.callbacks.CallbackList([tf.keras.callbacks.Callback()], add_history=True)
    >>> [type(c).__name__ for c in callbacks.callbacks]
    ['Callback', 'History']
    """

    def __init__(self, callbacks: Iterable[Callback] | None = None, add_history: bool = False,
                 add_progbar: bool = False, model: Any = None, **params: Any) -> None:
        super().__init__()
        self.callbacks = list(callbacks or [])
        self.history = next((c for c in self.callbacks if isinstance(c, History)), None)
        if add_history and self.history is None:
            self.history = History()
            self.callbacks.append(self.history)
        if model is not None:
            self.set_model(model)
        if params:
            self.set_params(params)

    def set_model(self, model: Any) -> None:
        """Tell every callback the model.

        >>> import minitape as tf
        >>> callbacks = tf.keras.callbacks.CallbackList([tf.keras.callbacks.Callback()])
        >>> callbacks.set_model("m"); callbacks.callbacks[0].model
        'm'
        """
        super().set_model(model)
        for callback in self.callbacks:
            callback.set_model(model)

    def set_params(self, params: dict[str, Any]) -> None:
        """Tell every callback ``fit``'s parameters.

        >>> import minitape as tf
        >>> callbacks = tf.keras.callbacks.CallbackList([tf.keras.callbacks.Callback()])
        >>> callbacks.set_params({"epochs": 2}); callbacks.callbacks[0].params
        {'epochs': 2}
        """
        super().set_params(params)
        for callback in self.callbacks:
            callback.set_params(params)

    def _tell(self, hook: str, *args: Any, logs: dict | None = None) -> None:
        logs = {} if logs is None else logs
        for name, value in list(logs.items()):        # as Keras' pythonify_logs: plain floats for everyone
            host = value.numpy() if hasattr(value, "numpy") else value
            if type(host).__module__ == "numpy" and np.ndim(host) == 0:     # predict's `outputs` stay arrays
                logs[name] = float(host)
        for callback in self.callbacks:       # as Keras: batch hooks get logs by keyword, the others by position
            if "batch" in hook:
                getattr(callback, hook)(*args, logs=logs)
            else:
                getattr(callback, hook)(*args, logs)

    def on_train_begin(self, logs: dict | None = None) -> None:
        """Tell each callback training begins.

        >>> import minitape as tf
        >>> tf.keras.callbacks.CallbackList().on_train_begin()
        """
        self._tell("on_train_begin", logs=logs)

    def on_train_end(self, logs: dict | None = None) -> None:
        """Tell each callback training has ended.

        >>> import minitape as tf
        >>> tf.keras.callbacks.CallbackList().on_train_end({"loss": 1.0})
        """
        self._tell("on_train_end", logs=logs)

    def on_epoch_begin(self, epoch: int, logs: dict | None = None) -> None:
        """Tell each callback an epoch begins.

        >>> import minitape as tf
        >>> tf.keras.callbacks.CallbackList().on_epoch_begin(0)
        """
        self._tell("on_epoch_begin", epoch, logs=logs)

    def on_epoch_end(self, epoch: int, logs: dict | None = None) -> None:
        """Tell each callback an epoch has ended, with the same ``logs`` dict.

        >>> import minitape as tf
        >>> callbacks = tf.keras.callbacks.CallbackList(add_history=True)
        >>> callbacks.on_epoch_end(0, {"loss": np.float32(0.5)}); callbacks.history.history
        {'loss': [0.5]}
        """
        self._tell("on_epoch_end", epoch, logs=logs)

    def on_train_batch_begin(self, batch: int, logs: dict | None = None) -> None:
        """Tell each callback a training batch begins.

        >>> import minitape as tf
        >>> tf.keras.callbacks.CallbackList().on_train_batch_begin(0)
        """
        self._tell("on_train_batch_begin", batch, logs=logs)

    def on_train_batch_end(self, batch: int, logs: dict | None = None) -> None:
        """Tell each callback a training batch has ended.

        >>> import minitape as tf
        >>> tf.keras.callbacks.CallbackList().on_train_batch_end(0, {"loss": 1.0})
        """
        self._tell("on_train_batch_end", batch, logs=logs)
