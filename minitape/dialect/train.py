"""``tf.train``: ``Checkpoint`` and ``CheckpointManager``, training state saved to files and restored.

A ``Checkpoint`` is given the objects to save by keyword: ``tf.Variable``s, ``tf.Module``s,
Keras models, layers and optimisers (anything with ``variables``), lists and dicts of them.
Each variable is saved under a path that says where it was found, ``model/variables/0``: the
keyword, then the position among the object's ``variables``.  So a checkpoint restores into
objects of the same program made again, as TF's does (TF matches its object graph instead).
Values for variables not made yet (an optimiser's slots before its first step) are kept and
assigned when the optimiser makes them, as TF defers them.

Files: ``save("dir/ckpt")`` writes ``dir/ckpt-1.index`` and ``dir/ckpt-1.data-00000-of-00001``,
named as TF names them, and the ``dir/checkpoint`` file ``latest_checkpoint`` reads.  Their
contents are minitape's own, not TF's binary format: the data file is a NumPy ``.npz`` archive
of the values, the index a small JSON file of their paths, shapes and dtypes.

>>> import minitape as tf, tempfile
>>> directory = tempfile.mkdtemp()
>>> w = tf.Variable([1.0, 2.0])
>>> checkpoint = tf.train.Checkpoint(w=w)
>>> path = checkpoint.save(f"{directory}/ckpt")
>>> path.endswith("ckpt-1"), tf.train.latest_checkpoint(directory) == path
(True, True)
>>> _ = w.assign([0.0, 0.0])
>>> checkpoint.restore(path).assert_consumed().run_restore_ops()
>>> w.numpy()
array([1., 2.], dtype=float32)
"""
from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Iterator
from typing import Any

import numpy as np

from minitape.core.errors import DataLossError, NotFoundError
from minitape.core.tensor import Variable

_DATA, _INDEX, _STATE = ".data-00000-of-00001", ".index", "checkpoint"
FORMAT = "minitape checkpoint 1"


def _trackable(value: Any) -> bool:
    return isinstance(value, Variable | Checkpoint) or hasattr(type(value), "variables")


def _variables(obj: Any, path: str) -> Iterator[tuple[str, Variable]]:
    """Each variable under ``obj`` with its path in the checkpoint."""
    if isinstance(obj, Variable):
        yield path, obj
    elif isinstance(obj, Checkpoint):
        for name, child in sorted(obj._objects.items()):
            yield from _variables(child, f"{path}/{name}" if path else name)
    elif isinstance(obj, list | tuple):
        for i, item in enumerate(obj):
            yield from _variables(item, f"{path}/{i}")
    elif isinstance(obj, dict):
        for key, item in obj.items():
            yield from _variables(item, f"{path}/{key}")
    else:
        for i, variable in enumerate(obj.variables):
            yield f"{path}/variables/{i}", variable


def _holders(obj: Any, path: str) -> Iterator[tuple[str, Any]]:
    """Each object under ``obj`` that keeps a list of ``variables`` (a module, model or optimiser), with its path."""
    if isinstance(obj, Checkpoint | list | tuple | dict):
        items = sorted(obj._objects.items()) if isinstance(obj, Checkpoint) else (
            obj.items() if isinstance(obj, dict) else enumerate(obj))
        for name, child in items:
            yield from _holders(child, f"{path}/{name}" if path else str(name))
    elif not isinstance(obj, Variable) and hasattr(type(obj), "variables"):
        yield path, obj


def _defer(holder: Any, path: str, saved: dict[str, np.ndarray]) -> None:
    """Keep the values saved for variables ``holder`` has not made yet (an optimiser's slots before its first
    step), for ``restore_deferred`` to assign once it has them, as TF's deferred restoration does."""
    prefix = f"{path}/variables/"
    later = {int(key[len(prefix):]): value for key, value in saved.items()
             if key.startswith(prefix) and int(key[len(prefix):]) >= len(holder.variables)}
    if later and hasattr(holder, "build"):
        holder.__dict__["_deferred_restore"] = later


def restore_deferred(holder: Any) -> None:
    """Assign the values a checkpoint restored before ``holder`` had the variables for them (see ``_defer``);
    a Keras optimiser calls this when it builds its slots.

    >>> import minitape as tf, tempfile
    >>> model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
    >>> adam = tf.keras.optimizers.Adam()
    >>> adam.build(model.trainable_variables); _ = adam.variables[2].assign([[1.0], [2.0]])
    >>> path = tf.train.Checkpoint(optimizer=adam).write(f"{tempfile.mkdtemp()}/c")
    >>> fresh = tf.keras.optimizers.Adam()
    >>> _ = tf.train.Checkpoint(optimizer=fresh).restore(path)      # no slots yet: kept for later
    >>> fresh.build(model.trainable_variables)
    >>> fresh.variables[2].numpy().ravel()
    array([1., 2.], dtype=float32)
    """
    pending = holder.__dict__.pop("_deferred_restore", None) or {}
    for i, variable in enumerate(holder.variables):
        if i in pending:
            variable.assign(pending.pop(i).astype(variable.dtype.as_numpy_dtype))
    if pending:
        holder.__dict__["_deferred_restore"] = pending


