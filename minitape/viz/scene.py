"""Visualisation: pictures of a tape, and of any moment of a timeline.

A ``Scene`` is what a picture shows at one moment.  It is built by
replaying events (see ``events``) one by one, so the same code draws
a finished tape, the forward pass half-way, or the backward pass in the middle
of recomputing a checkpoint.  ``to_dot`` writes Graphviz DOT (``minitape.viz.dot``), with
stable node names so that the text can be compared in tests; ``to_svg``
lays it out (``minitape.viz.render``).

Every number a scene shows is one the public API gave at that moment:

* a value's ``grad`` is ``tape.gradient(target, value)``: written when the backward pass
  has it complete (an entry's outputs when the entry is reached, the tape's leaves when the
  pass ends), and cleared when a new ``gradient`` call starts;
* the memory of each tape is its ``memory_info()``, as carried by the last event that
  named the tape (a tape's holding changes only at such events); a recomputation's local
  tape has its own row while it lives; *together* is their sum, and its peak the most
  that sum has been.

Nodes keep their names across recomputations: the k-th op recomputed for a checkpoint is
the same node every time that checkpoint is recomputed (a persistent tape's second
``gradient``), so a player lays the whole timeline out once.

>>> import minitape as tf
>>> x = tf.constant(2.0)
>>> with tf.GradientTape() as tape:
...     tape.watch(x)
...     y = tf.tanh(x * x)
>>> scene = tf.viz.Scene.of_tape(tape, names={"x": x, "y": y})
>>> [scene.look(key) for key in scene.values]
[('user', ['x', 'float32[]', '2']), ('discarded', ['#1', 'float32[]']), ('saved', ['y', 'float32[]', '0.999329329'])]
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

from minitape.autodiff.memory import HeldMemory
from minitape.core.events import Event
from minitape.core.tensor import Tensor, Variable, wrap
from minitape.viz.backward import BackwardPass
from minitape.viz.dot import OpNode, ValueNode, to_dot
from minitape.viz.memory import Local, Tapes, describe_kept
from minitape.viz.names import name_map, parameter_names, short, tape_names
from minitape.viz.render import to_svg


@dataclass(repr=False)
class Scene(BackwardPass):
    """What a picture shows at one moment; ``apply`` moves it on by one event.

    >>> import minitape as tf
    >>> x = tf.constant(1.0)
    >>> with tf.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = tf.exp(x)
    >>> scene = tf.viz.Scene.of_tape(tape, names={"x": x, "y": y})
    >>> [value.name for value in scene.values.values()], [op.name for op in scene.ops.values()]
    (['x', 'y'], ['exp'])
    >>> scene.said
    'recorded exp, keeping y (+4 bytes)'
    """

    names: dict[int, str] = field(default_factory=dict)
    values: dict[str, ValueNode] = field(default_factory=dict)
    ops: dict[str, OpNode] = field(default_factory=dict)
    clusters: dict[str, str] = field(default_factory=dict)     # a recomputed call's key -> its cluster's look
    links: list[tuple[str, str]] = field(default_factory=list)  # a value -> the fresh copy a local tape watches
    tapes: Tapes = field(default_factory=Tapes)
    current: str | None = None
    phase: str = "forward"
    trace: str = ""
    said: str = "nothing yet"
    dirty: set[str] = field(default_factory=set)               # elements changed since the player last looked

    def __post_init__(self) -> None:
        self._ids: dict[int, str] = {}          # a value of the user's tapes: tensor id -> node key
        self._entries: dict[int, str] = {}      # an entry of the user's tapes: id(entry) -> node key
        self._reserved: dict[int, str] = {}     # a call known before it is recorded (checkpoint_chain)
        self._slots: dict[tuple, str] = {}      # (run, kind, k) -> node key: recomputations reuse their nodes
        self._locals: dict[int, Local] = {}     # id(local tape) -> its recomputation
        self._passes: dict[int, dict[int, Any]] = {}    # id(tape) -> gradients flowing into its leaves so far
        self._made = {"v": itertools.count(), "o": itertools.count()}   # node keys handed out: v0, v1...; o0, o1...
        self._numbers: dict[str, int] = {}      # an unnamed value's node key -> its n in "#n": 1, 2, 3... as they appear

    def _new_key(self, kind: str) -> str:
        return f"{kind}{next(self._made[kind])}"

    # -- building -------------------------------------------------------------
    @classmethod
    def named(cls, names: dict[str, Any] | None) -> "Scene":
        """An empty scene that labels values and tapes with the user's names (``names=locals()``).

        >>> import minitape as tf
        >>> list(tf.viz.Scene.named({"x": tf.constant(1.0)}).names.values())
        ['x']
        """
        scene = cls(names=name_map(names))
        scene.tapes.names = tape_names(names)
        return scene

    @classmethod
    def of_tape(cls, tape: Any, names: dict[str, Any] | None = None) -> "Scene":
        """The picture of everything ``tape`` holds now.

        >>> import minitape as tf
        >>> x = tf.constant(1.0)
        >>> with tf.GradientTape() as tape:
        ...     tape.watch(x)
        ...     y = tf.sin(tf.exp(x))
        >>> [op.name for op in tf.viz.Scene.of_tape(tape).ops.values()]
        ['exp', 'sin']
        """
        # As apply(Event("op", ...)) for each entry would draw it, with the memory_info() of that moment;
        # recording only adds to what a tape holds, so the rows need only the last two moments.
        scene, entries, held = cls.named(names), tape.entries(), HeldMemory(tape.first_id)
        if not entries:
            return scene
        scene.tapes.add(tape)
        for entry in entries:
            node, kept = scene._draw(tape, entry, None)
        scene.tapes.remember(tape, {"current": held.count(entries[:-1]), "peak": held.peak})
        held.count(entries)
        scene.said = scene._recorded(node, kept, scene.tapes.remember(tape, held.as_dict()), None)
        scene.current = None                     # a tape drawn whole: no step is in progress
        return scene

    def apply(self, event: Event) -> None:
        """Fold one event into the scene and say, in words, what happened.

        >>> import minitape as tf
        >>> scene = tf.viz.Scene()
        >>> scene.apply(tf.events.Event("print", {"text": "hello\\n"}))
        >>> scene.said, scene.trace
        ("printed 'hello'", 'hello\\n')
        """
        self.tapes.close_finished()
        handler = getattr(self, "_on_" + event.kind, None)
        if handler is not None:
            handler(**event.data)

    def _scope(self, tape: Any) -> Local | None:
        """The recomputation ``tape`` records for (a chain's step's tape is named by its event); None for the user's."""
        local = self._locals.get(id(tape))
        self.tapes.add(tape, local and local.label, local=local is not None)     # a row from its first event on
        return local

    def _on_watch(self, tape: Any, tensor: Any, memory: dict) -> None:
        local = self._scope(tape)
        self.tapes.remember(tape, memory)
        if local is None:
            key = self._value(self._ids, tensor._id, tensor, tape)
            self.values[key].users = True
            self.said = f"the tape watches {self.values[key].name}"
        elif local.cluster is not None:
            if isinstance(tensor, Variable):    # a variable the call reads: the user's, drawn once
                key = self._value(self._ids, tensor._id, tensor, tape)
            else:                               # a fresh copy of one of the call's inputs
                outer, param = local.copies.pop(0) if local.copies else (None, None)
                name = f"copy of {self.values[outer].name}" if outer else local.input_name
                if outer and param and param != self.values[outer].name:
                    name = f"{param} ({name})"
                key = self._value(local.ids, tensor._id, tensor, tape, local, name)
                self.values[key].users = True
                if outer is not None and (outer, key) not in self.links:
                    self.links.append((outer, key))
            self.said = f"the local tape watches {self.values[key].name}"

    def _on_op(self, tape: Any, entry: Any, memory: dict) -> None:
        local = self._scope(tape)
        added = self.tapes.remember(tape, memory)
        if local is None or local.cluster is not None:
            self.said = self._recorded(*self._draw(tape, entry, local), added, local)

    def _draw(self, tape: Any, entry: Any, local: Local | None) -> tuple[OpNode, list[str]]:
        """Draw ``entry`` (once: nested tapes record the same one), mark what it keeps; its node and those values."""
        key = self._entries.get(id(entry)) if local is None else None
        specs = entry.input_specs() + entry.output_specs()
        if key is None:
            key = self._op_key(entry, local)
            ids = self._ids if local is None else local.ids
            node = self.ops[key] = OpNode(entry.label, [], [], cluster=local and local.cluster,
                                          checkpoint=entry.is_call, recomputed=local is not None)
            if local is None:                            # what the user's tapes read is theirs
                node.inputs = [self._value(ids, i, spec, tape) for i, spec in zip(entry.inputs, specs)]
            else:
                node.inputs = [self._input(i, spec, tape, local) for i, spec in zip(entry.inputs, specs)]
            node.outputs = [self._value(ids, i, spec, tape, local)
                            for i, spec in zip(entry.outputs, specs[len(node.inputs):])]
        node = self.ops[key]
        held = {id(t) for _, t in entry.kept()}
        kept = [k for k, spec in zip(node.inputs + node.outputs, specs) if id(spec) in held] if held else []
        for k in kept:
            self.values[k].saved = True
        self.tapes.keeps(tape, kept)
        self.dirty.update(kept)
        self._set_current(key)
        return node, kept

    def _recorded(self, node: OpNode, kept: list[str], added: int | None, local: Local | None) -> str:
        """What recording an entry did, in words."""
        names = [self.values[k].name for k in kept]
        return f"{'recorded' if local is None else 'recomputed'} {node.name}, " + describe_kept(names, added)

    def _input(self, tensor_id: int, spec: Any, tape: Any, local: Local) -> str:
        """The node an entry of a recomputation reads: what is older than its local tape (a variable,
        a value the function captured) is the user's tapes' node, drawn once."""
        if tensor_id in local.ids:
            return self._value(local.ids, tensor_id, spec, tape, local)
        if tensor_id in self._ids or tensor_id < tape.first_id:
            return self._value(self._ids, tensor_id, spec, tape)
        return self._value(local.ids, tensor_id, spec, tape, local)

    def _op_key(self, entry: Any, local: Local | None) -> str:
        if local is None:
            key = self._reserved.pop(id(entry), None) or self._new_key("o")
            self._entries[id(entry)] = key
            return key
        slot = (local.run, "o", local.ops)
        local.ops += 1
        key = self._slots.get(slot) or self._reserved.pop(id(entry), None) or self._new_key("o")
        self._slots[slot] = local.entries[id(entry)] = key
        return key

    def _value(self, ids: dict[int, str], tensor_id: int, spec: Any, tape: Any, local: Local | None = None,
               name: str | None = None) -> str:
        key = ids.get(tensor_id)
        if key is None and local is not None:
            slot = (local.run, "v", local.values)
            local.values += 1
            key = self._slots.get(slot) or self._slots.setdefault(slot, self._new_key("v"))
            ids[tensor_id] = key
        elif key is None:
            key = ids[tensor_id] = self._new_key("v")
        node = self.values.get(key)
        variable = isinstance(spec, Variable)
        if node is None or node.tensor_id != tensor_id:        # new, or a recomputation's new value in its slot
            node = self.values[key] = ValueNode(name or self._label(key, tensor_id, spec),
                                                users=variable or tensor_id < tape.first_id,
                                                cluster=local and local.cluster, tensor_id=tensor_id)
        if variable:              # a variable itself: its value now, if nothing better is known
            node.spec = node.spec if node.spec is not None else wrap(spec._value, spec._id)
        elif node.spec is None or isinstance(spec, Tensor):
            node.spec = spec        # the value (an op's reading of a variable: its value then), else its shape and dtype
        self.dirty.add(key)
        return key

    def _label(self, key: str, tensor_id: int, spec: Any) -> str:
        """The user's name for a value (``names=``, a Keras variable's path), else ``#n``: the n-th unnamed value."""
        known = self.names.get(tensor_id) or (getattr(spec, "path", None) if isinstance(spec, Variable) else None)
        if known:
            return known
        number = self._numbers.setdefault(key, len(self._numbers) + 1)
        return f"#{number}"

    def _set_current(self, key: str | None) -> None:
        for k in (self.current, key):
            if k is not None:
                self.dirty.add(k)
        self.current = key

    def _on_checkpoint_enter(self, function: str, memory: Any = None) -> None:
        self.said = f"calling {short(function)} with the tapes paused: nothing inside is recorded"

    def _on_checkpoint_leave(self, function: str, entry: Any, memory: Any = None) -> None:
        self.said = (f"recorded one entry for {short(function)}: its inputs, not its activations" if entry is not None
                     else f"{short(function)} returned; no tape records it")

    def _on_recompute_start(self, function: str, entry: Any, tape: Any, memory: dict) -> None:
        key = self._key_of(entry)
        # The local tape watches a fresh copy of each floating argument, in order (the arguments
        # come first among the inputs, then the variables read, which it watches themselves).
        # Each copy is labelled by the parameter it is passed as, when that is known: "x (copy of #3)".
        params = parameter_names(entry.function, entry.args, entry.kwargs)
        copies = [(self._ids.get(i) or self._local_key(i), param)
                  for i, spec, param in zip(entry.inputs, entry.input_specs(), params) if spec.dtype.is_floating]
        local = self._locals[id(tape)] = Local(key, key, [c for c in copies if c[0]],
                                               f"local tape ({short(function)})")
        self.tapes.add(tape, local.label, local=True)
        self.tapes.remember(tape, memory)
        if key is not None:
            self._cluster(key, "cluster")
            self._set_current(key)
        self.said = f"recomputing {short(function)}: its ops run again, recorded on a local tape"

    def _on_recompute_end(self, function: str, entry: Any, tape: Any, memory: Any = None) -> None:
        self.tapes.remember(tape, memory)
        self.said = (f"recomputed {short(function)}: its local tape holds {self.tapes.held(tape):,} bytes; "
                     f"now differentiating the recomputation")

    def _on_print(self, text: str, memory: Any = None) -> None:
        self.trace += text
        self.said = f"printed {text.rstrip()!r}"

    def _on_schedule(self, entry: Any, action: tuple, step_tape: Any, memory: Any = None) -> None:
        self.said = f"checkpoint_chain: {action[0]} {' → '.join(str(a) for a in action[1:])}"
        if action[0] == "record":                # the step runs under a tape of its own: drawn in the chain's cluster
            key = self._key_of(entry)
            if key is None:
                key = self._reserved[id(entry)] = self._new_key("o")
            self._locals[id(step_tape)] = Local(key, f"{key}:{action[1]}", [], f"step {action[1]}'s tape",
                                                input_name=f"state {action[1]}", tape=step_tape)
            self._cluster(key, "cluster")

    def _cluster(self, key: str, look: str) -> None:
        self.clusters[key] = look
        self.dirty.add("c_" + key)

    def _key_of(self, entry: Any) -> str | None:
        """The node of ``entry``, wherever it was recorded (None if no drawn tape recorded it)."""
        inside = next((local.entries[id(entry)] for local in self._locals.values() if id(entry) in local.entries), None)
        return inside or self._entries.get(id(entry)) or self._reserved.get(id(entry))

    def _local_key(self, tensor_id: int) -> str | None:
        return next((local.ids[tensor_id] for local in self._locals.values() if tensor_id in local.ids), None)

    # -- what the player asks --------------------------------------------------
    def look(self, key: str) -> tuple[str, list[str]]:
        """How element ``key`` looks now: its look's name (see ``LOOKS``) and label lines.

        >>> import minitape as tf
        >>> x = tf.constant(1.0)
        >>> with tf.GradientTape() as tape:
        ...     tape.watch(x)
        ...     y = tf.sin(x)
        >>> tf.viz.Scene.of_tape(tape, names={"x": x}).look("v0")
        ('user', ['x', 'float32[]', '1'])
        """
        if key.startswith("c_"):
            return self.clusters.get(key[2:], "hidden"), []
        node = self.values[key] if key in self.values else self.ops[key]
        return node.look() + (" current" if key == self.current else ""), node.lines()

    # -- drawing --------------------------------------------------------------
    def to_dot(self, max_nodes: int = 200, legend: bool = True) -> str:
        """Graphviz DOT text; long runs of ops beyond ``max_nodes`` are folded into one node.

        >>> import minitape as tf
        >>> x = tf.constant(1.0)
        >>> with tf.GradientTape() as tape:
        ...     tape.watch(x)
        ...     y = tf.exp(x)
        >>> dot = tf.viz.Scene.of_tape(tape).to_dot()
        >>> dot.splitlines()[0], 'label="exp"' in dot
        ('digraph tape {', True)
        """
        return to_dot(self.values, self.ops, self.current, max_nodes, legend)

    def to_svg(self, max_nodes: int = 200, legend: bool = True) -> str:
        """The picture as SVG (laid out by Graphviz; Jupyter shows a scene this way).

        >>> import minitape as tf
        >>> with tf.events.timeline() as events:
        ...     tf.print("hello")
        hello
        >>> "<svg" in events.scene().to_svg()
        True
        """
        return to_svg(self.to_dot(max_nodes, legend))

    def _repr_svg_(self) -> str:
        return self.to_svg()

    def __repr__(self) -> str:
        # Short: Jupyter shows this text beside the picture, and a long tape has many nodes.
        return f"<Scene: {len(self.ops):,} ops, {len(self.values):,} values; {self.said}>"
