"""Visualisation: pictures of a tape, and of any moment of a timeline.

A :class:`Scene` is what a picture shows at one moment.  It is built by
replaying events (see :mod:`minitape.core.events`) one by one, so the same code draws
a finished tape, the forward pass half-way, or the backward pass in the middle
of recomputing a checkpoint.  :meth:`Scene.to_dot` writes Graphviz DOT (:mod:`minitape.viz.dot`), with
stable node names so that the text can be compared in tests; :meth:`Scene.to_svg`
lays it out (:mod:`minitape.viz.render`).

What the picture shows:

* values as ellipses, with their name (from ``names=locals()``), type, value and
  gradient when small; yellow: the user's; blue: saved by the tape for the
  backward pass; dashed: computed, then not kept;
* ops as boxes; a checkpointed call (``recompute_grad``, ``custom_gradient``,
  ``checkpoint_chain``) as a dashed cluster; ops recorded while recomputing it
  are orange and drawn inside it; the backward step in progress has a red border.

>>> import minitape as tf
>>> x = tf.constant(2.0)
>>> with tf.GradientTape() as tape:
...     tape.watch(x)
...     y = tf.tanh(x * x)
>>> print(tf.viz.Scene.of_tape(tape, names={"x": x, "y": y}).to_dot(legend=False))
digraph tape {
  graph [rankdir=TB, fontname="Helvetica", fontsize=10, nodesep=0.3, ranksep=0.3];
  node [fontname="Helvetica", fontsize=10];
  edge [arrowsize=0.6];
  v0 [label="x\\nfloat32[]\\n2", shape=ellipse, style="filled", fillcolor="#fff3b0"];
  v1 [label="#1\\nfloat32[]", shape=ellipse, style="dashed"];
  v2 [label="y\\nfloat32[]\\n0.999329329", shape=ellipse, style="filled", fillcolor="#cfe8ff"];
  o0 [label="multiply", shape=box, style="rounded,filled", fillcolor="#eeeeee"];
  o1 [label="tanh", shape=box, style="rounded,filled", fillcolor="#eeeeee"];
  v0 -> o0;
  v0 -> o0;
  o0 -> v1;
  v1 -> o1;
  o1 -> v2;
}
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from minitape.core import arrays
from minitape.core.events import Event
from minitape.core.tensor import Tensor, Variable, wrap
from minitape.viz.dot import OpNode, ValueNode, to_dot, value_style
from minitape.viz.render import to_svg


@dataclass(repr=False)
class Scene:
    """What a picture shows at one moment; :meth:`apply` moves it on by one event.

    >>> import minitape as tf
    >>> x = tf.constant(1.0)
    >>> with tf.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = tf.exp(x)
    >>> scene = tf.viz.Scene.of_tape(tape, names={"x": x, "y": y})
    >>> [value.name for value in scene.values.values()], [op.name for op in scene.ops.values()]
    (['x', 'y'], ['exp'])
    >>> scene.said
    'recorded exp, keeping output (4 bytes)'
    """

    names: dict[int, str] = field(default_factory=dict)
    values: dict[int, ValueNode] = field(default_factory=dict)
    ops: dict[int, OpNode] = field(default_factory=dict)
    main_tape: Any = None
    recomputing: list[int] = field(default_factory=list)     # checkpoints being recomputed, innermost last
    current: int | None = None
    phase: str = "forward"
    trace: str = ""
    memory: dict[str, int] = field(default_factory=lambda: {"current": 0, "peak": 0})
    said: str = "nothing yet"

    # -- building -------------------------------------------------------------
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
        scene = cls(names=name_map(names))
        scene.main_tape = tape
        memory = tape.memory_info()             # recording is over: one count holds for every entry
        for entry in tape.entries():
            scene.apply(Event("op", {"tape": tape, "entry": entry, "memory": memory}))
        return scene

    def apply(self, event: Event) -> None:
        """Fold one event into the scene and say, in words, what happened.

        >>> import minitape as tf
        >>> scene = tf.viz.Scene()
        >>> scene.apply(tf.events.Event("print", {"text": "hello\\n"}))
        >>> scene.said, scene.trace
        ("printed 'hello'", 'hello\\n')
        """
        handler = getattr(self, "_on_" + event.kind, None)
        if handler is not None:
            handler(**event.data)
        if event.data.get("memory") is not None and event.data.get("tape", self.main_tape) is self.main_tape:
            self.memory = event.data["memory"]

    def _on_watch(self, tape: Any, tensor: Any, memory: dict) -> None:
        if self.main_tape is None:
            self.main_tape = tape
        if tape is self.main_tape:
            self._value(tensor._id, tensor).users = True
        elif self.recomputing:                     # a recomputation's local tape watches the call's inputs
            self._value(tensor._id, tensor, self.recomputing[-1])
        else:
            return
        self.said = f"the tape watches {self.values[tensor._id].name}"

    def _on_op(self, tape: Any, entry: Any, memory: dict) -> None:
        if self.main_tape is None:
            self.main_tape = tape
        inside = self.recomputing[-1] if self.recomputing and tape is not self.main_tape else None
        if tape is not self.main_tape and inside is None:
            return                                   # another tape's business
        node = OpNode(entry.label, list(entry.inputs), list(entry.outputs), cluster=inside,
                      checkpoint=entry.is_call, recomputed=inside is not None)
        self.ops[id(entry)] = node
        held = entry.kept()
        kept = {id(t) for _, t in held}
        for i, spec in zip(entry.inputs, entry.input_specs()):
            value = self._value(i, spec, inside)
            value.saved = value.saved or id(spec) in kept
        for i, spec in zip(entry.outputs, entry.output_specs()):
            value = self._value(i, spec, inside)
            value.saved = value.saved or id(spec) in kept
        verb = "recomputed" if inside is not None else "recorded"
        self.said = f"{verb} {node.name}" + (f", keeping {_describe_kept(held)}" if kept else ", keeping nothing")

    def _on_checkpoint_enter(self, function: str, memory: Any = None) -> None:
        self.said = f"calling {function} with the tape paused: nothing inside is recorded"

    def _on_checkpoint_leave(self, function: str, entry: Any, memory: Any = None) -> None:
        self.said = f"recorded one entry for {function}: its inputs, not its activations"

    def _on_gradient_start(self, tape: Any, memory: dict) -> None:
        if tape is self.main_tape:
            self.phase = "backward"
            self.said = "gradient: playing the tape backwards"

    def _on_gradient_end(self, tape: Any, memory: dict) -> None:
        if tape is self.main_tape:
            self.phase, self.current = "done", None
            self.said = "gradient done" + (": the tape let go of what it held" if memory["current"] == 0 else "")

    def _on_backward_step(self, entry: Any, output_grads: list, input_grads: list, tape: Any = None,
                          memory: Any = None) -> None:
        if id(entry) not in self.ops:
            return
        self.current = id(entry)
        for i, g in zip(entry.outputs, output_grads):
            if g is not None and i in self.values:
                self.values[i].grad = g.numpy()
        for i, g in zip(entry.inputs, input_grads):
            if g is not None and i in self.values:
                node = self.values[i]
                node.grad = g.numpy() if node.grad is None else node.grad + g.numpy()
        self.said = f"backward through {self.ops[id(entry)].name}: gradients flow to its inputs"

    def _on_recompute_start(self, function: str, entry: Any, memory: Any = None) -> None:
        self.recomputing.append(id(entry))
        self.current = id(entry)
        self.said = f"recomputing {function} under a local tape"

    def _on_recompute_end(self, function: str, entry: Any, tape: Any, memory: Any = None) -> None:
        if self.recomputing and self.recomputing[-1] == id(entry):
            self.recomputing.pop()
        self.said = f"recomputed {function}; now differentiating the recomputation"

    def _on_print(self, text: str, memory: Any = None) -> None:
        self.trace += text
        self.said = f"printed {text.rstrip()!r}"

    def _on_schedule(self, entry: Any, action: tuple, memory: Any = None) -> None:
        self.said = f"checkpoint_chain: {action[0]} {' → '.join(str(a) for a in action[1:])}"

    def _value(self, key: int, spec: Any, cluster: int | None = None) -> ValueNode:
        node = self.values.get(key)
        if node is None:
            node = self.values[key] = ValueNode(self.names.get(key, f"#{len(self.values)}"), cluster=cluster)
            first = self.main_tape.first_id if self.main_tape is not None else 0
            node.users = isinstance(spec, Variable) or key < first     # older than the tape: the user's
        if isinstance(spec, Variable):
            spec = wrap(spec._value, spec._id)      # its value now: assigning replaces a variable's array
        if node.spec is None or (isinstance(spec, Tensor) and not isinstance(node.spec, Tensor)):
            node.spec = spec        # the best known: the value, else a record of its shape and dtype
        return node

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


def _describe_kept(kept: list[tuple[int | str, Tensor]]) -> str:
    size = sum(arrays.nbytes(t._value) for _, t in kept)
    roles = ", ".join(f"input {r}" if isinstance(r, int) else str(r) for r, _ in kept)
    return f"{roles} ({size:,} bytes)"


def value_svg(value: Any, name: str = "") -> str:
    """A tensor or variable drawn alone: its name, type and (small) value.

    >>> import minitape as tf
    >>> svg = tf.viz.value_svg(tf.constant([1.0, 2.0]), "x")
    >>> svg.startswith("<?xml"), "float32[2]" in svg
    (True, True)
    """
    scene = Scene()
    node = scene._value(value._id, value)
    node.name, node.users = name or type(value).__name__, isinstance(value, Variable)
    return to_svg("digraph value {\n  node [fontname=\"Helvetica\", fontsize=10];\n"
                  f"  v0 [{value_style(node)}];\n}}")


def name_map(names: dict[str, Any] | None) -> dict[int, str]:
    """``names=locals()`` as a map from value id to the user's name for it.

    Only tensors and variables count, and names starting with ``_`` are left out.

    >>> import minitape as tf
    >>> x = tf.constant(1.0)
    >>> tf.viz.name_map({"x": x, "_x": x, "n": 3}) == {x._id: "x"}
    True
    """
    if names is None:
        return {}
    if not isinstance(names, Mapping):
        raise TypeError(f"names (a picture's labels) must be a dict from names to tensors, such as locals(); "
                        f"got {type(names).__name__}.")
    for name in names:
        if not isinstance(name, str):
            raise TypeError(f"names (a picture's labels) must map str names to tensors, as locals() does; "
                            f"got the key {name!r} ({type(name).__name__}). Use str keys: names={{'x': x}}.")
    return {value._id: name for name, value in names.items()
            if isinstance(value, Tensor | Variable) and not name.startswith("_")}