class CheckpointLoadStatus:
    """What ``restore`` matched: assert on it (``assert_consumed``...) or say a partial restore is meant
    (``expect_partial``).  Every method returns the status, so calls chain.

    >>> import minitape as tf, tempfile
    >>> path = tf.train.Checkpoint(a=tf.Variable(1.0), b=tf.Variable(2.0)).write(f"{tempfile.mkdtemp()}/c")
    >>> tf.train.Checkpoint(a=tf.Variable(0.0)).restore(path).assert_consumed()
    Traceback (most recent call last):
    ...
    AssertionError: Unresolved object in checkpoint (root).b: the checkpoint holds b, which no object restored ...
    """

    def __init__(self, unused: list[str], unmatched: list[Variable], save_path: str | None) -> None:
        self.unused, self.unmatched, self.save_path = unused, unmatched, save_path

    def assert_consumed(self) -> CheckpointLoadStatus:
        """Every value in the file went to a variable, and every variable got one."""
        self._no_path()
        if self.unused:
            raise AssertionError(f"Unresolved object in checkpoint (root).{self.unused[0]}: the checkpoint holds "
                                 f"{self.unused[0]}, which no object restored here has; give the Checkpoint that "
                                 f"object too, or call .expect_partial().")
        return self.assert_existing_objects_matched()

    def assert_existing_objects_matched(self) -> CheckpointLoadStatus:
        """Every variable of the objects given got a value (values left over in the file are allowed)."""
        self._no_path()
        if self.unmatched:
            count, shown = len(self.unmatched), ", ".join(repr(v) for v in self.unmatched[:10])
            raise AssertionError(f"Found {count} Python objects that were not bound to checkpointed values, likely "
                                 f"due to changes in the Python program. Showing {min(count, 10)} of {count} unmatched "
                                 f"objects: [{shown}]")
        return self

    def assert_nontrivial_match(self) -> CheckpointLoadStatus:
        """At least one variable was restored."""
        self._no_path()
        return self

    def expect_partial(self) -> CheckpointLoadStatus:
        """Say that not everything is meant to be restored (TF then stays silent about what was not)."""
        return self

    def run_restore_ops(self, session: Any = None) -> None:
        """Nothing to run: values are assigned by ``restore`` itself, eagerly."""

    def initialize_or_restore(self, session: Any = None) -> None:
        """Nothing to run, as ``run_restore_ops``."""

    def _no_path(self) -> None:
        if self.save_path is None:
            raise AssertionError("No checkpoint specified (save_path=None); nothing is being restored.")


