"""Rendering: DOT text laid out as SVG by the Graphviz libraries inside pygraphviz's wheels.

pygraphviz is imported when the first picture is drawn, not before: ``import
minitape`` loads no display library.

>>> from minitape.viz.render import to_svg
>>> to_svg("digraph { a -> b }").startswith("<?xml")
True
"""
from __future__ import annotations

import contextlib
import html
import os
import re
import sys
from collections.abc import Iterator


def to_svg(dot: str) -> str:
    """Lay out DOT text as SVG with the Graphviz libraries bundled in pygraphviz's wheels.

    >>> import minitape as tf
    >>> svg = tf.viz.to_svg("digraph { a -> b }")
    >>> svg.startswith("<?xml"), svg.count('class="node"')
    (True, 2)
    """
    with _first_layout_quietly():
        return _pygraphviz().AGraph(string=dot).draw(format="svg", prog="dot").decode("utf-8")


def laid_out(dot: str) -> "pygraphviz.AGraph":  # noqa: F821  (imported on first use)
    """DOT text laid out once by Graphviz's ``dot``: a graph whose nodes, edges and clusters have positions.

    >>> from minitape.viz.render import laid_out
    >>> laid_out("digraph { a -> b }").get_node("a").attr["pos"] != ""
    True
    """
    graph = _pygraphviz().AGraph(string=dot)
    with _first_layout_quietly():
        graph.layout(prog="dot")
    return graph


def draw(graph: "pygraphviz.AGraph", format: str) -> bytes:  # noqa: F821
    """A laid-out graph drawn as ``format`` ("svg", "png") where its positions say: nothing is laid out again.

    >>> from minitape.viz.render import draw, laid_out
    >>> draw(laid_out("digraph { a -> b }"), "png")[:4]
    b'\\x89PNG'
    """
    with _first_layout_quietly():
        return graph.draw(format=format, prog="nop2")


def _pygraphviz():
    try:
        import pygraphviz
    except ImportError:  # pragma: no cover - pygraphviz is a dependency
        raise ImportError("Rendering pictures needs pygraphviz >= 2.0 (its wheels include Graphviz): "
                          "pip install 'pygraphviz>=2.0'") from None
    return pygraphviz


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


def escape_html(text: str, quote: bool = True) -> str:
    """Text for an HTML page (or, ``quote=False``, an SVG's ``<text>``), shown as text whatever it contains.

    >>> from minitape.viz.render import escape_html
    >>> escape_html('<b>"x"</b>' + chr(0))
    '&lt;b&gt;&quot;x&quot;&lt;/b&gt;\\\\x00'
    """
    return html.escape(visible(text), quote=quote)


# What XML (so SVG) and Graphviz cannot carry: control characters other than tab and newline,
# lone surrogates (no UTF-8 encodes them), and the two non-characters U+FFFE and U+FFFF.
_UNCARRIED = re.compile(r"[\x00-\x08\x0b-\x1f\ud800-\udfff\ufffe\uffff]")


def visible(text: str) -> str:
    """``text`` with every character a page or Graphviz cannot carry written as its Python escape.

    >>> from minitape.viz.render import visible
    >>> visible("tab\\tand" + chr(0) + chr(0xDC80) + "é")
    'tab\\tand\\\\x00\\\\udc80é'
    """
    return _UNCARRIED.sub(lambda match: ascii(match.group())[1:-1], text)
