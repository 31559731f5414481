"""Stepped line plots as plain SVG text: axes with round ticks, lines, marks and a legend.

No plotting library: the text is the picture, so it shows offline in JupyterLab, in an
exported page and on the docs site, and a test can read every label in it.  A value holds
from its step until the next one, so each line is drawn as steps, not slopes: memory held
does not drift between two events, it jumps at them.

>>> from minitape.viz.plot import Line, step_plot
>>> svg = step_plot([Line("held", [(0, 0), (1, 4), (2, 8), (3, 0)], "#756bb1")], title="a tape")
>>> svg.startswith("<svg"), svg.count('stroke="#756bb1"'), "a tape" in svg
(True, 2, True)
"""
from __future__ import annotations

import math
import textwrap
from dataclasses import dataclass, field

from minitape.viz.render import escape_html

FONT = "font-family:system-ui,-apple-system,'Segoe UI',Helvetica,Arial,sans-serif"
#: Colours for lines, told apart also by people with the commonest colour blindness (Okabe and Ito's).
COLOURS = ["#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000"]


@dataclass
class Line:
    """One line: its legend ``label``, its ``points`` (x, y; y None leaves a gap), colour and weight.

    ``note`` follows the label in the legend; ``area`` shades the region under the line.
    """

    label: str
    points: list[tuple[float, float | None]]
    colour: str
    width: float = 2.0
    note: str = ""
    area: bool = False
    dashed: bool = False


@dataclass
class Mark:
    """A dot at (``x``, ``y``) with ``text`` beside it (the peak)."""

    x: float
    y: float
    text: str
    colour: str = "#c0392b"


@dataclass
class Rule:
    """A dashed vertical line at ``x`` with ``text`` at its top (where the backward pass starts)."""

    x: float
    text: str
    colour: str = "#555555"


@dataclass
class Frame:
    """Where the plot area sits and how data maps into it."""

    left: float
    top: float
    width: float
    height: float
    x_max: float
    y_max: float
    ticks: list[float] = field(default_factory=list)

    def x(self, value: float) -> float:
        return self.left + self.width * value / max(self.x_max, 1e-12)

    def y(self, value: float) -> float:
        return self.top + self.height * (1 - value / max(self.y_max, 1e-12))


def nice_ticks(largest: float, count: int = 5) -> list[float]:
    """Round tick values from 0 to at least ``largest``: steps of 1, 2 or 5 times a power of ten.

    >>> from minitape.viz.plot import nice_ticks
    >>> nice_ticks(1344088), nice_ticks(0)
    ([0, 500000, 1000000, 1500000], [0, 1])
    """
    if largest <= 0:
        return [0, 1]
    raw = largest / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    return [step * k for k in range(math.ceil(largest / step - 1e-9) + 1)]


def short_bytes(n: float) -> str:
    """A byte count for an axis: B, kB, MB or GB (powers of 1000, as ``memory_info`` counts bytes).

    >>> from minitape.viz.plot import short_bytes
    >>> short_bytes(0), short_bytes(512), short_bytes(1_500_000), short_bytes(2_000)
    ('0', '512 B', '1.5 MB', '2 kB')
    """
    if n == 0:
        return "0"
    for unit, size in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if abs(n) >= size:
            return f"{n / size:.3g} {unit}"
    return f"{n:.0f} B"


def step_plot(lines: list[Line], marks: list[Mark] = (), rules: list[Rule] = (), title: str = "",
              x_label: str = "step", y_label: str = "bytes held", width: int = 760, height: int = 320,
              y_format=short_bytes) -> str:
    """The lines as one SVG: axes, ticks, stepped lines, marks, rules and a legend below (13 px text)."""
    x_max = max([x for line in lines for x, _ in line.points] + [1])
    y_max = max([y for line in lines for _, y in line.points if y is not None] + [0])
    ticks = nice_ticks(y_max)
    frame = Frame(left=72, top=40 if title else 16, width=width - 72 - 24, height=height - 90, x_max=x_max,
                  y_max=ticks[-1], ticks=ticks)
    legend_top = frame.top + frame.height + 58
    room = int((width - frame.left - 40) / 7.2)               # characters of 13 px text that fit a legend row
    legend = [textwrap.wrap(line.label + (f" — {line.note}" if line.note else ""), room) or [""] for line in lines]
    total_height = legend_top + 20 * sum(len(rows) for rows in legend) + 8
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{total_height:.0f}" '
             f'viewBox="0 0 {width} {total_height:.0f}" style="{FONT};background:#fff" role="img">',
             f'<rect width="{width}" height="{total_height:.0f}" fill="#fff"/>']
    if title:
        parts.append(_text(frame.left, 24, title, size=15, weight="600"))
    parts += _axes(frame, x_label, y_label, y_format)
    for rule in rules:
        x = frame.x(rule.x)
        parts.append(f'<line x1="{x:.1f}" y1="{frame.top:.1f}" x2="{x:.1f}" y2="{frame.top + frame.height:.1f}" '
                     f'stroke="{rule.colour}" stroke-dasharray="5,4" stroke-width="1.2"/>')
        parts.append(_text(x + 4, frame.top + 14, rule.text, colour=rule.colour, size=12))
    for line in lines:
        parts += _line(frame, line)
    for mark in marks:
        x, y = frame.x(mark.x), frame.y(mark.y)
        anchor = "end" if x > frame.left + frame.width * 0.7 else "start"
        parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4.5" fill="{mark.colour}" stroke="#fff"/>')
        parts.append(_text(x + (-8 if anchor == "end" else 8), max(y - 6, frame.top + 12), mark.text,
                           colour=mark.colour, size=12, anchor=anchor, weight="600", halo=True))
    y = legend_top
    for line, rows in zip(lines, legend):
        dash = ' stroke-dasharray="6,3"' if line.dashed else ""
        parts.append(f'<line x1="{frame.left}" y1="{y - 4}" x2="{frame.left + 26}" y2="{y - 4}" '
                     f'stroke="{line.colour}" stroke-width="{line.width + 1}"{dash}/>')
        for row in rows:
            parts.append(_text(frame.left + 34, y, row, size=13))
            y += 20
    parts.append("</svg>")
    return "\n".join(parts)


