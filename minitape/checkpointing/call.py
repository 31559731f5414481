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
import contextvars
from types import MappingProxyType
import functools
import inspect
import threading
from collections.abc import Callable, Iterator, Mapping
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

#: The settings a recomputation must see as its first run saw them, such as Keras' training mode (which an
#: outer layer's call sets for the layers inside it), by name.  One ContextVar holds them all, so a
#: checkpoint saves them by saving its value, and nothing else of the context: a notebook kernel keeps in
#: ContextVars which cell its printing goes to, and restoring those would send a recomputation's
#: ``running`` lines to the cell of its forward pass.
_settings: contextvars.ContextVar[Mapping[str, Any]] = contextvars.ContextVar("minitape_settings",
                                                                             default=MappingProxyType({}))


def setting(name: str, default: Any = None) -> Any:
    """The setting ``name`` as it is now (as the forward pass had it, while recomputing).

    >>> from minitape.checkpointing.call import reset_setting, set_setting, setting
    >>> token = set_setting("mode", "training")
    >>> setting("mode"), reset_setting(token), setting("mode", "inference")
    ('training', None, 'inference')
    """
    return _settings.get().get(name, default)


def set_setting(name: str, value: Any) -> contextvars.Token:
    """Set ``name`` for the code that follows (``reset_setting(token)`` undoes it): checkpoints save it.

    >>> from minitape.checkpointing.call import reset_setting, set_setting, setting
    >>> token = set_setting("mode", "training")
    >>> setting("mode")
    'training'
    >>> reset_setting(token)
    """
    return _settings.set(MappingProxyType({**_settings.get(), name: value}))


def reset_setting(token: contextvars.Token) -> None:
    """Undo the ``set_setting`` that gave ``token``.

    >>> from minitape.checkpointing.call import reset_setting, set_setting, setting
    >>> reset_setting(set_setting("mode", "training")); print(setting("mode"))
    None
    """
    _settings.reset(token)


def context_snapshot() -> Mapping[str, Any]:
    """The settings as they are now: a checkpoint keeps this with its call.

    Nothing registers a setting: code that keeps one with ``set_setting`` (Keras' training mode
    does) has it saved with each checkpointed call and restored while
    [`recomputing`][minitape.checkpointing.call.recomputing].

    >>> from minitape.checkpointing.call import context_snapshot, recomputing, reset_setting, set_setting, setting
    >>> token = set_setting("mode", "training")
    >>> saved = context_snapshot()                 # a checkpoint's forward pass takes this...
    >>> reset_setting(token)
    >>> with recomputing(saved):                   # ...and its recomputation runs in it
    ...     setting("mode")
    'training'
    >>> print(setting("mode"))
    None
    """
    return _settings.get()


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
def recomputing(context: Mapping[str, Any] | None = None) -> Iterator[None]:
    """Inside the block, ``is_recomputing`` is true and the settings are those of ``context``
    (a ``context_snapshot`` taken on the forward pass): checkpoints run their functions again in it.

    >>> from minitape.checkpointing.call import is_recomputing, recomputing
    >>> with recomputing():
    ...     is_recomputing()
    True
    """
    token = _settings.set(context) if context is not None else None
    _recomputation.depth += 1
    try:
        yield
    finally:
        _recomputation.depth -= 1
        if token is not None:
            _settings.reset(token)


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
