"""One layout for a whole timeline: every node that ever appears, placed once; frames only restyle it.

``Layout`` takes the scene at the end of a timeline (every value, op and
recomputed checkpoint it ever showed), folds long runs of ops, and asks Graphviz for
positions once.  A frame is then a *look* per element (see
``LOOKS``: hidden, saved, current...) and its label lines, which
either restyle the SVG (the player's page, ``svg_with``) or the laid-out graph
drawn as PNG (``png_with``, for animated images).  Nothing moves between
frames: each node's size fits the longest label it ever carries.

>>> import minitape as tf
>>> x = tf.constant(2.0)
>>> with tf.GradientTape() as tape:
...     tape.watch(x)
...     y = tf.sin(x)
>>> layout = tf.viz.layout.Layout(tf.viz.Scene.of_tape(tape), {"v0": ["x", "float32[]", "2"]})
>>> sorted(layout.elements), layout.svg.count('class="node')
(['o0', 'v0', 'v1'], 3)
"""
from __future__ import annotations

import re
from typing import Any

from minitape.viz.dot import HEADER, attribute_map, fold, fold_lines, label, quote
from minitape.viz.render import draw, escape_html, laid_out, visible

FOLDED = "folded"


class Layout:
    """The whole picture of a scene, laid out once (``max_nodes`` ops at most; the middle of longer runs folds).

    ``widest`` gives, per element, the longest label it ever shows (line by line), so that
    its node is made big enough for every frame.
    """

    def __init__(self, scene: Any, widest: dict[str, list[str]], max_nodes: int = 200) -> None:
        self.scene = scene
        order = _depth_first(scene.ops)
        kept, folded = fold(order, max_nodes)
        calls = {key for key in kept if scene.ops[key].checkpoint}
        self.shown_ops = [key for key in kept if _home_chain_kept(scene.ops, key, calls)]
        self.folded = [key for key in order if key not in set(self.shown_ops)]
        ends = {v for key in self.shown_ops for v in scene.ops[key].inputs + scene.ops[key].outputs}
        hidden = {v for key in self.folded for v in scene.ops[key].inputs + scene.ops[key].outputs} - ends
        self.shown_values = [key for key in scene.values if key not in hidden]       # a value no op read is drawn too
        shown_clusters = [c for c in scene.clusters if c in set(self.shown_ops)]
        self.edges: list[tuple[str, str, str]] = []        # (edge id, tail, head)
        self._dashed: set[str] = set()
        self.elements = {key: widest.get(key) or self._lines(key) for key in self.shown_values + self.shown_ops}
        if self.folded:
            n = len(self.folded)
            self.elements[FOLDED] = fold_lines(self.folded, scene.ops) + [
                f"{n:,} of {n:,} recorded, {n:,} differentiated"]      # the widest count a frame writes
        self.clusters = ["c_" + c for c in shown_clusters]
        self.dot = self._dot(shown_clusters)
        self.graph = laid_out(self.dot)
        self.svg = _embeddable(draw(self.graph, "svg").decode("utf-8"))

    def _lines(self, key: str) -> list[str]:
        return (self.scene.values.get(key) or self.scene.ops[key]).lines()

    # -- the DOT of everything --------------------------------------------------
    def _dot(self, clusters: list[str]) -> str:
        scene = self.scene
        main = [key for key in self.shown_ops if scene.ops[key].cluster is None]
        # The user's tape's chain in one straight column; clusters beside it would pull it apart.
        self._spine = set() if clusters else set(main) | {v for key in main for v in scene.ops[key].outputs} | {FOLDED}
        homes: dict[str | None, list[str]] = {}
        for key in self.shown_values:
            homes.setdefault(scene.values[key].cluster, []).append(self._node(key, "ellipse"))
        for key in self.shown_ops:
            op = scene.ops[key]
            home = key if key in clusters else op.cluster
            homes.setdefault(home, []).append(self._node(key, op.shape, rounded=True))
        if self.folded:
            homes.setdefault(None, []).append(self._node(FOLDED, "box", rounded=True))
        children: dict[str | None, list[str]] = {}
        for c in clusters:
            children.setdefault(scene.ops[c].cluster, []).append(c)
        lines = ["digraph player {", *HEADER]
        lines += self._cluster_body(None, homes, children, "  ")
        shown = set(self.shown_values) | set(self.shown_ops)
        readers: dict[str, int] = {}
        for key in self.shown_ops:
            op = scene.ops[key]
            for v in op.inputs:
                if v in shown:      # a value many ops read (a variable) is placed by its first reader only
                    readers[v] = readers.get(v, 0) + 1
                    self._edges(lines, [(v, key)], "constraint=false" if readers[v] > 1 else "")
            self._edges(lines, [(key, v) for v in op.outputs if v in shown])
        lines += self._after_recomputation(clusters, readers)
        self._edges(lines, [(a, b) for a, b in scene.links if a in shown and b in shown], 'style="dashed"')
        if self.folded:
            self._edges(lines, self._around_the_fold(), 'style="dashed"')
        lines.append("}")
        return "\n".join(lines)

    def _after_recomputation(self, clusters: list[str], readers: dict[str, int]) -> list[str]:
        """Invisible edges placing a call's outputs below its recomputation: the chain stays one column."""
        lines = []
        for c in clusters:
            last = [key for key in self.shown_values if self.scene.values[key].cluster == c and key not in readers]
            lines += [f"  {tail} -> {head} [style=invis];" for tail in last
                      for head in self.scene.ops[c].outputs if head in self.elements]
        return lines

    def _around_the_fold(self) -> list[tuple[str, str]]:
        """The folded node sits between the last op drawn before the fold and the first after it."""
        ops, shown = self.scene.ops, set(self.shown_ops)
        order = _depth_first(ops)
        first, last = order.index(self.folded[0]), order.index(self.folded[-1])
        before = [k for k in order[:first] if k in shown and ops[k].cluster is None]
        after = [k for k in order[last + 1:] if k in shown and ops[k].cluster is None]
        return ([(before[-1], FOLDED)] if before else []) + ([(FOLDED, after[0])] if after else [])

    def _cluster_body(self, home: str | None, homes: dict, children: dict, indent: str) -> list[str]:
        lines = [indent + line.strip() for line in homes.get(home, [])]
        for c in children.get(home, []):
            title = f"{self.scene.ops[c].name} (recomputed)"
            lines += [f"{indent}subgraph cluster_{c} {{",
                      f'{indent}  id="c_{c}"; label="{quote(title)}"; style="dashed"; color="#9467bd"; fontsize=10;',
                      *self._cluster_body(c, homes, children, indent + "  "), f"{indent}}}"]
        return lines

    def _node(self, key: str, shape: str, rounded: bool = False) -> str:
        style = "filled,rounded" if rounded else "filled"
        group = ', group="spine"' if key in self._spine else ""      # the user's tape's chain: one straight column
        return (f'  {key} [id="{key}", {label(self.elements[key])}, shape={shape}, style="{style}", '
                f'fillcolor="#ffffff"{group}];')

    def _edges(self, lines: list[str], pairs: list[tuple[str, str]], style: str = "") -> None:
        for tail, head in pairs:
            edge_id = f"e{len(self.edges)}"
            self.edges.append((edge_id, tail, head))
            if "dashed" in style:
                self._dashed.add(edge_id)
            lines.append(f'  {tail} -> {head} [id="{edge_id}"{", " + style if style else ""}];')

    # -- frames: restyling ---------------------------------------------------------
    def edge_looks(self, looks: dict[str, tuple[str, list[str]]]) -> dict[str, str]:
        """An edge is shown when both its ends are."""
        return {edge_id: "hidden" if looks.get(tail, ("hidden",))[0] == "hidden"
                or looks.get(head, ("hidden",))[0] == "hidden" else "edge"
                for edge_id, tail, head in self.edges}

    def svg_with(self, looks: dict[str, tuple[str, list[str]]]) -> str:
        """The SVG restyled to ``looks`` (element -> (look, lines)): one frame, without JavaScript.

        >>> import minitape as tf
        >>> x = tf.constant(2.0)
        >>> with tf.GradientTape() as tape:
        ...     tape.watch(x)
        ...     y = tf.sin(x)
        >>> layout = tf.viz.layout.Layout(tf.viz.Scene.of_tape(tape), {})
        >>> 'class="node mt-hidden"' in layout.svg_with({"v0": ("user", ["x"])})
        True
        """
        edges = self.edge_looks(looks)

        def restyle(match: re.Match) -> str:
            key, kind, body = match.group(1), match.group(2), match.group(3)
            look = edges.get(key, "edge") if kind == "edge" else looks.get(key, ("hidden", []))[0]
            if kind == "node":
                lines = iter(looks.get(key, ("hidden", self.elements.get(key, [])))[1])
                body = _TEXT.sub(lambda t: t.group(1) + escape_html(next(lines, ""), quote=False) + t.group(3), body)
            return f'<g id="{key}" class="{kind} {classes(look)}">{body}</g>'

        return _GROUP.sub(restyle, self.svg)

    def png_with(self, looks: dict[str, tuple[str, list[str]]], dpi: float = 72) -> bytes:
        """The laid-out graph restyled to ``looks`` and drawn as PNG by Graphviz (nothing moves)."""
        graph = self.graph
        graph.graph_attr["dpi"] = str(dpi)
        for key in self.elements:
            look, lines = looks.get(key, ("hidden", []))
            node = graph.get_node(key)
            node.attr.update({**_PLAIN, **attribute_map(look, rounded=node.attr.get("shape") != "ellipse")})
            node.attr["label"] = "\\n".join(visible(line).replace("\\", "\\\\") for line in lines) or " "
        edges = self.edge_looks(looks)
        for edge in graph.edges():
            if edge.attr.get("id") in edges:           # (edges without an id only place nodes: always invisible)
                dashed = edge.attr.get("id") in self._dashed
                edge.attr["style"] = "invis" if edges[edge.attr["id"]] == "hidden" else "dashed" if dashed else "solid"
        for c in self.clusters:
            look = looks.get(c, ("hidden",))[0]
            sub = graph.get_subgraph("cluster_" + c[2:])
            sub.graph_attr.update(attribute_map(look) if look != "hidden" else {"style": "invis"})
            if look != "hidden":
                sub.graph_attr["style"] = "dashed"
        return draw(graph, "png")


