"""Callbacks that write files: ``CSVLogger`` (a row per epoch) and ``ModelCheckpoint`` (the weights, each epoch or
when the watched metric improves).

>>> import minitape as tf, tempfile, os
>>> folder = tempfile.mkdtemp()
>>> model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer="zeros")])
>>> model.compile(optimizer="sgd", loss="mse")
>>> log = tf.keras.callbacks.CSVLogger(os.path.join(folder, "log.csv"))
>>> _ = model.fit(np.ones((4, 1)), np.ones((4, 1)), epochs=2, verbose=0, callbacks=[log])
>>> print(open(os.path.join(folder, "log.csv")).read())
epoch,loss,val_loss
0,1.0,NA
1,0.92159998...,NA
<BLANKLINE>
"""
from __future__ import annotations

import collections
import csv
import os
import warnings
from typing import Any

import numpy as np

from minitape.keras.callbacks.callback import Callback
from minitape.keras.callbacks.monitoring import MonitorCallback


class CSVLogger(Callback):
    """Write each epoch's logs as a CSV row: ``epoch`` then the log names, sorted (see the module's example).

    Without validation data the ``val_`` columns are there too, holding ``NA``, as in Keras.
    ``append=True`` adds to an existing file (its header is kept).

    >>> import minitape as tf
    >>> tf.keras.callbacks.CSVLogger("log.csv", separator=";").sep
    ';'
    """

    def __init__(self, filename: str | os.PathLike, separator: str = ",", append: bool = False) -> None:
        super().__init__()
        self.sep, self.filename, self.append = separator, os.fspath(filename), append
        self.writer: csv.DictWriter | None = None
        self.keys: list[str] | None = None
        self.append_header = True
        self.csv_file: Any = None

    def on_train_begin(self, logs: dict | None = None) -> None:
        """Open the file (truncated, unless ``append``).

        >>> import minitape as tf, tempfile, os
        >>> log = tf.keras.callbacks.CSVLogger(os.path.join(tempfile.mkdtemp(), "log.csv"))
        >>> log.on_train_begin(); log.csv_file.closed
        False
        >>> log.on_train_end()
        """
        if self.append and os.path.exists(self.filename):
            with open(self.filename) as f:
                self.append_header = not f.readline()
        if self.csv_file is not None and not self.csv_file.closed:
            self.csv_file.close()
        self.csv_file = open(self.filename, "a" if self.append else "w", newline="")   # noqa: SIM115 - kept open
        self.writer, self.keys = None, None

    def on_epoch_end(self, epoch: int, logs: dict | None = None) -> None:
        """Write the epoch's row (the header first, from the first epoch's log names).

        >>> import minitape as tf, tempfile, os
        >>> path = os.path.join(tempfile.mkdtemp(), "log.csv")
        >>> log = tf.keras.callbacks.CSVLogger(path, separator=";")
        >>> log.on_train_begin(); log.on_epoch_end(0, {"loss": 0.5, "val_loss": 0.75}); log.on_train_end()
        >>> open(path).read().splitlines()
        ['epoch;loss;val_loss', '0;0.5;0.75']
        """
        logs = logs or {}
        if self.keys is None:
            self.keys = sorted(logs)
            if self.keys and not any(key.startswith("val_") for key in self.keys):
                self.keys += [f"val_{key}" for key in self.keys]
        if self.writer is None:
            dialect = type("Dialect", (csv.excel,), {"delimiter": self.sep})
            self.writer = csv.DictWriter(self.csv_file, fieldnames=["epoch", *self.keys], dialect=dialect)
            if self.append_header:
                self.writer.writeheader()
        row = collections.OrderedDict({"epoch": epoch})
        row.update((key, _cell(logs.get(key, "NA"))) for key in self.keys)
        self.writer.writerow(row)
        self.csv_file.flush()

    def on_train_end(self, logs: dict | None = None) -> None:
        """Close the file.

        >>> import minitape as tf
        >>> tf.keras.callbacks.CSVLogger("never-opened.csv").on_train_end()
        """
        if self.csv_file is not None and not self.csv_file.closed:
            self.csv_file.close()
        self.writer = None


def _cell(value: Any) -> Any:
    """A log value as Keras writes it: a list as ``"[a, b]"``, anything else as it is."""
    if isinstance(value, str) or (isinstance(value, np.ndarray) and value.ndim == 0):
        return value
    if isinstance(value, list | tuple | np.ndarray):
        return f'"[{", ".join(map(str, value))}]"'
    return value


