"""Visualisation: pictures of a tape, and of any moment of a timeline.

A :class:`Scene` is what a picture shows at one moment.  It is built by
replaying events (see :mod:`minitape.events`) one by one, so the same code draws
a finished tape, the forward pass half-way, or the backward pass in the middle
of recomputing a checkpoint.  :meth:`Scene.to_dot` writes Graphviz DOT, with
stable node names so that the text can be compared in tests; :func:`to_svg`
lays it out with the Graphviz libraries bundled in pygraphviz's wheels.

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

import contextlib
import html
import os
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from minitape import backends
from minitape.events import Event
from minitape.printing import format_array
from minitape.tensor import Tensor, Variable

USER, SAVED, DISCARDED = "#fff3b0", "#cfe8ff", "dashed"
OP, RECOMPUTED, CURRENT = "#eeeeee", "#ffd8a8", "#d62728"
SMALL = 6          # values with at most this many entries are written on their node


@dataclass
class ValueNode:
    """A value the picture shows: what it is, and what is known about it now."""

    name: str
    shape: tuple[int, ...] | None = None
    dtype: str | None = None
    value: np.ndarray | None = None
    grad: np.ndarray | None = None
    users: bool = False         # the user's value (an input or a variable), not computed on the tape
    saved: bool = False         # kept by the tape for the backward pass
    cluster: int | None = None


@dataclass
class OpNode:
    """An entry of a tape: an op, or a checkpointed call drawn as a cluster."""

    name: str
    inputs: list[int]
    outputs: list[int]
    cluster: int | None = None      # the checkpoint this op was recorded in while recomputing
    checkpoint: bool = False        # this node is itself a checkpointed call
    recomputed: bool = False


@dataclass
class Scene:
    """What a picture shows at one moment; :meth:`apply` moves it on by one event."""

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
        """The picture of everything ``tape`` holds now."""
        scene = cls(names=name_map(names))
        scene.main_tape = tape
        for entry in tape._entries:
            scene.apply(Event("op", {"tape": tape, "entry": entry, "memory": tape.memory_info()}))
        return scene

    def apply(self, event: Event) -> None:
        """Fold one event into the scene and say, in words, what happened."""
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
        op = getattr(entry, "op", None)
        node = OpNode(op.name if op is not None else getattr(entry, "name", type(entry).__name__),
                      list(entry.inputs), list(entry.outputs), cluster=inside,
                      checkpoint=op is None, recomputed=inside is not None)
        self.ops[id(entry)] = node
        kept = {id(t) for _, t in entry.residuals()}
        for i, spec in zip(entry.inputs, _input_specs(entry)):
            value = self._value(i, spec, inside)
            value.saved = value.saved or id(spec) in kept
        for i, spec in zip(entry.outputs, _output_specs(entry)):
            value = self._value(i, spec, inside)
            value.saved = value.saved or id(spec) in kept
        verb = "recomputed" if inside is not None else "recorded"
        self.said = f"{verb} {node.name}" + (f", keeping {_describe_kept(entry)}" if kept else ", keeping nothing")

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

    def _on_schedule(self, entry: Any, action: tuple) -> None:
        self.said = f"checkpoint_chain: {action[0]} {' → '.join(str(a) for a in action[1:])}"

    def _value(self, key: int, spec: Any, cluster: int | None = None) -> ValueNode:
        node = self.values.get(key)
        if node is None:
            node = self.values[key] = ValueNode(self.names.get(key, f"#{len(self.values)}"), cluster=cluster)
            first = getattr(self.main_tape, "_first_id", None) or 0
            node.users = isinstance(spec, Variable) or key < first     # older than the tape: the user's
        if spec is not None and hasattr(spec, "shape"):
            node.shape, node.dtype = tuple(spec.shape), spec.dtype.name
        if isinstance(spec, Tensor | Variable) and node.value is None:
            node.value = spec.numpy()
        return node

    # -- drawing --------------------------------------------------------------
    def to_dot(self, max_nodes: int = 200, legend: bool = True) -> str:
        """Graphviz DOT text; long runs of ops beyond ``max_nodes`` are folded into one node."""
        shown, folded = _fold(list(self.ops), max_nodes)
        lines = ['digraph tape {',
                 '  graph [rankdir=TB, fontname="Helvetica", fontsize=10, nodesep=0.3, ranksep=0.3];',
                 '  node [fontname="Helvetica", fontsize=10];',
                 '  edge [arrowsize=0.6];']
        ids = _Ids()
        clusters: dict[int | None, list[str]] = {}
        visible_values: set[int] = set()
        for key in shown:
            op = self.ops[key]
            visible_values.update(op.inputs + op.outputs)
        for key, node in self.values.items():
            if key in visible_values:
                clusters.setdefault(node.cluster, []).append(f"  {ids.value(key)} [{self._value_style(node)}];")
        opened = {op.cluster for op in self.ops.values() if op.cluster is not None}    # recomputed checkpoints
        for key in shown:
            op = self.ops[key]
            home = key if op.checkpoint and key in opened else op.cluster
            clusters.setdefault(home, []).append(f"  {ids.op(key)} [{self._op_style(key, op)}];")
        if folded:
            clusters.setdefault(None, []).append(f'  folded [label="{_quote(_fold_label(folded, self.ops))}", '
                                                 f'shape=box, style="dashed,rounded"];')
        lines += clusters.pop(None, [])
        for cluster_key, body in clusters.items():
            title = self.ops[cluster_key].name if cluster_key in self.ops else "checkpoint"
            lines += [f"  subgraph cluster_{ids.op(cluster_key)} {{",
                      f'    label="{_quote(title)} (recomputed)"; style="dashed"; color="#9467bd";',
                      *["  " + line for line in body], "  }"]
        for key in shown:
            op = self.ops[key]
            lines += [f"  {ids.value(i)} -> {ids.op(key)};" for i in op.inputs if i in self.values]
            lines += [f"  {ids.op(key)} -> {ids.value(i)};" for i in op.outputs if i in self.values]
        if folded:
            lines += _fold_edges(shown, folded, ids)
        if legend:
            lines += LEGEND
        lines.append("}")
        return "\n".join(lines)

    def to_svg(self, max_nodes: int = 200, legend: bool = True) -> str:
        return to_svg(self.to_dot(max_nodes, legend))

    def _repr_svg_(self) -> str:
        return self.to_svg()

    def _value_style(self, node: ValueNode) -> str:
        lines = [node.name]
        if node.dtype is not None:
            lines.append(f"{node.dtype}[{','.join(str(n) for n in node.shape)}]")
        if node.value is not None and node.value.size <= SMALL:
            lines.append(format_array(node.value))
        if node.grad is not None and node.grad.size <= SMALL:
            lines.append("grad " + format_array(node.grad))
        elif node.grad is not None:
            lines.append("grad ✓")
        if node.users:
            style = f'style="filled", fillcolor="{USER}"'
        elif node.saved:
            style = f'style="filled", fillcolor="{SAVED}"'
        else:
            style = f'style="{DISCARDED}"'
        return f'label="{_quote(chr(10).join(lines))}", shape=ellipse, {style}'

    def _op_style(self, key: int, op: OpNode) -> str:
        fill = RECOMPUTED if op.recomputed else OP
        label = ("↻ " if op.recomputed else "") + op.name
        border = f', color="{CURRENT}", penwidth=3' if key == self.current else ""
        shape = "box3d" if op.checkpoint else "box"
        return f'label="{_quote(label)}", shape={shape}, style="rounded,filled", fillcolor="{fill}"{border}'


LEGEND = [
    "  subgraph cluster_legend {",
    '    label="legend"; fontsize=9; style="rounded"; color="#bbbbbb";',
    f'    legend_user [label="the user\'s value", shape=ellipse, style="filled", fillcolor="{USER}", fontsize=9];',
    f'    legend_saved [label="saved for backward", shape=ellipse, style="filled", fillcolor="{SAVED}", fontsize=9];',
    '    legend_discarded [label="not kept", shape=ellipse, style="dashed", fontsize=9];',
    f'    legend_op [label="op", shape=box, style="rounded,filled", fillcolor="{OP}", fontsize=9];',
    f'    legend_recomputed [label="↻ recomputed", shape=box, style="rounded,filled", fillcolor="{RECOMPUTED}", fontsize=9];',
    f'    legend_current [label="current step", shape=box, style="rounded", color="{CURRENT}", penwidth=3, fontsize=9];',
    '    legend_user -> legend_saved -> legend_discarded -> legend_op -> legend_recomputed -> legend_current [style=invis];',
    "  }",
]


class _Ids:
    """Stable DOT names: values v0, v1...; ops o0, o1... in order of first appearance."""

    def __init__(self) -> None:
        self._values: dict[int, str] = {}
        self._ops: dict[int, str] = {}

    def value(self, key: int) -> str:
        return self._values.setdefault(key, f"v{len(self._values)}")

    def op(self, key: int) -> str:
        return self._ops.setdefault(key, f"o{len(self._ops)}")


def _fold(keys: list[int], max_nodes: int) -> tuple[list[int], list[int]]:
    """Keep the first and last ``max_nodes // 2`` ops; fold the run between them."""
    if len(keys) <= max_nodes:
        return keys, []
    half = max_nodes // 2
    return keys[:half] + keys[-half:], keys[half:-half]


