"""The hooks ``evaluate`` and ``predict`` call (``fit``'s validation calls the ``on_test_*`` ones): no-ops on
``Callback``, passed on to every callback by ``CallbackList``.

>>> import minitape as tf
>>> class Count(tf.keras.callbacks.Callback):
...     def on_test_batch_end(self, batch, logs=None):
...         print(batch, sorted(logs))
>>> model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
>>> model.compile(loss="mse")
>>> _ = model.evaluate(np.ones((4, 2)), np.ones((4, 1)), batch_size=2, verbose=0, callbacks=[Count()])
0 ['loss']
1 ['loss']
"""
from __future__ import annotations

from typing import Any


class EvaluationHooks:
    """``Callback``'s hooks for ``evaluate`` and ``predict``: override the ones you need."""

    def on_test_begin(self, logs: dict | None = None) -> None:
        """Called when ``evaluate`` (or ``fit``'s validation) begins.

        >>> import minitape as tf
        >>> tf.keras.callbacks.Callback().on_test_begin()
        """

    def on_test_end(self, logs: dict | None = None) -> None:
        """Called when ``evaluate`` ends, with the metrics' values over all its batches.

        >>> import minitape as tf
        >>> tf.keras.callbacks.Callback().on_test_end({"loss": 0.5})
        """

    def on_test_batch_begin(self, batch: int, logs: dict | None = None) -> None:
        """Called before each evaluation batch.

        >>> import minitape as tf
        >>> tf.keras.callbacks.Callback().on_test_batch_begin(0)
        """

    def on_test_batch_end(self, batch: int, logs: dict | None = None) -> None:
        """Called after each evaluation batch with the metrics' values so far.

        >>> import minitape as tf
        >>> tf.keras.callbacks.Callback().on_test_batch_end(0, {"loss": 0.5})
        """

    def on_predict_begin(self, logs: dict | None = None) -> None:
        """Called when ``predict`` begins.

        >>> import minitape as tf
        >>> tf.keras.callbacks.Callback().on_predict_begin()
        """

    def on_predict_end(self, logs: dict | None = None) -> None:
        """Called when ``predict`` ends.

        >>> import minitape as tf
        >>> tf.keras.callbacks.Callback().on_predict_end()
        """

    def on_predict_batch_begin(self, batch: int, logs: dict | None = None) -> None:
        """Called before each prediction batch.

        >>> import minitape as tf
        >>> tf.keras.callbacks.Callback().on_predict_batch_begin(0)
        """

    def on_predict_batch_end(self, batch: int, logs: dict | None = None) -> None:
        """Called after each prediction batch; ``logs["outputs"]`` holds the batch's outputs.

        >>> import minitape as tf
        >>> tf.keras.callbacks.Callback().on_predict_batch_end(0, {"outputs": np.ones((2, 1))})
        """


class ForwardsEvaluationHooks(EvaluationHooks):
    """``CallbackList``'s side: each hook told to every callback in turn (through the list's ``_tell``)."""

    _tell: Any

    def on_test_begin(self, logs: dict | None = None) -> None:
        """Tell each callback evaluation begins.

        >>> import minitape as tf
        >>> tf.keras.callbacks.CallbackList().on_test_begin()
        """
        self._tell("on_test_begin", logs=logs)

    def on_test_end(self, logs: dict | None = None) -> None:
        """Tell each callback evaluation has ended.

        >>> import minitape as tf
        >>> tf.keras.callbacks.CallbackList().on_test_end({"loss": 0.5})
        """
        self._tell("on_test_end", logs=logs)

    def on_test_batch_begin(self, batch: int, logs: dict | None = None) -> None:
        """Tell each callback an evaluation batch begins.

        >>> import minitape as tf
        >>> tf.keras.callbacks.CallbackList().on_test_batch_begin(0)
        """
        self._tell("on_test_batch_begin", batch, logs=logs)

    def on_test_batch_end(self, batch: int, logs: dict | None = None) -> None:
        """Tell each callback an evaluation batch has ended.

        >>> import minitape as tf
        >>> tf.keras.callbacks.CallbackList().on_test_batch_end(0, {"loss": 0.5})
        """
        self._tell("on_test_batch_end", batch, logs=logs)

    def on_predict_begin(self, logs: dict | None = None) -> None:
        """Tell each callback prediction begins.

        >>> import minitape as tf
        >>> tf.keras.callbacks.CallbackList().on_predict_begin()
        """
        self._tell("on_predict_begin", logs=logs)

    def on_predict_end(self, logs: dict | None = None) -> None:
        """Tell each callback prediction has ended.

        >>> import minitape as tf
        >>> tf.keras.callbacks.CallbackList().on_predict_end()
        """
        self._tell("on_predict_end", logs=logs)

    def on_predict_batch_begin(self, batch: int, logs: dict | None = None) -> None:
        """Tell each callback a prediction batch begins.

        >>> import minitape as tf
        >>> tf.keras.callbacks.CallbackList().on_predict_batch_begin(0)
        """
        self._tell("on_predict_batch_begin", batch, logs=logs)

    def on_predict_batch_end(self, batch: int, logs: dict | None = None) -> None:
        """Tell each callback a prediction batch has ended, its outputs in ``logs["outputs"]``.

        >>> import minitape as tf
        >>> tf.keras.callbacks.CallbackList().on_predict_batch_end(0, {"outputs": np.ones((2, 1))})
        """
        self._tell("on_predict_batch_end", batch, logs=logs)
