"""DOT: the text Graphviz lays out, written from a scene's nodes, and how every element looks.

Node names are stable (values ``v0, v1...``, ops ``o0, o1...`` in order of first
appearance), so the text can be compared in tests.  What each look means (``LOOKS``,
the one table that both DOT pictures and the player's page style from):

* values as ellipses, with their name, type, value and gradient when small;
  yellow: the user's; blue: saved by the tape for the backward pass; dashed:
  computed, then not kept; grey and dashed: saved once, let go since;
* ops as boxes; a checkpointed call as a 3-d box, and a dashed cluster once it
  is recomputed; ops recorded while recomputing are orange and drawn inside it;
  the step in progress has a red border; ops the backward pass went through are grey.

>>> from minitape.viz.dot import OpNode, ValueNode, to_dot
>>> print(to_dot({"v0": ValueNode("x"), "v1": ValueNode("y")}, {"o0": OpNode("sin", ["v0"], ["v1"])}, legend=False))
digraph tape {
  graph [rankdir=TB, fontname="Helvetica", fontsize=10, nodesep=0.3, ranksep=0.3];
  node [fontname="Helvetica", fontsize=10];
  edge [arrowsize=0.6];
  v0 [id="v0", label="x", shape=ellipse, style="filled,dashed", fillcolor="#ffffff"];
  v1 [id="v1", label="y", shape=ellipse, style="filled,dashed", fillcolor="#ffffff"];
  o0 [id="o0", label="sin", shape=box, style="filled,rounded", fillcolor="#eeeeee"];
  v0 -> o0;
  o0 -> v1;
}
"""
from __future__ import annotations

import math
import numbers
from collections import Counter
from dataclasses import dataclass
from typing import Any

import numpy as np

from minitape.dialect.printing import format_array
from minitape.viz.render import to_svg, visible

USER, SAVED, OP, RECOMPUTED, CURRENT = "#fff3b0", "#cfe8ff", "#eeeeee", "#ffd8a8", "#d62728"
SMALL = 6          # values with at most this many entries are written on their node

#: How each kind of element looks: fill, border (line, width, dashed) and text colour.  An element's
#: look is one of these names, or a name and ``current`` (the step in progress), or ``hidden``.
LOOKS: dict[str, dict[str, Any]] = {
    "user": {"fill": USER, "meaning": "your value (an input or a variable)"},
    "saved": {"fill": SAVED, "meaning": "kept by the tape for the backward pass"},
    "discarded": {"fill": "#ffffff", "dashed": True, "meaning": "computed, not kept"},
    "released": {"fill": "#f4f4f4", "dashed": True, "line": "#9a9a9a", "text": "#8a8a8a",
                 "meaning": "kept, then let go"},
    "op": {"fill": OP, "meaning": "an op the tape recorded"},
    "recomputed": {"fill": RECOMPUTED, "meaning": "↻ recomputed under a local tape"},
    "done": {"fill": "#f7f7f7", "line": "#9a9a9a", "text": "#8a8a8a", "meaning": "the backward pass went through it"},
    "current": {"line": CURRENT, "width": 3, "meaning": "what happens now"},
    "cluster": {"line": "#9467bd", "dashed": True, "meaning": "a checkpoint, recomputed"},
    "cluster-done": {"line": "#cdbfe0", "dashed": True, "text": "#9a9a9a", "meaning": "its local tape let go"},
}
#: The looks a legend explains (not a finished checkpoint's, a faded "cluster"), and which of them are values'.
LEGEND = [name for name in LOOKS if name != "cluster-done"]
VALUE_LOOKS = {"user", "saved", "discarded", "released"}
#: What a value's label ``#n`` means, said under every legend (the scene numbers its unnamed values 1, 2, 3...).
UNNAMED = "#n: the n-th value the picture shows, unnamed"


@dataclass(slots=True)
class ValueNode:
    """A value the picture shows: what it is, and what is known about it now.

    ``spec`` is what the tape knows of the value: the tensor itself, or a record of its
    shape and dtype.  Shape, dtype and numbers are read from it only when the node is
    drawn, so a picture of a long tape does no work for the values it folds away.
    """

    name: str
    spec: Any = None
    grad: np.ndarray | None = None
    users: bool = False         # the user's value (an input or a variable), not computed on the tape
    saved: bool = False         # kept by the tape for the backward pass
    cluster: str | None = None  # the key of the recomputed checkpoint it is drawn in
    released: bool = False      # kept, and let go since (the tape that kept it was freed)
    tensor_id: int | None = None

    @property
    def shape(self) -> tuple[int, ...] | None:
        return None if self.spec is None else tuple(self.spec.shape)

    @property
    def dtype(self) -> str | None:
        return None if self.spec is None else self.spec.dtype.name

    @property
    def value(self) -> np.ndarray | None:
        """The numbers, when the tape keeps the value and they are few enough to write on the node."""
        if not hasattr(self.spec, "numpy") or math.prod(self.spec.shape) > SMALL:
            return None
        return self.spec.numpy()

    def lines(self) -> list[str]:
        """The label, line by line: name, type, value and gradient (when small enough to write)."""
        lines = [self.name]
        if self.dtype is not None:
            lines.append(f"{self.dtype}[{','.join(str(n) for n in self.shape)}]")
        value = self.value
        if value is not None:
            lines.append(format_array(value))
        if self.grad is not None:
            lines.append("grad " + (format_array(self.grad) if self.grad.size <= SMALL else "✓"))
        return lines

    def look(self) -> str:
        if self.users:
            return "user"
        if self.released:
            return "released"
        return "saved" if self.saved else "discarded"