class ModelCheckpoint(MonitorCallback):
    """Save the model's weights (``save_weights_only=True``, a ``.weights.h5`` path) at each epoch's end, or only
    when ``monitor`` improves (``save_best_only``); the path may hold ``{epoch:02d}`` and any log, ``{val_loss:.2f}``.

    ``save_freq=n`` saves every ``n`` batches instead.  Whole models (``.keras``) need ``model.save``.

    >>> import minitape as tf, tempfile, os
    >>> folder = tempfile.mkdtemp()
    >>> model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer="zeros")])
    >>> model.compile(optimizer="sgd", loss="mse")
    >>> save = tf.keras.callbacks.ModelCheckpoint(os.path.join(folder, "w{epoch:02d}.weights.h5"),
    ...                                           save_weights_only=True)
    >>> _ = model.fit(np.ones((4, 1)), np.ones((4, 1)), epochs=2, verbose=0, callbacks=[save])
    >>> sorted(os.listdir(folder))
    ['w01.weights.h5', 'w02.weights.h5']
    """

    def __init__(self, filepath: str | os.PathLike, monitor: str = "val_loss", verbose: int = 0,
                 save_best_only: bool = False, save_weights_only: bool = False, mode: str = "auto",
                 save_freq: str | int = "epoch", initial_value_threshold: float | None = None) -> None:
        super().__init__(monitor, mode, initial_value_threshold)
        self.verbose, self.filepath = verbose, os.fspath(filepath)
        self.save_best_only, self.save_weights_only, self.save_freq = save_best_only, save_weights_only, save_freq
        self._batches_since_saving = 0
        self._last_batch: int | None = None
        self._current_epoch = 0
        if save_freq != "epoch" and not isinstance(save_freq, int):
            raise ValueError(f"Unrecognized save_freq: {save_freq}. Expected save_freq are 'epoch' or integer values")
        if save_weights_only and not self.filepath.endswith(".weights.h5"):
            raise ValueError(f"When using `save_weights_only=True` in `ModelCheckpoint`, the filepath provided must "
                             f"end in `.weights.h5` (Keras weights format). Received: filepath={self.filepath}")
        if not save_weights_only and not self.filepath.endswith((".keras", ".h5")):
            raise ValueError(f"The filepath provided must end in `.keras` (Keras model format). Received: "
                             f"filepath={self.filepath}")

    def on_epoch_begin(self, epoch: int, logs: dict | None = None) -> None:
        """Remember the epoch (a batch-frequency save names its file with it).

        >>> import minitape as tf
        >>> save = tf.keras.callbacks.ModelCheckpoint("m.weights.h5", save_weights_only=True)
        >>> save.on_epoch_begin(3); save._current_epoch
        3
        """
        self._current_epoch = epoch

    def on_train_batch_end(self, batch: int, logs: dict | None = None) -> None:
        """With an integer ``save_freq``, save once that many batches have passed.

        >>> import minitape as tf
        >>> tf.keras.callbacks.ModelCheckpoint("m.weights.h5", save_weights_only=True).on_train_batch_end(0)
        """
        if self.save_freq == "epoch":
            return
        seen = batch + 1 if self._last_batch is None or batch <= self._last_batch else batch - self._last_batch
        self._batches_since_saving += seen
        self._last_batch = batch
        if self._batches_since_saving >= self.save_freq:
            self._batches_since_saving = 0
            self._save(self._current_epoch, batch, logs or {})

    def on_epoch_end(self, epoch: int, logs: dict | None = None) -> None:
        """With ``save_freq="epoch"``, save (when the metric improved, with ``save_best_only``).

        >>> import minitape as tf
        >>> tf.keras.callbacks.ModelCheckpoint("m.keras", save_freq="often")
        Traceback (most recent call last):
        ...
        ValueError: Unrecognized save_freq: often. Expected save_freq are 'epoch' or integer values
        """
        if self.monitor_op is None:
            self._set_monitor_op()
        if self.save_freq == "epoch":
            self._save(epoch, None, logs or {})

    def _save(self, epoch: int, batch: int | None, logs: dict) -> None:
        try:
            fields = {"epoch": epoch + 1, **({} if batch is None or "batch" in logs else {"batch": batch + 1}), **logs}
            filepath = self.filepath.format(**fields)
        except KeyError as exc:
            raise KeyError(f'Failed to format this callback filepath: "{self.filepath}". Reason: {exc}') from exc
        if not self._should_save(epoch, logs, filepath):
            return
        if os.path.dirname(filepath):
            os.makedirs(os.path.dirname(filepath), exist_ok=True)
        if os.path.isdir(filepath):
            raise OSError(f"Please specify a non-directory filepath for ModelCheckpoint. Filepath used is an existing "
                          f"directory: {filepath}")
        if self.save_weights_only:
            self.model.save_weights(filepath, overwrite=True)
        elif hasattr(self.model, "save"):
            self.model.save(filepath, overwrite=True)
        else:
            raise NotImplementedError(f"ModelCheckpoint: minitape cannot save whole models yet; pass "
                                      f"save_weights_only=True and a '.weights.h5' filepath (got {filepath}).")
        if self.verbose > 0:
            print(f"\nEpoch {epoch + 1}: finished saving model to {filepath}")

    def _should_save(self, epoch: int, logs: dict, filepath: str) -> bool:
        if not self.save_best_only:
            if self.verbose > 0:
                print(f"\nEpoch {epoch + 1}: saving model to {filepath}")
            return True
        current = logs.get(self.monitor)
        if current is None:
            warnings.warn(f"Can save best model only with {self.monitor} available.", stacklevel=3)
            return True
        best = "None" if self.best is None else f"{self.best:.5f}"
        if self._is_improvement(current, self.best):
            if self.verbose > 0:
                print(f"\nEpoch {epoch + 1}: {self.monitor} improved from {best} to {current:.5f}, saving model to "
                      f"{filepath}")
            self.best = current
            return True
        if self.verbose > 0:
            print(f"\nEpoch {epoch + 1}: {self.monitor} did not improve from {best}")
        return False
