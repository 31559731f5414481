"""Call entries: a whole function call recorded as one row of the tape.

``recompute_grad``, ``custom_gradient`` and ``checkpoint_chain`` all record a
call, not the ops inside it.  What such an entry needs is the same for all
three, and lives here: the tensors passed in and the trainable variables read
(its inputs), records of what it returned (its outputs), and the rule that an
output nobody differentiated gets a gradient of zeros, not None, as TF hands
to a custom gradient.

>>> import minitape as tf
>>> f = tf.recompute_grad(lambda x: x * x)
>>> x = tf.constant(3.0)
>>> with tf.GradientTape() as tape:
...     tape.watch(x)
...     y = f(x)
>>> (entry,) = tape.entries()
>>> entry.is_call, entry.label, [role for role, _ in entry.kept()]
(True, 'recompute_grad(<lambda>)', [0])
"""
from __future__ import annotations

import contextlib
import functools
import inspect
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any

from minitape.core import nest
from minitape.core.entry import Entry
from minitape.core.primitive import Discarded
from minitape.core.state import variable_accessed
from minitape.core.tensor import Tensor, Variable, convert_to_tensor
from minitape.ops import zeros_like


class CallEntry(Entry):
    """What every call-style entry shares: inputs are arguments and variables read; outputs are recorded.

    Subclasses give ``label`` and ``backward``;
    [`upstream`][minitape.checkpointing.call.CallEntry.upstream] is how they read their outputs' gradients.
    """

    is_call = True

    def __init__(self, arg_tensors: list[Tensor | Variable], variables: list[Variable], outputs: list[Tensor]) -> None:
        self.arg_tensors = list(arg_tensors)
        self.variables = list(variables)
        self.inputs = tuple(t._id for t in self.arg_tensors) + tuple(v._id for v in self.variables)
        self.outputs = tuple(t._id for t in outputs)
        self._output_specs = [Discarded.of(t) for t in outputs]

    def announce_reads(self) -> None:
        """Tell the recording tapes that this call read its variables, arguments included.

        The call ran with every tape paused, so no tape saw it read anything; a tape
        that watches the variables it sees read would miss them and answer None.
        """
        for value in self.input_specs():
            if isinstance(value, Variable):
                variable_accessed(value)

    def upstream(self, output_grads: list[Tensor | None]) -> list[Tensor]:
        """The outputs' gradients, with zeros where an output received none."""
        return [g if g is not None else zeros_like(spec) for g, spec in zip(output_grads, self._output_specs)]

    def kept(self) -> list[tuple[int | str, Tensor]]:
        """The call's tensor arguments: all it needs to run again."""
        return [(k, t) for k, t in enumerate(self.arg_tensors) if isinstance(t, Tensor)]

    def input_specs(self) -> list[Any]:
        return self.arg_tensors + self.variables

    def output_specs(self) -> list[Discarded]:
        return list(self._output_specs)


class _Recomputation(threading.local):
    depth = 0            # how many recomputations are running on this thread, one inside another


_recomputation = _Recomputation()

# Settings a recomputation must see as its forward pass saw them, such as Keras' training mode, which
# an outer layer's call sets for the layers inside it: (read, write) pairs, registered from above.
_CONTEXTS: list[tuple[Callable[[], Any], Callable[[Any], None]]] = []


def register_context(read: Callable[[], Any], write: Callable[[Any], None]) -> Callable[[], None]:
    """Have checkpoints save a setting with each call (``read()``) and restore it while recomputing (``write``).

    Returns a function that undoes the registration.

    >>> from minitape.checkpointing.call import context_snapshot, recomputing, register_context
    >>> mode = {"training": True}
    >>> undo = register_context(lambda: mode["training"], lambda value: mode.update(training=value))
    >>> saved = context_snapshot()                       # a checkpoint's forward pass takes this...
    >>> mode["training"] = None
    >>> with recomputing(saved):                         # ...and its recomputation runs in it
    ...     mode["training"]
    True
    >>> mode["training"], undo()
    (None, None)
    """
    pair = (read, write)
    _CONTEXTS.append(pair)
    return lambda: _CONTEXTS.remove(pair)


