"""The tape: what it records, and the backward pass that plays it in reverse.

While a :class:`GradientTape` is recording, every op whose inputs the tape
*tracks* (watched tensors and variables, and everything computed from them)
appends one **entry** to the tape.  An entry knows the ids of its inputs and
outputs, and how to turn gradients of its outputs into gradients of its inputs
(its vector-Jacobian product, ``backward``).  Entries keep only the values their
derivative needs; everything else is released as soon as the user drops it.

``tape.gradient`` then runs :func:`backprop`: one loop over the entries in
reverse recording order.  Because the derivatives are themselves minitape ops, a
second tape that is recording while the first computes its gradient records the
derivative, and can differentiate it again.

>>> import minitape as tf
>>> x = tf.constant(3.0)
>>> with tf.GradientTape() as outer:
...     outer.watch(x)
...     with tf.GradientTape() as inner:
...         inner.watch(x)
...         y = x * x * x
...     dy_dx = inner.gradient(y, x)       # 3x² = 27
>>> dy_dx.numpy(), outer.gradient(dy_dx, x).numpy()   # 6x = 18
(np.float32(27.0), np.float32(18.0))
"""
from __future__ import annotations

import builtins
import contextlib
import enum
import itertools
import logging
import math
import threading
from collections.abc import Container, Iterable, Iterator, Sequence
from typing import Any, Protocol

import numpy as np

from minitape import backends, events, nest
from minitape.events import listeners   # one list, filled and emptied in place: the op path tests it
from minitape.tensor import Tensor, Variable, next_id, wrap

logger = logging.getLogger("minitape")


class _ThreadState(threading.local):
    """Per-thread stacks: each thread records onto its own tapes."""

    def __init__(self) -> None:
        self.tapes: list[GradientTape] = []           # tapes recording on this thread
        self.variable_watchers: list[dict] = []       # collectors of variable reads, by id (checkpointing)


state = _ThreadState()


class Entry(Protocol):
    """One row of a tape.  Ops make :class:`~minitape.ops.OpEntry`; checkpoints make their own."""

    inputs: tuple[int, ...]     # ids of the tensors and variables read
    outputs: tuple[int, ...]    # ids of the tensors produced

    def backward(self, output_grads: list[Tensor | None], needed: Container[int]) -> list[Tensor | None]:
        """Gradients of the inputs (None for inputs whose id is not ``needed``), given those of the outputs."""

    def residuals(self) -> list[tuple[int | str, Tensor]]:
        """The values this entry keeps alive for its backward step, each with its role:
        an input's position, or a word such as ``"output"``."""

    def kept(self) -> Sequence[Tensor]:
        """The tensors of :meth:`residuals` without their roles: what memory accounting counts."""
        return [t for _, t in self.residuals()]


class UnconnectedGradients(enum.Enum):
    """What ``gradient`` returns for a source the target does not depend on."""

    NONE = "none"
    ZERO = "zero"


# --------------------------------------------------------------------------- recording

def record(entry: Entry, tapes: list[GradientTape] | None = None) -> None:
    """Append ``entry`` to every recording tape (of this thread, or ``tapes``) that tracks one of its inputs."""
    for tape in state.tapes if tapes is None else tapes:
        tracked = tape._tracked
        if not tracked.isdisjoint(entry.inputs):
            tape._entries.append(entry)
            tracked.update(entry.outputs)
            if listeners:
                events.emit("op", tape=tape, entry=entry, memory=tape.memory_info())


def memory_now() -> dict[str, int] | None:
    """The memory of the innermost recording tape of this thread (for events), or None."""
    return state.tapes[-1].memory_info() if state.tapes else None


def variable_accessed(variable: Variable) -> None:
    """Called on every variable read: tapes may start watching it, checkpoints note it."""
    for tape in state.tapes:
        if variable._id not in tape._variables and tape._watch_accessed_variables and variable.trainable:
            tape._watch_variable(variable)
    for watcher in state.variable_watchers:
        watcher[variable._id] = variable


@contextlib.contextmanager
def stop_recording() -> Iterator[None]:
    """Pause every tape of this thread (a checkpoint's forward pass runs inside this)."""
    paused, state.tapes = state.tapes, []
    try:
        yield
    finally:
        state.tapes = paused + state.tapes