def _fold_label(folded: list[int], ops: dict[int, OpNode]) -> str:
    counts = Counter(ops[k].name for k in folded)
    parts = ", ".join(f"{name} ×{n}" for name, n in counts.most_common(4))
    more = "" if len(counts) <= 4 else ", …"
    return f"… {len(folded)} more entries\n({parts}{more})"


def _fold_edges(shown: list[int], folded: list[int], ids: _Ids) -> list[str]:
    half = len(shown) // 2
    before, after = shown[half - 1], shown[half]
    return [f"  {ids.op(before)} -> folded [style=dashed];", f"  folded -> {ids.op(after)} [style=dashed];"]


def _input_specs(entry: Any) -> list[Any]:
    """For each input of ``entry``: the tensor it keeps, or what it knows of it (shape and dtype)."""
    if hasattr(entry, "saved"):
        return list(entry.saved)
    known = list(getattr(entry, "arg_tensors", [])) + list(getattr(entry, "variables", []))
    return known + [None] * (len(entry.inputs) - len(known))


def _output_specs(entry: Any) -> list[Any]:
    if hasattr(entry, "ans"):
        return [entry.ans]
    return list(getattr(entry, "output_specs", [None] * len(entry.outputs)))


def _describe_kept(entry: Any) -> str:
    kept = entry.residuals()
    size = sum(backends.nbytes(t._value) for _, t in kept)
    roles = ", ".join(f"input {r}" if isinstance(r, int) else str(r) for r, _ in kept)
    return f"{roles} ({size:,} bytes)"


