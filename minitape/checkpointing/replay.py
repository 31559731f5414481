"""Running a checkpointed function a second time as it ran the first.

``recompute_grad`` runs its function twice: untraced on the forward pass, under a
local tape on the backward pass.  For the second run to compute what the first
computed, the first run notes what it depends on besides its arguments, and the
second run brings it back:

* the seed its random ops drew from (``minitape.random``): dropout drops the same units;
* its settings (``minitape.checkpointing.call.setting``) as they were: Keras' training mode,
  which an outer layer's call sets for the layers inside it, is one.  No list of settings is
  kept: whatever is set with ``set_setting`` comes back, and nothing else of the context (a
  notebook kernel's own ContextVars say which cell printing goes to).

Beside these, each run lends Python's stack room for one more level of nested
checkpoints (``room_for_one_more_level``).

>>> import minitape as tf
>>> from minitape.checkpointing.replay import replaying, untraced
>>> with untraced() as first:
...     a = tf.random.uniform((3,))
>>> with replaying(first):
...     b = tf.random.uniform((3,))
>>> bool((a.numpy() == b.numpy()).all()), first.variables
(True, [])
"""
from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from minitape.core import random
from minitape.core.state import stop_recording, watch_variable_reads
from minitape.core.tensor import Variable
from minitape.checkpointing.call import context_snapshot, recomputing, trainable_read


@dataclass
class FirstRun:
    """What the first run of a checkpointed function depended on, besides its arguments."""

    context: Mapping[str, Any]                                  # the settings, as the run began
    variables: list[Variable] = field(default_factory=list)     # the trainable variables it read
    seed: int | None = None                                     # its random ops' seeds came from this one


@contextlib.contextmanager
def untraced() -> Iterator[FirstRun]:
    """Run the block with every tape paused, noting what running it again needs (see the module's docstring).

    >>> import minitape as tf
    >>> from minitape.checkpointing.replay import untraced
    >>> w, x = tf.Variable(2.0, name="w"), tf.constant(3.0)
    >>> with tf.GradientTape() as tape:
    ...     tape.watch(x)
    ...     with untraced() as first:
    ...         y = w * x
    >>> tape.entries(), [v.name for v in first.variables]
    ((), ['w:0'])
    """
    first = FirstRun(context_snapshot())
    with stop_recording(), watch_variable_reads() as read, random.replay(random.Source()) as source, \
            room_for_one_more_level():
        yield first
    first.variables, first.seed = trainable_read(read), source.seed


@contextlib.contextmanager
def replaying(first: FirstRun) -> Iterator[None]:
    """Run the block as ``first`` ran: the same random seeds, the same settings, and ``is_recomputing()`` true.

    >>> import minitape as tf
    >>> from minitape.checkpointing import is_recomputing
    >>> from minitape.checkpointing.replay import replaying, untraced
    >>> with untraced() as first:
    ...     pass
    >>> with replaying(first):
    ...     is_recomputing()
    True
    """
    with random.replay(random.Source(first.seed)), recomputing(first.context):
        yield


#: Frames of Python's stack that one level of nested checkpointed calls may take: the
#: wrapper's own (two on the way forward; ``gradient``, ``backprop`` and the entry's
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
    >>> from minitape.checkpointing.replay import FRAMES_PER_LEVEL, room_for_one_more_level
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