@contextlib.contextmanager
def watch_variable_reads() -> Iterator[dict[int, Variable]]:
    """Collect, into the yielded dict (id to variable), every variable read inside the ``with`` block."""
    seen: dict[int, Variable] = {}
    state.variable_watchers.append(seen)
    try:
        yield seen
    finally:
        state.variable_watchers.pop()      # watchers nest like the with blocks that push them


# --------------------------------------------------------------------------- the backward pass

def backprop(entries: list[Entry], seeds: dict[int, Tensor], sources: Iterable[int],
             reach: set[int] | None = None, tape: GradientTape | None = None) -> dict[int, Tensor]:
    """Reverse-mode accumulation over ``entries``; returns the gradient of each reached id.

    ``seeds`` maps target ids to their upstream gradient (ones for ``tape.gradient``).
    Only entries on a path from a source to a target do any work.  ``reach``, the
    ids that depend on some source, is worked out here unless the caller knows it.
    ``tape`` only labels the events.
    """
    sources = set(sources)
    if reach is None:
        reach = set(sources)
        relevant = []
        for entry in entries:
            if not reach.isdisjoint(entry.inputs):
                reach.update(entry.outputs)
                relevant.append(entry)
    else:
        relevant = list(entries)

    grads = {i: g for i, g in seeds.items() if i in reach}
    for entry in reversed(relevant):
        outputs = entry.outputs
        if len(outputs) == 1:          # the common case, without a call: see _take_output_grads
            out = outputs[0]
            g = grads.get(out) if out in sources else grads.pop(out, None)
            out_grads = None if g is None else [g]
        else:
            out_grads = _take_output_grads(grads, outputs, sources)
        if out_grads is None:
            continue                   # nothing flows back through this entry
        in_grads = entry.backward(out_grads, reach)
        if listeners:
            events.emit("backward_step", entry=entry, output_grads=out_grads, input_grads=in_grads, tape=tape,
                        memory=tape.memory_info() if tape is not None else None)
        for i, g in zip(entry.inputs, in_grads):
            if g is not None:
                grads[i] = g if i not in grads else grads[i] + g   # a value used twice sums its gradients
    return grads


def _take_output_grads(grads: dict[int, Tensor], outputs: tuple[int, ...], sources: set[int]) -> list | None:
    """The gradients of an entry's outputs, or None if none has one.

    Every later entry has run, so each gradient is complete: take it out of ``grads``
    (freeing memory as the pass goes), unless a source needs it at the end.
    """
    taken = [grads.get(i) if i in sources else grads.pop(i, None) for i in outputs]
    for g in taken:
        if g is not None:
            return taken
    return None


# --------------------------------------------------------------------------- GradientTape

_NOT_TENSOR = "{what} must be a minitape Tensor or Variable (or a list/dict of them), got {kind} {value!r}."