def _axes(frame: Frame, x_label: str, y_label: str, y_format) -> list[str]:
    bottom, right = frame.top + frame.height, frame.left + frame.width
    parts = []
    for tick in frame.ticks:
        y = frame.y(tick)
        parts.append(f'<line x1="{frame.left}" y1="{y:.1f}" x2="{right:.1f}" y2="{y:.1f}" stroke="#e6e6e6"/>')
        parts.append(_text(frame.left - 6, y + 4, y_format(tick), size=12, anchor="end", colour="#444"))
    for tick in nice_ticks(frame.x_max, 8):
        if tick <= frame.x_max:
            x = frame.x(tick)
            parts.append(f'<line x1="{x:.1f}" y1="{bottom:.1f}" x2="{x:.1f}" y2="{bottom + 4:.1f}" stroke="#444"/>')
            parts.append(_text(x, bottom + 17, f"{tick:,.0f}", size=12, anchor="middle", colour="#444"))
    parts.append(f'<path d="M{frame.left},{frame.top} V{bottom:.1f} H{right:.1f}" fill="none" stroke="#444"/>')
    parts.append(_text(frame.left + frame.width / 2, bottom + 34, x_label, size=13, anchor="middle"))
    parts.append(_text(16, frame.top + frame.height / 2, y_label, size=13, anchor="middle",
                       transform=f"rotate(-90 16 {frame.top + frame.height / 2:.1f})"))
    return parts


def _line(frame: Frame, line: Line) -> list[str]:
    """The line as steps (a gap where y is None), with the area under it shaded if asked."""
    runs: list[list[tuple[float, float]]] = [[]]
    points = sorted(line.points, key=lambda p: p[0]) + [(frame.x_max, None)]
    for (x, y), (x_next, _) in zip(points, points[1:]):
        if y is None:
            if runs[-1]:
                runs.append([])
            continue
        runs[-1] += [(frame.x(x), frame.y(y)), (frame.x(x_next), frame.y(y))]
    parts = []
    dash = ' stroke-dasharray="6,3"' if line.dashed else ""
    for run in [r for r in runs if r]:
        d = "M" + " L".join(f"{x:.1f},{y:.1f}" for x, y in run)
        if line.area:
            base = frame.y(0)
            parts.append(f'<path d="{d} L{run[-1][0]:.1f},{base:.1f} L{run[0][0]:.1f},{base:.1f} Z" '
                         f'fill="{line.colour}" fill-opacity="0.12" stroke="none"/>')
        parts.append(f'<path d="{d}" fill="none" stroke="{line.colour}" stroke-width="{line.width}" '
                     f'stroke-linejoin="round"{dash}><title>{escape_html(line.label, quote=False)}</title></path>')
    return parts


def _text(x: float, y: float, text: str, size: int = 13, colour: str = "#222", anchor: str = "start",
          weight: str = "normal", transform: str = "", halo: bool = False) -> str:
    extra = f' transform="{transform}"' if transform else ""
    # A label drawn over the lines (a peak's) gets a white outline under its letters, so a line crossing it
    # does not strike it through.
    extra += ' stroke="#fff" stroke-width="3" paint-order="stroke"' if halo else ""
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" fill="{colour}" text-anchor="{anchor}" '
            f'font-weight="{weight}"{extra}>{escape_html(text, quote=False)}</text>')


def sparkline(values: list[float], label: str, width: int = 320, height: int = 72, cursor: int | None = None) -> str:
    """A small stepped area of ``values`` (one per frame) with its peak marked and a cursor line (class
    ``mt-cursor``) at index ``cursor``, which a page's script can move.

    >>> from minitape.viz.plot import sparkline
    >>> svg = sparkline([0, 8, 16, 0], "bytes held, together", cursor=3)
    >>> svg.count('class="mt-cursor"'), "peak 16 B" in svg
    (1, True)
    """
    frame = Frame(left=4, top=18, width=width - 8, height=height - 24, x_max=max(len(values), 1),
                  y_max=max(max(values, default=0), 1))
    line = Line(label, [(k, v) for k, v in enumerate(values)], "#4b3f8f", width=1.5, area=True)
    peak = max(range(len(values)), key=lambda k: (values[k], -k)) if values else 0
    x = frame.x((cursor if cursor is not None else len(values) - 1) + 0.5)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
             f'style="{FONT}" role="img" aria-label="{escape_html(label)}">',
             _text(4, 12, f"{label}: peak {short_bytes(values[peak] if values else 0)}", size=12, colour="#444"),
             *_line(frame, line),
             f'<line x1="{frame.left}" y1="{frame.y(0):.1f}" x2="{frame.left + frame.width}" y2="{frame.y(0):.1f}" '
             'stroke="#999"/>',
             f'<circle cx="{frame.x(peak + 0.5):.1f}" cy="{frame.y(values[peak] if values else 0):.1f}" r="3" '
             'fill="#c0392b"/>',
             f'<line class="mt-cursor" x1="{x:.1f}" y1="{frame.top}" x2="{x:.1f}" y2="{frame.y(0):.1f}" '
             f'stroke="#c0392b" stroke-width="1.5" data-left="{frame.left}" data-step="{frame.width / frame.x_max:.4f}"/>',
             "</svg>"]
    return "".join(parts)