@dataclass(slots=True)
class OpNode:
    """An entry of a tape: an op, or a checkpointed call drawn as a cluster."""

    name: str
    inputs: list[str]
    outputs: list[str]
    cluster: str | None = None      # the checkpoint this op was recorded in while recomputing
    checkpoint: bool = False        # this node is itself a checkpointed call
    recomputed: bool = False
    done: bool = False              # the backward pass went through it

    def lines(self) -> list[str]:
        return [("↻ " if self.recomputed else "") + self.name]

    def look(self) -> str:
        return "done" if self.done else "recomputed" if self.recomputed else "op"

    @property
    def shape(self) -> str:
        return "box3d" if self.checkpoint else "box"


def attribute_map(look: str, rounded: bool = False) -> dict[str, str]:
    """DOT attributes drawing ``look`` (see ``LOOKS``; ``"saved current"`` adds the red border).

    >>> from minitape.viz.dot import attribute_map
    >>> attribute_map("saved current")
    {'style': 'filled', 'fillcolor': '#cfe8ff', 'color': '#d62728', 'penwidth': '3'}
    >>> attribute_map("hidden")
    {'style': 'invis'}
    """
    if look == "hidden":
        return {"style": "invis"}
    merged: dict[str, Any] = {}
    for name in look.split():
        merged.update(LOOKS[name])
    style = (["filled"] if "fill" in merged else []) + (["rounded"] if rounded else []) + \
        (["dashed"] if merged.get("dashed") else [])
    found = {"style": ",".join(style) or "solid", "fillcolor": merged.get("fill"), "color": merged.get("line"),
             "penwidth": str(merged["width"]) if "width" in merged else None, "fontcolor": merged.get("text")}
    return {name: value for name, value in found.items() if value is not None}


def attributes(look: str, rounded: bool = False) -> str:
    """``attribute_map`` as DOT text.

    >>> from minitape.viz.dot import attributes
    >>> attributes("op current", rounded=True)
    'style="filled,rounded", fillcolor="#eeeeee", color="#d62728", penwidth=3'
    """
    return ", ".join(f'{name}="{value}"' if name != "penwidth" else f"{name}={value}"
                     for name, value in attribute_map(look, rounded).items())


def value_svg(value: Any, name: str = "") -> str:
    """A tensor or variable drawn alone: its name, type and (small) value.

    >>> import minitape as tf
    >>> svg = tf.viz.value_svg(tf.constant([1.0, 2.0]), "x")
    >>> svg.startswith("<?xml"), "float32[2]" in svg
    (True, True)
    """
    from minitape.core.tensor import Variable, wrap

    node = ValueNode(name or type(value).__name__, spec=wrap(value._value, value._id), users=isinstance(value, Variable))
    return to_svg("digraph value {\n  node [fontname=\"Helvetica\", fontsize=10];\n"
                  f"  v0 [{value_style(node)}];\n}}")


def label(lines: list[str]) -> str:
    """A DOT label attribute of ``lines``, escaped."""
    return f'label="{quote(chr(10).join(lines))}"'


def value_style(node: ValueNode, current: bool = False) -> str:
    return f'{label(node.lines())}, shape=ellipse, {attributes(node.look() + (" current" if current else ""))}'


def op_style(op: OpNode, current: bool = False) -> str:
    return f'{label(op.lines())}, shape={op.shape}, {attributes(op.look() + (" current" if current else ""), True)}'


HEADER = ['  graph [rankdir=TB, fontname="Helvetica", fontsize=10, nodesep=0.3, ranksep=0.3];',
          '  node [fontname="Helvetica", fontsize=10];',
          '  edge [arrowsize=0.6];']