class Checkpoint:
    """Objects to save and restore together, given by keyword (see the module's example).

    >>> import minitape as tf
    >>> tf.train.Checkpoint(step=3)
    Traceback (most recent call last):
    ...
    ValueError: `Checkpoint` was expecting step to be a trackable object (an object derived from `Trackable`), got 3. If you believe this object should be trackable (i.e. it is part of the TensorFlow Python API and manages state), please open an issue.
    """

    def __init__(self, root: Any = None, **kwargs: Any) -> None:
        self._objects = dict(kwargs) | ({"root": root} if root is not None else {})
        for name, value in self._objects.items():
            if not _trackable(value) and not isinstance(value, list | tuple | dict):
                raise ValueError(f"`Checkpoint` was expecting {name} to be a trackable object (an object derived "
                                 f"from `Trackable`), got {value}. If you believe this object should be trackable "
                                 f"(i.e. it is part of the TensorFlow Python API and manages state), please open an "
                                 f"issue.")
        self.save_counter = Variable(0, dtype="int64", trainable=False, name="save_counter")
        self._objects["save_counter"] = self.save_counter
        for name, value in kwargs.items():
            setattr(self, name, value)

    def write(self, file_prefix: str | os.PathLike) -> str:
        """Write the values to ``file_prefix.index`` and ``file_prefix.data-00000-of-00001``; the counter and the
        ``checkpoint`` file are left alone.  Returns ``file_prefix``."""
        prefix = os.fspath(file_prefix)
        values = dict(_variables(self, ""))
        os.makedirs(os.path.dirname(prefix) or ".", exist_ok=True)
        with open(prefix + _DATA, "wb") as data:
            np.savez(data, **{path: np.asarray(v.numpy()) for path, v in values.items()})
        index = {"format": FORMAT, "variables": {path: {"shape": list(v.shape), "dtype": v.dtype.name}
                                                 for path, v in values.items()}}
        with open(prefix + _INDEX, "w") as f:
            json.dump(index, f)
        return prefix

    def save(self, file_prefix: str | os.PathLike) -> str:
        """Count one more save and write to ``file_prefix-N`` (N the new ``save_counter``); the directory's
        ``checkpoint`` file then names it as the latest.  Returns the path written."""
        self.save_counter.assign_add(1)
        path = self.write(f"{os.fspath(file_prefix)}-{int(self.save_counter.numpy())}")
        directory = os.path.dirname(path) or "."
        kept = _read_state(directory)
        _write_state(directory, [p for p in kept if p != path] + [path])
        return path

    def read(self, save_path: str | os.PathLike) -> CheckpointLoadStatus:
        """Assign the values a checkpoint holds to the variables at the same paths (``save_counter`` too)."""
        save_path = os.fspath(save_path)
        if not os.path.isfile(save_path + _INDEX) or not os.path.isfile(save_path + _DATA):
            raise NotFoundError(f"Error when restoring from checkpoint or SavedModel at {save_path}: Unsuccessful "
                                f"TensorSliceReader constructor: Failed to find any matching files for {save_path}\n"
                                f"Please double-check that the path is correct. You may be missing the checkpoint "
                                f"suffix (e.g. the '-1' in 'path/to/ckpt-1').")
        saved = _read_values(save_path)
        unmatched = []
        for path, variable in _variables(self, ""):
            if path not in saved:
                unmatched.append(variable)
                continue
            value = saved.pop(path)
            if tuple(value.shape) != tuple(variable.shape):
                raise ValueError(f"Received incompatible tensor with shape {value.shape} when attempting to restore "
                                 f"variable with shape {tuple(variable.shape)} and name {variable.name}:0.")
            variable.assign(value.astype(variable.dtype.as_numpy_dtype))
        for path, holder in _holders(self, ""):
            _defer(holder, path, saved)
        return CheckpointLoadStatus(sorted(saved), unmatched, save_path)

    def restore(self, save_path: str | os.PathLike | None) -> CheckpointLoadStatus:
        """``read``, and ``None`` (no checkpoint yet, as ``latest_checkpoint`` says of an empty directory) restores
        nothing: training starts afresh.

        >>> import minitape as tf
        >>> tf.train.Checkpoint(v=tf.Variable(1.0)).restore("nowhere/ckpt-1")
        Traceback (most recent call last):
        ...
        minitape.core.errors.NotFoundError: Error when restoring from checkpoint or SavedModel at nowhere/ckpt-1: ...
        """
        if save_path is None:
            return CheckpointLoadStatus([], [], None)
        return self.read(save_path)


class CheckpointManager:
    """Numbered saves of one ``Checkpoint`` in ``directory``, keeping the last ``max_to_keep`` (None: all).

    >>> import minitape as tf, tempfile
    >>> manager = tf.train.CheckpointManager(tf.train.Checkpoint(v=tf.Variable(1.0)), tempfile.mkdtemp(), 2)
    >>> for _ in range(3):
    ...     _ = manager.save()
    >>> [os.path.basename(p) for p in manager.checkpoints], os.path.basename(manager.latest_checkpoint)
    (['ckpt-2', 'ckpt-3'], 'ckpt-3')
    """

    def __init__(self, checkpoint: Checkpoint, directory: str | os.PathLike, max_to_keep: int | None,
                 keep_checkpoint_every_n_hours: float | None = None, checkpoint_name: str = "ckpt",
                 step_counter: Any = None, checkpoint_interval: int | None = None, init_fn: Any = None) -> None:
        if max_to_keep is not None and max_to_keep <= 0:
            raise ValueError(f"Expected a positive integer or `None` for `max_to_keep`, got {max_to_keep}.")
        self._checkpoint, self._max_to_keep = checkpoint, max_to_keep
        self.directory = os.fspath(directory)
        self._prefix = os.path.join(self.directory, checkpoint_name)
        self._checkpoints = [p for p in _read_state(self.directory) if os.path.isfile(p + _INDEX)]
        self._init_fn = init_fn

    @property
    def checkpoints(self) -> list[str]:
        """The paths kept, oldest first."""
        return list(self._checkpoints)

    @property
    def latest_checkpoint(self) -> str | None:
        """The newest path kept, or None before the first save."""
        return self._checkpoints[-1] if self._checkpoints else None

    def save(self, checkpoint_number: int | None = None, check_interval: bool = True) -> str:
        """Save as ``ckpt-N`` (N: ``checkpoint_number``, or the checkpoint's save counter, counted up), and delete
        the oldest files beyond ``max_to_keep``.  Returns the path written."""
        self._checkpoint.save_counter.assign_add(1)
        number = int(self._checkpoint.save_counter.numpy()) if checkpoint_number is None else int(checkpoint_number)
        path = self._checkpoint.write(f"{self._prefix}-{number}")
        self._checkpoints = [p for p in self._checkpoints if p != path] + [path]
        while self._max_to_keep is not None and len(self._checkpoints) > self._max_to_keep:
            oldest = self._checkpoints.pop(0)
            for suffix in (_INDEX, _DATA):
                os.remove(oldest + suffix)
        _write_state(self.directory, self._checkpoints)
        return path

    def restore_or_initialize(self) -> str | None:
        """Restore the latest checkpoint if there is one (returning its path), else call ``init_fn``."""
        if self.latest_checkpoint is not None:
            self._checkpoint.restore(self.latest_checkpoint)
            return self.latest_checkpoint
        if self._init_fn is not None:
            self._init_fn()
        return None