class GradientTape:
    """Record operations for automatic differentiation (TensorFlow's ``tf.GradientTape``).

    Ops run inside ``with GradientTape() as tape:`` are recorded when they
    depend on something the tape watches: trainable variables (automatically,
    when ``watch_accessed_variables``), or tensors passed to :meth:`watch`.

    Args:
        persistent: allow more than one ``gradient``/``jacobian`` call.  A
            non-persistent tape frees everything it held when its first
            ``gradient`` returns.
        watch_accessed_variables: watch every trainable variable read while recording.

    >>> import minitape as tf
    >>> w = tf.Variable(2.0)
    >>> with tf.GradientTape() as tape:
    ...     loss = w * w + 3.0 * w
    >>> tape.gradient(loss, w)
    <minitape.Tensor: shape=(), dtype=float32, numpy=7.0>
    """

    def __init__(self, persistent: bool = False, watch_accessed_variables: bool = True) -> None:
        self._persistent = bool(persistent)
        self._watch_accessed_variables = bool(watch_accessed_variables)
        self._recording = False
        self._spent = False
        self._first_id = None       # values older than this are the user's, not held for the tape
        self._peak = 0
        self.reset()

    # -- recording on and off -------------------------------------------------
    def __enter__(self) -> "GradientTape":
        if self._recording:
            raise ValueError("Tape is still recording, This can happen if you try to re-enter an "
                             "already-active tape.")
        self._push()
        return self

    def __exit__(self, *exc_info: Any) -> None:
        if self._recording:
            self._pop()

    def _push(self) -> None:
        if self._first_id is None:
            self._first_id = next_id()
        state.tapes.append(self)
        self._recording = True

    def _pop(self) -> None:
        state.tapes.remove(self)
        self._recording = False

    @contextlib.contextmanager
    def stop_recording(self) -> Iterator[None]:
        """Temporarily stop recording on this tape.

        >>> import minitape as tf
        >>> x = tf.constant(2.0)
        >>> with tf.GradientTape() as tape:
        ...     tape.watch(x)
        ...     with tape.stop_recording():
        ...         y = x * x
        >>> print(tape.gradient(y, x))
        None
        """
        if not self._recording:
            raise RuntimeError("Trying to stop recording a tape which is not recording.")
        self._pop()
        try:
            yield
        finally:
            self._push()

    def reset(self) -> None:
        """Forget everything recorded so far (recording continues inside a ``with`` block)."""
        if getattr(self, "_entries", None):
            self._account()                     # the peak includes what is about to be let go
        self._entries: list[Entry] = []
        self._buffers: dict[int, Any] = {}    # buffers counted by memory_info, by id (kept alive by the entries)
        self._held = 0
        self._counted = 0
        self._tracked: set[int] = set()       # ids of what the tape follows: watched values and all computed from them
        self._watched: set[int] = set()       # ids of the watched values themselves
        self._variables: dict[int, Variable] = {}

    # -- watching -------------------------------------------------------------
    def watch(self, tensor: Any) -> None:
        """Follow ``tensor`` (a Tensor, a Variable, or a list/dict of them) from now on."""
        for item in nest.flatten(tensor):
            if not isinstance(item, Tensor | Variable):
                raise ValueError(f"Passed in object {item} of type {type(item).__name__!r}, not "
                                 f"minitape.Tensor or minitape.Variable. Convert it with tf.constant(...) first.")
            if not item.dtype.is_floating:
                logger.warning("The dtype of the watched tensor must be floating (e.g. tf.float32), got %r",
                               item.dtype)
                continue
            if isinstance(item, Variable):
                self._watch_variable(item)
            else:
                self._tracked.add(item._id)
                self._watched.add(item._id)
            if events.listeners:
                events.emit("watch", tape=self, tensor=item, memory=self.memory_info())

    def _watch_variable(self, variable: Variable) -> None:
        if variable._id not in self._variables and backends.is_floating(variable._value):
            self._variables[variable._id] = variable
            self._tracked.add(variable._id)
            self._watched.add(variable._id)

    def watched_variables(self) -> tuple[Variable, ...]:
        """The variables this tape watches, in creation order."""
        return tuple(self._variables[i] for i in sorted(self._variables))

    # -- memory -------------------------------------------------------------
    def memory_info(self) -> dict[str, int]:
        """Bytes this tape holds for the backward pass: ``{"current": ..., "peak": ...}``.

        Each buffer counts once, however many entries or views refer to it.  Values
        that existed before the tape started recording (inputs, variables' values)
        are the user's and are not counted.  Recording only adds to what is held,
        so the peak is the most held at any moment before a release.

        >>> import minitape as tf
        >>> x = tf.ones((1000,))                       # 4,000 bytes, the user's
        >>> with tf.GradientTape() as tape:
        ...     tape.watch(x)
        ...     y = tf.tanh(x)                         # tanh keeps its output: 4,000 bytes
        ...     z = tf.reduce_sum(y * 2.0 + y)         # `*` keeps y (counted once) and the 4-byte 2.0
        >>> tape.memory_info()
        {'current': 4004, 'peak': 4004}
        >>> _ = tape.gradient(z, x)
        >>> tape.memory_info()
        {'current': 0, 'peak': 4004}
        """
        self._account()
        return {"current": self._held, "peak": self._peak}

    def _account(self) -> None:
        """Count the buffers of the entries recorded since the last count (so each entry is counted once)."""
        first, buffers, held = self._first_id or 0, self._buffers, self._held
        for entry in itertools.islice(self._entries, self._counted, None):
            for value in entry.kept():
                if value._id >= first:
                    array = value._value
                    scalar = backends.SCALARS.get(type(array))     # a NumPy scalar owns its few bytes
                    if scalar is None:
                        array = _root_buffer(array)
                    key = id(array)
                    if key not in buffers:
                        buffers[key] = array
                        held += backends.nbytes(array) if scalar is None else scalar.itemsize
        self._held, self._counted = held, len(self._entries)
        self._peak = max(self._peak, self._held)

    def saved(self) -> list[dict[str, Any]]:
        """What each entry keeps for its backward step (as JAX's ``print_saved_residuals``)."""
        rows = []
        for index, entry in enumerate(self._entries):
            for role, value in entry.residuals():
                role = f"input {role}" if isinstance(role, int) else role
                rows.append({"entry": index, "name": _entry_name(entry), "role": role, "shape": tuple(value.shape),
                             "dtype": value.dtype.name, "bytes": backends.nbytes(value._value),
                             "users": value._id < (self._first_id or 0)})
        return rows

    def print_saved(self) -> None:
        """Print one line per kept value: its type, what it is, and which entry keeps it.

        >>> import minitape as tf
        >>> x = tf.ones((2, 3))
        >>> with tf.GradientTape() as tape:
        ...     tape.watch(x)
        ...     y = tf.tanh(x @ tf.ones((3, 4)) + 1.0)
        >>> tape.print_saved()
        float32[2,3]  input 0 of matmul (entry 0), the user's
        float32[3,4]  input 1 of matmul (entry 0)
        float32[2,4]  output of tanh (entry 2)
        """
        for row in self.saved():
            shape = ",".join(str(n) for n in row["shape"])
            owner = ", the user's" if row["users"] else ""
            builtins.print(f"{row['dtype']}[{shape}]  {row['role']} of {row['name']} (entry {row['entry']}){owner}")

    def picture(self, names: dict[str, Any] | None = None) -> Any:
        """A :class:`~minitape.viz.Scene` of what this tape holds (display it, or call ``to_dot``/``to_svg``)."""
        from minitape.viz import Scene
        return Scene.of_tape(self, names)

    def _repr_svg_(self) -> str:
        return self.picture().to_svg()

    # -- gradients ------------------------------------------------------------
    def gradient(self, target: Any, sources: Any, output_gradients: Any = None,
                 unconnected_gradients: UnconnectedGradients | str = UnconnectedGradients.NONE) -> Any:
        """The gradient of ``target`` with respect to each of ``sources``, in the same structure.

        A non-scalar target (or a list of targets) is summed first, unless
        ``output_gradients`` gives the upstream gradient of each target.
        Sources the target does not depend on get ``None``, or zeros with
        ``unconnected_gradients=tf.UnconnectedGradients.ZERO``.

        >>> import minitape as tf
        >>> x, y = tf.constant(3.0), tf.constant(4.0)
        >>> with tf.GradientTape() as tape:
        ...     tape.watch([x, y])
        ...     z = x * y
        >>> tape.gradient(z, {"x": x, "y": y})
        {'x': <minitape.Tensor: shape=(), dtype=float32, numpy=4.0>, 'y': <minitape.Tensor: shape=(), dtype=float32, numpy=3.0>}
        """
        unconnected = UnconnectedGradients(unconnected_gradients)
        targets = _as_tensors(target, "GradientTape.gradient: target")
        flat_sources = _as_tensors(sources, "GradientTape.gradient: sources")
        seeds = _seeds(targets, output_gradients)
        followed = self._followed(flat_sources)
        with self._computing_gradient(targets[0] if targets else None):
            grads = backprop(self._entries, seeds, followed, self._reach_if_all_watched(followed), self)
        results = [_finish(grads.get(s._id), s, unconnected) for s in flat_sources]
        return nest.pack_sequence_as(sources, results) if nest.is_nested(sources) else results[0]

    def jacobian(self, target: Any, sources: Any,
                 unconnected_gradients: UnconnectedGradients | str = UnconnectedGradients.NONE,
                 parallel_iterations: int | None = None, experimental_use_pfor: bool = True) -> Any:
        """The Jacobian of ``target`` with respect to each source: shape ``target.shape + source.shape``.

        >>> import minitape as tf
        >>> x = tf.constant([1.0, 2.0])
        >>> with tf.GradientTape() as tape:
        ...     tape.watch(x)
        ...     y = x * x
        >>> tape.jacobian(y, x).numpy()
        array([[2., 0.],
               [0., 4.]], dtype=float32)
        """
        unconnected = UnconnectedGradients(unconnected_gradients)
        (y,) = _as_tensors(target, "GradientTape.jacobian: target", single=True)
        flat_sources = _as_tensors(sources, "GradientTape.jacobian: sources")
        rows = self._rows(y, flat_sources, _one_hots(y, y.shape))
        results = [_jacobian_of(row, y.shape, s, unconnected) for row, s in zip(rows, flat_sources)]
        return nest.pack_sequence_as(sources, results) if nest.is_nested(sources) else results[0]

    def batch_jacobian(self, target: Any, source: Any,
                       unconnected_gradients: UnconnectedGradients | str = UnconnectedGradients.NONE,
                       parallel_iterations: int | None = None, experimental_use_pfor: bool = True) -> Tensor | None:
        """Per-example Jacobians: ``target[i]`` against ``source[i]``, stacked over the batch.

        Assumes example ``i`` of the target depends only on example ``i`` of the source.

        >>> import minitape as tf
        >>> x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
        >>> with tf.GradientTape() as tape:
        ...     tape.watch(x)
        ...     y = x * x
        >>> tape.batch_jacobian(y, x).shape
        TensorShape([2, 2, 2])
        """
        unconnected = UnconnectedGradients(unconnected_gradients)
        (y,) = _as_tensors(target, "GradientTape.batch_jacobian: target", single=True)
        (x,) = _as_tensors(source, "GradientTape.batch_jacobian: source", single=True)
        if y.ndim == 0 or x.ndim == 0 or y.shape[0] != x.shape[0]:
            raise ValueError(f"batch_jacobian needs target and source with the same first (batch) "
                             f"dimension, got shapes {tuple(y.shape)} and {tuple(x.shape)}.")
        batch = y.shape[0]
        seeds = _one_hots(y, y.shape[1:])
        (row,) = self._rows(y, [x], seeds)
        if all(g is None for g in row) and unconnected is UnconnectedGradients.NONE:
            return None
        columns = [g if g is not None else _ops.zeros_like(x) for g in row]
        stacked = _ops.stack(columns, axis=1) if columns else _ops.zeros((batch, 0) + tuple(x.shape[1:]), x.dtype)
        return _ops.reshape(stacked, tuple(y.shape) + tuple(x.shape[1:]))

    def _rows(self, y: Tensor, sources: list[Tensor], seeds: list[Any]) -> list[list[Tensor | None]]:
        """One backward pass per seed; returns, per source, the list of gradients."""
        ids = [s._id for s in sources]
        rows: list[list[Tensor | None]] = [[] for _ in sources]
        with self._computing_gradient(y):
            followed = self._followed(sources)
            reach = self._reach_if_all_watched(followed)
            for seed in seeds:
                grads = backprop(self._entries, {y._id: wrap(seed)}, followed, reach, self)
                for row, i in zip(rows, ids):
                    row.append(grads.get(i))
        return rows

    def _followed(self, sources: list[Tensor]) -> list[int]:
        """Ids of the sources this tape tracks: only they can receive a gradient."""
        return [s._id for s in sources if s._id in self._tracked]

    def _reach_if_all_watched(self, sources: list[int]) -> set[int] | None:
        """What depends on the sources, when that is simply everything the tape tracks.

        The tracked set is, by construction, everything computed from what the tape
        watches: if the sources are all the watched values, backprop need not work it out.
        """
        return set(self._tracked) if self._watched <= set(sources) else None

    @contextlib.contextmanager
    def _computing_gradient(self, target: Tensor | None) -> Iterator[None]:
        if self._spent:
            raise RuntimeError("A non-persistent GradientTape can only be used to compute one set of "
                               "gradients (or jacobians)")
        paused = self._recording and not self._persistent
        if paused:
            self._pop()
        elif self._recording:
            logger.warning(
                "Calling GradientTape.gradient on a persistent tape inside its context is significantly "
                "less efficient than calling it outside the context (it causes the gradient ops to be "
                "recorded on the tape, leading to increased CPU and memory usage). Only call "
                "GradientTape.gradient inside the context if you actually want to trace the gradient "
                "in order to compute higher order derivatives.")
        if events.listeners:
            events.emit("gradient_start", tape=self, memory=self.memory_info())
        try:
            # The backward pass runs where the target lives: what it creates (zeros for an unused
            # output, a checkpoint's recomputation) lands beside the values it meets.
            with backends.use(backends.current() if target is None else backends.backend_of(target._value)):
                yield
        finally:
            if not self._persistent:
                self._spent = True
                self.reset()        # a non-persistent tape lets go of every saved value now
            if events.listeners:
                events.emit("gradient_end", tape=self, memory=self.memory_info())