def value_svg(value: Any, name: str = "") -> str:
    """A tensor or variable drawn alone: its name, type and (small) value."""
    scene = Scene()
    node = scene._value(value._id, value)
    node.name, node.users = name or type(value).__name__, isinstance(value, Variable)
    return to_svg("digraph value {\n  node [fontname=\"Helvetica\", fontsize=10];\n"
                  f"  v0 [{scene._value_style(node)}];\n}}")


def name_map(names: dict[str, Any] | None) -> dict[int, str]:
    """``names=locals()`` as a map from value id to the user's name for it."""
    return {value._id: name for name, value in (names or {}).items()
            if isinstance(value, Tensor | Variable) and not name.startswith("_")}


def _quote(text: str) -> str:
    """Text inside a quoted DOT string: escaped so that no label can break out of its quotes."""
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def to_svg(dot: str) -> str:
    """Lay out DOT text as SVG with the Graphviz libraries bundled in pygraphviz's wheels."""
    try:
        import pygraphviz
    except ImportError:  # pragma: no cover - pygraphviz is a dependency
        raise ImportError("Rendering pictures needs pygraphviz >= 2.0 (its wheels include Graphviz): "
                          "pip install 'pygraphviz>=2.0'") from None
    with _first_layout_quietly():
        return pygraphviz.AGraph(string=dot).draw(format="svg", prog="dot").decode("utf-8")


_fonts_loaded = False


@contextlib.contextmanager
def _first_layout_quietly() -> Iterator[None]:
    """The bundled fontconfig warns, once, about a newer system config it cannot read; in a notebook
    that shows as an alarming red box.  Hide the C-level stderr of the first layout only."""
    global _fonts_loaded
    if _fonts_loaded:
        yield
        return
    sys.stderr.flush()
    saved, devnull = os.dup(2), os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 2)
    try:
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(devnull)
        _fonts_loaded = True


def escape_html(text: str) -> str:
    """Text for an HTML page, shown as text whatever it contains."""
    return html.escape(text, quote=True)
