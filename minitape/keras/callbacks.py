"""Callbacks: objects ``fit`` tells about its progress.  ``History`` is the one ``fit`` returns.

>>> import minitape as tf
>>> model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer="zeros")])
>>> model.compile(optimizer="sgd", loss="mse")
>>> history = model.fit(np.ones((4, 2)), np.ones((4, 1)), epochs=2, verbose=0)
>>> history.epoch, [round(loss, 4) for loss in history.history["loss"]]
([0, 1], [1.0, 0.8836])
"""
from __future__ import annotations

from typing import Any


class Callback:
    """The base class: override the hooks you need; ``self.model`` and ``self.params`` are set by ``fit``.

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

    def on_train_batch_end(self, batch: int, logs: dict | None = None) -> None:
        """Called after each training step with the running means of the epoch so far.

        >>> import minitape as tf
        >>> tf.keras.callbacks.Callback().on_train_batch_end(3, {"loss": 0.5})
        """


class History(Callback):
    """What ``fit`` returns: ``history`` maps each metric's name to its list of per-epoch values.

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
        """Append each log's value to its list.

        >>> import minitape as tf
        >>> history = tf.keras.callbacks.History()
        >>> history.on_epoch_end(0, {"loss": 1.5, "accuracy": 0.25})
        >>> history.history
        {'loss': [1.5], 'accuracy': [0.25]}
        """
        self.epoch.append(epoch)
        for name, value in (logs or {}).items():
            self.history.setdefault(name, []).append(value)


__all__ = ["Callback", "History"]