# --------------------------------------------------------------------------- helpers

def _root_buffer(array: Any) -> Any:
    """The array that owns the memory a view looks into (the array itself if it owns it)."""
    try:
        base = array.base           # NumPy and CuPy views know their base...
    except AttributeError:
        return array                # ...the standard has no such thing
    while base is not None and hasattr(base, "nbytes"):
        array, base = base, base.base
    return array


def _entry_name(entry: Entry) -> str:
    op = getattr(entry, "op", None)
    return op.name if op is not None else getattr(entry, "name", type(entry).__name__)


def _as_tensors(structure: Any, what: str, single: bool = False) -> list[Tensor]:
    """Flatten ``structure``; variables become snapshots carrying the variable's id."""
    leaves = nest.flatten(structure)
    if single and len(leaves) != 1:
        raise TypeError(f"{what} must be a single Tensor, got {structure!r}.")
    tensors = []
    for leaf in leaves:
        if isinstance(leaf, Variable):
            leaf = wrap(leaf._value, leaf._id)
        elif not isinstance(leaf, Tensor):
            raise TypeError(_NOT_TENSOR.format(what=what, kind=type(leaf).__name__, value=leaf))
        tensors.append(leaf)
    return tensors


def _seeds(targets: list[Tensor], output_gradients: Any) -> dict[int, Tensor]:
    """The upstream gradient of each target: ones, or the given ``output_gradients``."""
    given = [None] * len(targets) if output_gradients is None else nest.flatten(output_gradients)
    if len(given) != len(targets):
        raise ValueError(f"GradientTape.gradient: output_gradients has {len(given)} entries but there "
                         f"are {len(targets)} targets; give one per target (or None).")
    seeds: dict[int, Tensor] = {}
    for target, seed in zip(targets, given):
        if seed is None:
            seed = wrap(backends.full_beside(target._value, target._value.shape, 1))
        else:
            seed = _ops.cast(seed, target.dtype)
            if tuple(seed.shape) != tuple(target.shape):
                raise _errors.InvalidArgumentError(
                    f"GradientTape.gradient: output_gradients has shape {tuple(seed.shape)} but its target "
                    f"has shape {tuple(target.shape)}; each output gradient must match its target's shape.")
        seeds[target._id] = seeds[target._id] + seed if target._id in seeds else seed
    return seeds


def _finish(grad: Tensor | None, source: Tensor, unconnected: UnconnectedGradients) -> Tensor | None:
    if grad is None and unconnected is UnconnectedGradients.ZERO:
        return _ops.zeros_like(source)
    return grad


def _one_hots(y: Tensor, shape: tuple[int, ...]) -> list[Any]:
    """One seed per position of ``shape``: 1 there and 0 elsewhere, broadcast to ``y``'s shape, on its device."""
    eye = np.eye(math.prod(shape), dtype=y.dtype.as_numpy_dtype_)
    return [backends.asarray_beside(y._value, np.broadcast_to(row.reshape(shape), y.shape)) for row in eye]


def _jacobian_of(row: list[Tensor | None], target_shape: tuple[int, ...], source: Tensor,
                 unconnected: UnconnectedGradients) -> Tensor | None:
    shape = tuple(target_shape) + tuple(source.shape)
    if all(g is None for g in row):
        return None if unconnected is UnconnectedGradients.NONE else _ops.zeros(shape, source.dtype)
    pieces = [g if g is not None else _ops.zeros_like(source) for g in row]
    return _ops.reshape(_ops.stack(pieces), shape)


from minitape import errors as _errors  # noqa: E402
from minitape import ops as _ops  # noqa: E402