def context_snapshot() -> list[Any]:
    """The registered settings as they are now (a checkpoint keeps this with its call).

    >>> from minitape.checkpointing.call import context_snapshot
    >>> isinstance(context_snapshot(), list)
    True
    """
    return [read() for read, _ in _CONTEXTS]


def is_recomputing() -> bool:
    """Whether a checkpointed call is being run again, for the backward pass, on this thread.

    The same signal a function taking ``is_recomputing`` receives, for code that does not take
    it: a Keras layer holding state (``BatchNormalization``'s moving statistics) reads it, so
    the state changes once per training step, not once more per recomputation.

    >>> import minitape as tf
    >>> from minitape.checkpointing import is_recomputing
    >>> seen = []
    >>> def block(x):
    ...     seen.append(is_recomputing())
    ...     return tf.sin(x)
    >>> x = tf.constant(1.0)
    >>> with tf.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = tf.recompute_grad(block)(x)
    >>> _ = tape.gradient(y, x)
    >>> seen, is_recomputing()
    ([False, True], False)
    """
    return _recomputation.depth > 0


@contextlib.contextmanager
def recomputing(context: list[Any] | None = None) -> Iterator[None]:
    """Inside the block, ``is_recomputing`` is true and the settings of ``context`` (a
    ``context_snapshot`` taken on the forward pass) are back: checkpoints run their functions again in it.

    >>> from minitape.checkpointing.call import is_recomputing, recomputing
    >>> with recomputing():
    ...     is_recomputing()
    True
    """
    now = context_snapshot()
    for (_, write), value in zip(_CONTEXTS, context or now):
        write(value)
    _recomputation.depth += 1
    try:
        yield
    finally:
        _recomputation.depth -= 1
        for (_, write), value in zip(_CONTEXTS, now):
            write(value)


def output_tensors(result: Any, f: Callable) -> list[Tensor]:
    """The tensors ``f`` returned (numbers convert, as in TF); anything else is an error.

    >>> from minitape.checkpointing.call import output_tensors
    >>> [t.numpy() for t in output_tensors((1.0, [2.0]), print)]
    [np.float32(1.0), np.float32(2.0)]
    """
    tensors = []
    for leaf in nest.flatten(result):
        try:
            tensors.append(convert_to_tensor(leaf))
        except (TypeError, ValueError):
            raise TypeError(f"{name_of(f)} must return a Tensor or a list/tuple/dict of Tensors, but returned "
                            f"{type(leaf).__name__} {leaf!r}.") from None
    if not tensors:
        raise TypeError(f"{name_of(f)} must return at least one Tensor, but returned {result!r}.")
    return tensors


def trainable_read(read: dict[int, Variable], args: Any = ()) -> list[Variable]:
    """Trainable variables read during a call, other than those passed in ``args``, in creation order.

    >>> import minitape as tf
    >>> from minitape.checkpointing.call import trainable_read
    >>> from minitape.core.state import watch_variable_reads
    >>> w, frozen = tf.Variable(1.0, name="w"), tf.Variable(2.0, trainable=False)
    >>> with watch_variable_reads() as read:
    ...     _ = w * frozen
    >>> [v.name for v in trainable_read(read)]
    ['w:0']
    """
    passed = {v._id for v in nest.flatten(args) if isinstance(v, Variable)}
    return [read[i] for i in sorted(read) if read[i].trainable and i not in passed]


def name_of(f: Callable) -> str:
    """A readable name for a function, layer or callable object.

    >>> from minitape.checkpointing.call import name_of
    >>> name_of(len), name_of(lambda x: x)
    ('len', '<lambda>')
    """
    return getattr(f, "__qualname__", None) or getattr(f, "name", None) or type(f).__name__