def classes(look: str) -> str:
    """The CSS classes of a look: ``"saved current"`` is ``"mt-saved mt-current"``.

    >>> from minitape.viz.layout import classes
    >>> classes("saved current")
    'mt-saved mt-current'
    """
    return " ".join("mt-" + name for name in look.split())


def _depth_first(ops: dict[str, Any]) -> list[str]:
    """The ops in recording order, each checkpoint followed by what its recomputations recorded."""
    inside: dict[str | None, list[str]] = {}
    for key, op in ops.items():
        inside.setdefault(op.cluster if op.cluster in ops else None, []).append(key)
    order: list[str] = []

    def visit(home: str | None) -> None:
        for key in inside.get(home, []):
            order.append(key)
            if key in inside:
                visit(key)
    visit(None)
    return order


def _home_chain_kept(ops: dict[str, Any], key: str, kept_calls: set[str]) -> bool:
    """Whether every checkpoint around ``key`` is drawn (an op inside a folded checkpoint is folded too)."""
    home = ops[key].cluster
    while home is not None and home in ops:
        if home not in kept_calls:
            return False
        home = ops[home].cluster
    return True


_PLAIN = {"color": "black", "penwidth": "1", "fontcolor": "black"}      # what a look that says nothing of them means
_GROUP = re.compile(r'<g id="([^"]+)" class="(node|edge|cluster)[^"]*">(.*?)</g>', re.DOTALL)
_TEXT = re.compile(r"(<text[^>]*>)(.*?)(</text>)", re.DOTALL)


def _embeddable(svg: str) -> str:
    """Graphviz's SVG without its XML prolog and comments, to sit inside an HTML page."""
    svg = svg[svg.index("<svg"):]
    return re.sub(r"<!--.*?-->\n?", "", svg, flags=re.DOTALL)