def to_dot(values: dict[str, ValueNode], ops: dict[str, OpNode], current: str | None = None,
           max_nodes: int = 200, legend: bool = True) -> str:
    """Graphviz DOT text of what is shown now; long runs of ops beyond ``max_nodes`` fold into one node."""
    at_least("to_dot", "max_nodes", max_nodes, 2)
    kept, folded = fold(list(ops), max_nodes)
    visible_values = {v for key in kept for v in ops[key].inputs + ops[key].outputs}
    clusters: dict[str | None, list[str]] = {}
    for key, node in values.items():
        if key in visible_values:
            clusters.setdefault(node.cluster, []).append(f'  {key} [id="{key}", {value_style(node, key == current)}];')
    opened = {op.cluster for op in ops.values() if op.cluster is not None}
    for key in kept:
        op = ops[key]
        home = key if op.checkpoint and key in opened else op.cluster
        clusters.setdefault(home, []).append(f'  {key} [id="{key}", {op_style(op, key == current)}];')
    if folded:
        clusters.setdefault(None, []).append(
            f'  folded [id="folded", {label(fold_lines(folded, ops))}, shape=box, style="dashed,rounded"];')
    lines = ["digraph tape {", *HEADER, *clusters.pop(None, [])]
    for cluster_key, body in clusters.items():
        title = ops[cluster_key].name if cluster_key in ops else "checkpoint"
        lines += [f"  subgraph cluster_{cluster_key} {{",
                  f'    label="{quote(title)} (recomputed)"; style="dashed"; color="#9467bd";',
                  *["  " + line for line in body], "  }"]
    for key in kept:
        op = ops[key]
        lines += [f"  {v} -> {key};" for v in op.inputs if v in visible_values]
        lines += [f"  {key} -> {v};" for v in op.outputs if v in visible_values]
    if folded:
        lines += fold_edges(kept, folded)
    if legend:
        lines += legend_dot()
    lines.append("}")
    return "\n".join(lines)


def legend_dot() -> list[str]:
    """A legend cluster for a picture drawn alone, in the player's words (``LEGEND``; the player's is beside it).

    >>> from minitape.viz.dot import legend_dot
    >>> [line.strip() for line in legend_dot() if line.strip().startswith(("legend_saved ", "legend_unnamed "))]
    ['legend_saved [label="kept by the tape for the backward pass", shape=ellipse, style="filled", fillcolor="#cfe8ff", fontsize=9];',
     'legend_unnamed [label="#n: the n-th value the picture shows, unnamed", shape=plaintext, fontsize=9];']
    """
    rows = [(f"legend_{name.replace('-', '_')}", LOOKS[name]["meaning"], "ellipse" if name in VALUE_LOOKS else "box",
             "op current" if name == "current" else name) for name in LEGEND]
    rows.append(("legend_unnamed", UNNAMED, "plaintext", None))
    lines = ["  subgraph cluster_legend {", '    label="legend"; fontsize=9; style="rounded"; color="#bbbbbb";']
    lines += [f'    {name} [label="{quote(text)}", shape={shape}, '
              f'{attributes(look, shape == "box") + ", " if look else ""}fontsize=9];'
              for name, text, shape, look in rows]
    lines += ["    " + " -> ".join(row[0] for row in rows) + " [style=invis];", "  }"]
    return lines


def at_least(owner: str, name: str, value: Any, least: int) -> None:
    """Raise unless ``value`` is an int of at least ``least`` (a count of frames or nodes).

    >>> from minitape.viz.dot import at_least
    >>> at_least("Player", "max_frames", 0, 1)
    Traceback (most recent call last):
    ValueError: Player: max_frames must be at least 1, got 0.
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{owner}: {name} must be an int, got {type(value).__name__} {value!r}.")
    if value < least:
        raise ValueError(f"{owner}: {name} must be at least {least}, got {value}.")


def fold(keys: list[str], max_nodes: int) -> tuple[list[str], list[str]]:
    """Keep the first and last ``max_nodes // 2`` ops; fold the run between them.

    >>> from minitape.viz.dot import fold
    >>> fold(["o0", "o1", "o2", "o3", "o4"], 2)
    (['o0', 'o4'], ['o1', 'o2', 'o3'])
    """
    if len(keys) <= max_nodes:
        return keys, []
    half = max_nodes // 2
    return keys[:half] + keys[-half:], keys[half:-half]


def fold_lines(folded: list[str], ops: dict[str, OpNode]) -> list[str]:
    """The folded node's label: how many entries it stands for, and which ops they are."""
    counts = Counter(ops[k].name for k in folded)
    parts = ", ".join(f"{name} ×{n}" for name, n in counts.most_common(4))
    more = "" if len(counts) <= 4 else ", …"
    return [f"… {len(folded)} more entries", f"({parts}{more})"]


def fold_edges(kept: list[str], folded: list[str]) -> list[str]:
    half = len(kept) // 2
    before, after = kept[half - 1], kept[half]
    return [f'  {before} -> folded [style=dashed];', f'  folded -> {after} [style=dashed];']


def quote(text: str) -> str:
    """Text inside a quoted DOT string: escaped so that no label can break out of its quotes.

    Characters that Graphviz or SVG (XML) cannot carry, such as NUL, other control
    characters and lone surrogates, are written as their Python escapes.

    >>> from minitape.viz.dot import quote
    >>> print(quote('say "hi"\\n' + chr(0) + chr(0xD800)))
    say \\"hi\\"\\n\\\\x00\\\\ud800
    """
    text = visible(text)
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