def accepts_keyword(f: Callable, keyword: str, or_any_keyword: bool = False) -> bool:
    """Whether ``f`` can be called with ``keyword=...`` (``**kwargs`` counts only if ``or_any_keyword``).

    >>> from minitape.checkpointing.call import accepts_keyword
    >>> accepts_keyword(lambda x, is_recomputing=False: x, "is_recomputing")
    True
    >>> accepts_keyword(lambda x, **kw: x, "variables"), accepts_keyword(lambda x, **kw: x, "variables", True)
    (False, True)
    """
    try:
        parameters = inspect.signature(f).parameters.values()
    except (TypeError, ValueError):
        return False
    named = (inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return any(p.name == keyword and p.kind in named for p in parameters) or (
        or_any_keyword and any(p.kind is p.VAR_KEYWORD for p in parameters))


def copy_metadata(wrapper: Callable, f: Callable) -> None:
    """``functools.wraps`` for functions and callable objects alike; never copies an object's state."""
    functools.update_wrapper(wrapper, f, updated=() if not inspect.isfunction(f) else functools.WRAPPER_UPDATES)
    if not inspect.isfunction(f) and not hasattr(f, "__name__"):
        wrapper.__name__ = wrapper.__qualname__ = type(f).__name__
    wrapper.__wrapped__ = f


def layout(result: Any) -> str:
    """The nesting of what a function returned, as text, each leaf shown as ``·``.

    A recomputation must return the same layout again: the same containers, the same keys.

    >>> from minitape.checkpointing.call import layout
    >>> layout((1, {"b": 2, "a": [3]})), layout({"a": 1, "b": 2}) == layout({"b": 2, "a": 1})
    ("(·, {'a': [·], 'b': ·})", True)
    """
    if isinstance(result, dict):
        inside, brackets = [f"{key!r}: {layout(result[key])}" for key in sorted(result)], "{}"
    elif isinstance(result, list | tuple):
        inside, brackets = [layout(item) for item in result], "[]" if isinstance(result, list) else "()"
    else:
        return "·"
    kind = "" if type(result) in (dict, list, tuple) else type(result).__name__     # a namedtuple, say
    return f"{kind}{brackets[0]}{', '.join(inside)}{brackets[1]}"


#: Frames of Python's stack that one level of nested checkpointed calls may take: the
#: wrapper's own (one on the way forward; ``gradient``, ``backprop`` and the entry's
#: ``backward`` on the way back) and a few for the user's function.
FRAMES_PER_LEVEL = 8
#: The most frames lent at once, on all threads: enough for a nest 2,000 levels deep.  Beyond
#: it a runaway nest meets Python's RecursionError, before it could overflow the C stack.
MOST_FRAMES_LENT = 16_000
_lending = threading.Lock()
_lent = 0


class room_for_one_more_level:
    """Raise Python's recursion limit by ``FRAMES_PER_LEVEL`` while the ``with`` block runs.

    Checkpointed functions that call checkpointed functions recurse, and that recursion is
    the user's (each level's function calls the next); the wrapper, and the backward pass
    that recomputes each level, add frames of their own.  So that a nest can be deeper than
    Python's default limit of 1,000 frames allows (a 1,000-level nest takes about 2,000
    frames forward, 3,000 backward), each level lends the stack room for its frames while
    it runs, and gives it back when it returns, up to ``MOST_FRAMES_LENT``.  Threads lend
    and give back their own room: the limit is only raised by what the levels running need.

    >>> import sys
    >>> from minitape.checkpointing.call import FRAMES_PER_LEVEL, room_for_one_more_level
    >>> before = sys.getrecursionlimit()
    >>> with room_for_one_more_level():
    ...     sys.getrecursionlimit() - before == FRAMES_PER_LEVEL
    True
    >>> sys.getrecursionlimit() == before
    True
    """

    # A class, not a @contextmanager generator: it is entered twice per level and recomputation
    # makes a nest of depth n enter it about n²/2 times.
    def __enter__(self) -> None:
        global _lent
        with _lending:
            self.frames = FRAMES_PER_LEVEL if _lent + FRAMES_PER_LEVEL <= MOST_FRAMES_LENT else 0
            _lent += self.frames
            sys.setrecursionlimit(sys.getrecursionlimit() + self.frames)

    def __exit__(self, *exc_info: Any) -> None:
        global _lent
        with _lending:
            _lent -= self.frames
            sys.setrecursionlimit(sys.getrecursionlimit() - self.frames)
