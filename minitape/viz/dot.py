"""DOT: the text Graphviz lays out, written from a scene's nodes.

Node names are stable (values ``v0, v1...``, ops ``o0, o1...`` in order of first
appearance), so the text can be compared in tests.  What each style means:

* values as ellipses, with their name, type, value and gradient when small;
  yellow: the user's; blue: saved by the tape for the backward pass; dashed:
  computed, then not kept;
* ops as boxes; a checkpointed call as a 3-d box, and a dashed cluster once it
  is recomputed; ops recorded while recomputing are orange and drawn inside it;
  the backward step in progress has a red border.

>>> from minitape.viz.dot import OpNode, ValueNode, to_dot
>>> print(to_dot({1: ValueNode("x"), 2: ValueNode("y")}, {7: OpNode("sin", [1], [2])}, legend=False))
digraph tape {
  graph [rankdir=TB, fontname="Helvetica", fontsize=10, nodesep=0.3, ranksep=0.3];
  node [fontname="Helvetica", fontsize=10];
  edge [arrowsize=0.6];
  v0 [label="x", shape=ellipse, style="dashed"];
  v1 [label="y", shape=ellipse, style="dashed"];
  o0 [label="sin", shape=box, style="rounded,filled", fillcolor="#eeeeee"];
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

from minitape.printing import format_array
from minitape.viz.render import visible

USER, SAVED, DISCARDED = "#fff3b0", "#cfe8ff", "dashed"
OP, RECOMPUTED, CURRENT = "#eeeeee", "#ffd8a8", "#d62728"
SMALL = 6          # values with at most this many entries are written on their node


@dataclass
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
    cluster: int | None = None

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


@dataclass
class OpNode:
    """An entry of a tape: an op, or a checkpointed call drawn as a cluster."""

    name: str
    inputs: list[int]
    outputs: list[int]
    cluster: int | None = None      # the checkpoint this op was recorded in while recomputing
    checkpoint: bool = False        # this node is itself a checkpointed call
    recomputed: bool = False



def to_dot(values: dict[int, ValueNode], ops: dict[int, OpNode], current: int | None = None,
       max_nodes: int = 200, legend: bool = True) -> str:
    """Graphviz DOT text; long runs of ops beyond ``max_nodes`` are folded into one node."""
    at_least("to_dot", "max_nodes", max_nodes, 2)
    shown, folded = _fold(list(ops), max_nodes)
    lines = ['digraph tape {',
             '  graph [rankdir=TB, fontname="Helvetica", fontsize=10, nodesep=0.3, ranksep=0.3];',
             '  node [fontname="Helvetica", fontsize=10];',
             '  edge [arrowsize=0.6];']
    ids = _Ids()
    clusters: dict[int | None, list[str]] = {}
    visible_values: set[int] = set()
    for key in shown:
        op = ops[key]
        visible_values.update(op.inputs + op.outputs)
    for key, node in values.items():
        if key in visible_values:
            clusters.setdefault(node.cluster, []).append(f"  {ids.value(key)} [{value_style(node)}];")
    opened = {op.cluster for op in ops.values() if op.cluster is not None}    # recomputed checkpoints
    for key in shown:
        op = ops[key]
        home = key if op.checkpoint and key in opened else op.cluster
        clusters.setdefault(home, []).append(f"  {ids.op(key)} [{op_style(op, key == current)}];")
    if folded:
        clusters.setdefault(None, []).append(f'  folded [label="{quote(_fold_label(folded, ops))}", '
                                             f'shape=box, style="dashed,rounded"];')
    lines += clusters.pop(None, [])
    for cluster_key, body in clusters.items():
        title = ops[cluster_key].name if cluster_key in ops else "checkpoint"
        lines += [f"  subgraph cluster_{ids.op(cluster_key)} {{",
                  f'    label="{quote(title)} (recomputed)"; style="dashed"; color="#9467bd";',
                  *["  " + line for line in body], "  }"]
    for key in shown:
        op = ops[key]
        lines += [f"  {ids.value(i)} -> {ids.op(key)};" for i in op.inputs if i in values]
        lines += [f"  {ids.op(key)} -> {ids.value(i)};" for i in op.outputs if i in values]
    if folded:
        lines += _fold_edges(shown, folded, ids)
    if legend:
        lines += LEGEND
    lines.append("}")
    return "\n".join(lines)


def value_style(node: ValueNode) -> str:
    lines = [node.name]
    if node.dtype is not None:
        lines.append(f"{node.dtype}[{','.join(str(n) for n in node.shape)}]")
    value = node.value
    if value is not None:
        lines.append(format_array(value))
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
    return f'label="{quote(chr(10).join(lines))}", shape=ellipse, {style}'

def op_style(op: OpNode, current: bool) -> str:
    fill = RECOMPUTED if op.recomputed else OP
    label = ("↻ " if op.recomputed else "") + op.name
    border = f', color="{CURRENT}", penwidth=3' if current else ""
    shape = "box3d" if op.checkpoint else "box"
    return f'label="{quote(label)}", shape={shape}, style="rounded,filled", fillcolor="{fill}"{border}'


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
