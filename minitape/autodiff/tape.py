"""The tape: what it records, and how it asks for gradients.

While a [`GradientTape`][minitape.GradientTape] is recording, every op whose inputs the tape
*tracks* (watched tensors and variables, and everything computed from them)
appends one **entry** to the tape.  An entry knows the ids of its inputs and
outputs, and how to turn gradients of its outputs into gradients of its inputs
(its vector-Jacobian product, ``backward``).  Entries keep only the values their
derivative needs; everything else is released as soon as the user drops it.

``tape.gradient`` then runs [`backprop`][minitape.autodiff.backward.backprop]: one
loop over the entries in reverse recording order.  Because the derivatives are themselves minitape ops, a
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
import logging
import operator
from collections.abc import Iterator
from typing import Any

from minitape.core import arrays, backends, events, nest
from minitape.core.entry import Entry
from minitape.core.messages import with_hint
from minitape.core.primitive import Op, OpEntry
from minitape.core.state import state
from minitape.core.tensor import Tensor, Variable, next_id
from minitape.autodiff.backward import backprop
from minitape.autodiff.jacobians import Jacobians
from minitape.autodiff.memory import HeldMemory
from minitape.autodiff.requests import UnconnectedGradients, as_tensors, finish, seeds_for, unconnected_option

logger = logging.getLogger("minitape")
_IS_CALL = operator.attrgetter("is_call")


class GradientTape(Jacobians):
    """Record operations for automatic differentiation (TensorFlow's ``tf.GradientTape``).

    Ops run inside ``with GradientTape() as tape:`` are recorded when they
    depend on something the tape watches: trainable variables (automatically,
    when ``watch_accessed_variables``), or tensors passed to [`watch`][minitape.GradientTape.watch].

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
        self._first_id: int | None = None      # values older than this are the user's, not held for the tape
        self._memory = HeldMemory(first_id=0)
        self._clear()

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
            self._memory.first_id = self._first_id
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
        if self._first_id is None:          # as TF: a tape never entered, and one whose block has ended, differ
            raise RuntimeError("Trying to stop recording a tape which is not recording.")
        if not self._recording:
            raise with_hint(ValueError("Tape is not recording."),
                            "GradientTape.stop_recording: use it inside the tape's `with` block.")
        self._pop()
        try:
            yield
        finally:
            self._push()

    def reset(self) -> None:
        """Forget everything recorded so far (recording continues inside a ``with`` block).

        >>> import minitape as tf
        >>> x = tf.constant(2.0)
        >>> with tf.GradientTape() as tape:
        ...     tape.watch(x)
        ...     y = x * x
        ...     tape.reset()
        ...     tape.watch(x)
        ...     y = 3.0 * x
        >>> tape.gradient(y, x).numpy()
        np.float32(3.0)
        """
        if not self._recording:
            raise with_hint(ValueError("Tape is not recording."),
                            "GradientTape.reset: call it inside the tape's `with` block.")
        self._clear()

    def _clear(self) -> None:
        self._release()
        self._variables: dict[int, Variable] = {}

    def _release(self) -> None:
        """Let go of everything recorded; the watched variables stay listed (TF's, after a gradient)."""
        if getattr(self, "_entries", None):
            self.memory_info()                  # the peak includes what is about to be let go
        self._memory.release()
        self._entries: list[Entry] = []
        self._tracked: set[int] = set()       # ids of what the tape follows: watched values and all computed from them
        self._watched: set[int] = set()       # ids of the watched values themselves

    def _offer(self, entry: Entry) -> None:
        """Keep ``entry`` if it reads anything this tape follows (called by the core's ``record``)."""
        if not self._tracked.isdisjoint(entry.inputs):
            self._entries.append(entry)
            self._tracked.update(entry.outputs)
            if events.listening:        # saves building the event's arguments for nobody, at every op
                events.emit("op", tape=self, entry=entry)

    @property
    def first_id(self) -> int:
        """Ids below this were made before the tape first recorded: those values are the user's.

        >>> import minitape as tf
        >>> x = tf.constant(1.0)
        >>> with tf.GradientTape() as tape:
        ...     y = tf.constant(2.0)
        >>> x._id < tape.first_id < y._id
        True
        """
        return self._first_id or 0

    def entries(self) -> tuple[Entry, ...]:
        """The entries recorded so far, in order (see [`Entry`][minitape.core.entry.Entry]).

        >>> import minitape as tf
        >>> x = tf.constant(1.0)
        >>> with tf.GradientTape() as tape:
        ...     tape.watch(x)
        ...     y = tf.exp(tf.sin(x))
        >>> [entry.label for entry in tape.entries()]
        ['sin', 'exp']
        """
        return tuple(self._entries)

    # -- watching -------------------------------------------------------------
    def watch(self, tensor: Any) -> None:
        """Follow ``tensor`` (a Tensor, a Variable, or a list/dict of them) from now on.

        >>> import minitape as tf
        >>> x = tf.constant(3.0)
        >>> with tf.GradientTape() as tape:
        ...     tape.watch(x)
        ...     y = x * x
        >>> tape.gradient(y, x).numpy()
        np.float32(6.0)
        """
        for item in nest.flatten(tensor):
            if not isinstance(item, Tensor | Variable):
                error = ValueError(f"Passed in object {item} of type {type(item).__name__!r}, "
                                   f"not tf.Tensor or tf.Variable or ExtensionType.")      # TF's words
                raise with_hint(error, "GradientTape.watch follows tensors and variables only: "
                                       "convert it with tf.constant(...) first.")
            if not item.dtype.is_floating:
                logger.warning("The dtype of the watched tensor must be floating (e.g. tf.float32), got %r",
                               item.dtype)
                continue
            if isinstance(item, Variable):
                self._watch_variable(item)
            else:
                self._tracked.add(item._id)
                self._watched.add(item._id)
                self._memory.watch(item)
            events.emit("watch", tape=self, tensor=item)

    def _variable_read(self, variable: Variable) -> None:
        """A variable was read while this tape records: watch it, if this tape watches what is read."""
        if self._watch_accessed_variables and variable.trainable:
            self._watch_variable(variable)

    def _watch_variable(self, variable: Variable) -> None:
        if variable._id not in self._variables and backends.is_floating(variable._value):
            self._variables[variable._id] = variable
            self._tracked.add(variable._id)
            self._watched.add(variable._id)
            self._memory.watch(variable)

    def watched_variables(self) -> tuple[Variable, ...]:
        """The variables this tape watches, in creation order.

        >>> import minitape as tf
        >>> a, b = tf.Variable(1.0, name="a"), tf.Variable(2.0, name="b")
        >>> with tf.GradientTape() as tape:
        ...     y = b * a
        >>> [v.name for v in tape.watched_variables()]
        ['a:0', 'b:0']
        >>> _ = tape.gradient(y, a)                     # a spent tape still lists them, as TF's
        >>> [v.name for v in tape.watched_variables()]
        ['a:0', 'b:0']
        """
        return tuple(self._variables[i] for i in sorted(self._variables))

    # -- memory -------------------------------------------------------------
    def memory_info(self) -> dict[str, int]:
        """Bytes this tape holds for the backward pass: ``{"current": ..., "peak": ...}``.

        Each buffer counts once, however many entries or views refer to it; values
        that existed before the tape started recording are the user's and are not
        counted (see ``minitape.autodiff.memory``).

        >>> import minitape as tf
        >>> x = tf.ones((1000,))
        >>> with tf.GradientTape() as tape:
        ...     tape.watch(x)
        ...     y = tf.tanh(x)                         # tanh keeps its output: 4,000 bytes
        >>> tape.memory_info()
        {'current': 4000, 'peak': 4000}
        >>> _ = tape.gradient(y, x)
        >>> tape.memory_info()
        {'current': 0, 'peak': 4000}
        """
        self._memory.count(self._entries)
        return self._memory.as_dict()

    def saved(self) -> list[dict[str, Any]]:
        """What each entry keeps for its backward step (as JAX's ``print_saved_residuals``).

        >>> import minitape as tf
        >>> x = tf.ones((2,))
        >>> with tf.GradientTape() as tape:
        ...     tape.watch(x)
        ...     y = tf.exp(x)
        >>> [(row["name"], row["role"], row["bytes"]) for row in tape.saved()]
        [('exp', 'output', 8)]
        """
        rows = []
        for index, entry in enumerate(self._entries):
            for role, value in entry.kept():
                role = f"input {role}" if isinstance(role, int) else role
                rows.append({"entry": index, "name": entry.label, "role": role, "shape": tuple(value.shape),
                             "dtype": value.dtype.name, "bytes": arrays.nbytes(value._value),
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
        unconnected = unconnected_option(unconnected_gradients)
        targets = as_tensors(target, "GradientTape.gradient: target")
        flat_sources = as_tensors(sources, "GradientTape.gradient: sources")
        seeds = seeds_for(targets, output_gradients)
        with self._computing_gradient(targets[0] if targets else None):
            # backprop is called here, not through a helper method: nested recomputations pass
            # through gradient once per level of nesting, and each frame on the stack counts.
            followed, reach = self._followed(flat_sources)
            grads = backprop(self._entries, seeds, followed, self, reach)
        # A target that is itself a source gets its seed even when the tape never followed it: d(x)/dx is
        # ones, as in TF (a followed one has it in grads already, with whatever else flowed into it).
        results = [finish(grads.get(s._id, seeds.get(s._id)), s, unconnected) for s in flat_sources]
        return nest.pack_sequence_as(sources, results) if nest.is_nested(sources) else results[0]

    def _followed(self, sources: list[Tensor]) -> tuple[set[int], set[int] | None]:
        """The ids of the sources this tape follows, and of everything they reach when that is known without a walk."""
        followed = {s._id for s in sources if s._id in self._tracked}
        # The tape records only what depends on what it watches: when the sources are all it
        # watches, every entry is connected to them, and what they reach is what it tracks.
        reach = set(self._tracked) if self._watched <= followed else None
        return followed, reach

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
        events.emit("gradient_start", tape=self)
        try:
            # The backward pass runs where the target lives: what it creates (zeros for an unused
            # output, a checkpoint's recomputation) lands beside the values it meets.
            with backends.use(backends.current() if target is None else backends.backend_of(target._value)), \
                    self._quiet_pass():
                yield
        finally:
            if not self._persistent:
                self._spent = True
                self._release()     # a non-persistent tape lets go of every saved value now
            events.emit("gradient_end", tape=self)

    def _quiet_pass(self) -> contextlib.AbstractContextManager:
        """NumPy quiet for the whole backward pass if only ops run in it, else nothing: ``arrays.quiet``.

        Just an optimization: each op makes NumPy quiet while it runs (``arrays.quietly``); the fast path
        finds it quiet already and leaves it so.  The user's own code keeps the user's NumPy settings:
        a call entry (``custom_gradient``, ``recompute_grad``...) runs it, so do the VJPs of an op they wrote
        (``Op.checked``; looked for only once one was made) and a listener to events.
        Saves 2,200 instructions of 43,700 per op of the scalar chain (5%: callgrind, collector off).
        """
        entries = self._entries
        if (events.listening or any(map(_IS_CALL, entries))
                or (Op.written and any(e.op.checked for e in entries if isinstance(e, OpEntry)))):
            return contextlib.nullcontext()
        return arrays.quiet()
