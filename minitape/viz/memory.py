"""What the tapes hold, as a picture tells it: one row per tape, their sum, and the peak of that sum.

Each row is a tape's own ``memory_info()``, as carried by the last event that named
the tape: a tape's holding changes only when it records an entry or lets go, and
both are such events, so the row is exact at every moment.  During a recomputation
the outer tape still holds the checkpoints' inputs while the local tape holds the
recomputed activations: *together* adds them up, and its peak is what the trade
of memory against compute is about.

>>> from minitape.viz.memory import Tapes
>>> rows = Tapes()
>>> outer, local = object(), object()
>>> rows.add(outer); rows.add(local, "local tape (f)", local=True)
>>> _ = rows.remember(outer, {"current": 16, "peak": 16}), rows.remember(local, {"current": 8, "peak": 8})
>>> [(row["tape"], row["current"]) for row in rows.summary()["tapes"]], rows.summary()["peak"]
([('tape', 16), ('local tape (f)', 8)], 24)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Local:
    """A recomputation in progress: the local tape it records on, and where its nodes are drawn.

    ``run`` names the nodes' slots: recomputing the same checkpoint again reuses them.
    ``copies`` are the call's inputs whose fresh copies the local tape watches, in order, each with the
    parameter it is passed as (or None).
    """

    cluster: str | None
    run: str | None
    copies: list[tuple[str, str | None]]
    label: str = "local tape"
    input_name: str | None = None
    ids: dict[int, str] = field(default_factory=dict)       # tensor id -> node key, in this run
    entries: dict[int, str] = field(default_factory=dict)   # id(entry) -> node key, in this run
    ops: int = 0
    values: int = 0
    tape: Any = None        # a chain step's tape, named before it records: kept alive while its id keys this run


@dataclass
class Row:
    """One tape's line: its name, its ``memory_info()`` and the values it keeps."""

    tape: Any
    label: str
    local: bool
    current: int = 0
    peak: int = 0
    kept: set[str] = field(default_factory=set)
    closed: bool = False


class Tapes:
    """The tapes a scene has met, in order, with what each holds (see the module's docstring)."""

    def __init__(self) -> None:
        self.rows: dict[int, Row] = {}
        self.names: dict[int, str] = {}       # id(tape) -> the user's name for it
        self.peak = 0                         # the most all rows together have held
        self._users = 0

    def add(self, tape: Any, label: str | None = None, local: bool = False) -> None:
        """Give ``tape`` a row (once): the user's tapes are named ``tape``, ``tape 2``..., or as in ``names``."""
        if id(tape) in self.rows:
            return
        if not local:
            self._users += 1
            label = self.names.get(id(tape)) or ("tape" if self._users == 1 else f"tape {self._users}")
        self.rows[id(tape)] = Row(tape, label or "local tape", local)

    def remember(self, tape: Any, memory: dict[str, int] | None) -> int | None:
        """Take ``tape``'s ``memory_info()`` from an event; returns how many bytes it grew by."""
        row = self.rows.get(id(tape))
        if row is None or memory is None:
            return None
        added = memory["current"] - row.current
        row.current, row.peak = memory["current"], memory["peak"]
        self.peak = max(self.peak, self.total())
        return added

    def total(self) -> int:
        return sum(row.current for row in self.rows.values())

    def held(self, tape: Any) -> int:
        row = self.rows.get(id(tape))
        return 0 if row is None else row.current

    def label(self, tape: Any) -> str:
        row = self.rows.get(id(tape))
        return "tape" if row is None else row.label

    def keeps(self, tape: Any, keys: list[str]) -> None:
        if id(tape) in self.rows:
            self.rows[id(tape)].kept.update(keys)

    def release(self, tape: Any) -> list[str]:
        """``tape`` let go: the values it kept that no other tape still holds."""
        row = self.rows.get(id(tape))
        if row is None:
            return []
        still = set().union(*(other.kept for other in self.rows.values() if other is not row and other.current))
        freed = sorted(row.kept - still)
        row.kept = set()
        return freed

    def close(self, tape: Any) -> None:
        """``tape`` is done (a local tape after its gradient): its row goes after this moment."""
        if id(tape) in self.rows:
            self.rows[id(tape)].closed = True

    def close_finished(self) -> None:
        for key in [key for key, row in self.rows.items() if row.closed]:
            del self.rows[key]

    def summary(self) -> dict[str, Any]:
        rows = [{"tape": row.label, "current": row.current, "peak": row.peak, "id": id(row.tape), "local": row.local}
                for row in self.rows.values()]
        return {"tapes": rows, "current": self.total(), "peak": self.peak}


def describe_kept(names: list[str], added: int | None) -> str:
    """What an entry keeps, in words, with the bytes its tape grew by (``memory_info()``'s difference).

    >>> from minitape.viz.memory import describe_kept
    >>> describe_kept(["x", "y"], 0), describe_kept(["#3"], 4000), describe_kept([], 0)
    ('keeping x and y (no new bytes: yours, or already held)', 'keeping #3 (+4,000 bytes)', 'keeping nothing')
    """
    if not names:
        return "keeping nothing"
    shown = names[:4] + (["…"] if len(names) > 4 else [])
    what = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]
    if added is None:
        return f"keeping {what}"
    return f"keeping {what} (+{added:,} bytes)" if added else f"keeping {what} (no new bytes: yours, or already held)"