def _read_values(save_path: str) -> dict[str, np.ndarray]:
    """The values a checkpoint holds, by path; a file in another format (TF's own, say) is a DataLossError."""
    try:
        with open(save_path + _INDEX) as f:
            index = json.load(f)
        with np.load(save_path + _DATA) as stored:
            values = {path: stored[path] for path in stored.files}
    except (ValueError, OSError, UnicodeDecodeError) as exc:
        raise _unreadable(save_path) from exc
    if not isinstance(index, dict) or index.get("format") != FORMAT:
        raise _unreadable(save_path)
    return values


def _unreadable(save_path: str) -> DataLossError:
    return DataLossError(f"Unable to read the checkpoint {save_path}: its .index file is not minitape's ({FORMAT!r}). "
                         f"minitape reads the checkpoints it writes; one written by TensorFlow is in TF's own binary "
                         f"format, which it does not read.")


def _read_state(directory: str) -> list[str]:
    """The paths the directory's ``checkpoint`` file lists, oldest first (TF's text format)."""
    try:
        with open(os.path.join(directory, _STATE)) as f:
            text = f.read()
    except OSError:
        return []
    paths = re.findall(r'^all_model_checkpoint_paths: "(.*)"$', text, re.M)
    latest = re.findall(r'^model_checkpoint_path: "(.*)"$', text, re.M)
    paths = paths or latest
    return [p if os.path.isabs(p) else os.path.join(directory, p) for p in paths]


def _write_state(directory: str, paths: list[str]) -> None:
    """The ``checkpoint`` file: the latest path and all kept, relative to the directory, as TF writes it."""
    names = [os.path.relpath(p, directory) for p in paths]
    lines = [f'model_checkpoint_path: "{names[-1]}"'] if names else []
    lines += [f'all_model_checkpoint_paths: "{name}"' for name in names]
    lines += [f"all_model_checkpoint_timestamps: {time.time()}" for _ in names]
    with open(os.path.join(directory, _STATE), "w") as f:
        f.write("\n".join(lines) + "\n")


def latest_checkpoint(checkpoint_dir: str | os.PathLike, latest_filename: str | None = None) -> str | None:
    """The path of the newest checkpoint the directory's ``checkpoint`` file names, or None if there is none.

    >>> import minitape as tf, tempfile
    >>> tf.train.latest_checkpoint(tempfile.mkdtemp()) is None
    True
    """
    paths = _read_state(os.fspath(checkpoint_dir))
    return paths[-1] if paths and os.path.isfile(paths[-1] + _INDEX) else None


def list_variables(ckpt_dir_or_file: str | os.PathLike) -> list[tuple[str, list[int]]]:
    """The paths and shapes a checkpoint holds (a directory: its latest checkpoint), sorted by path.

    >>> import minitape as tf, tempfile
    >>> path = tf.train.Checkpoint(w=tf.Variable([1.0, 2.0])).write(f"{tempfile.mkdtemp()}/c")
    >>> tf.train.list_variables(path)
    [('save_counter', []), ('w', [2])]
    """
    path = os.fspath(ckpt_dir_or_file)
    path = (latest_checkpoint(path) or path) if os.path.isdir(path) else path
    with open(path + _INDEX) as f:
        index = json.load(f)["variables"]
    return sorted((name, spec["shape"]) for name, spec in index.items())


__all__ = ["Checkpoint", "CheckpointLoadStatus", "CheckpointManager", "latest_checkpoint", "list_variables",
           "restore_deferred"]
