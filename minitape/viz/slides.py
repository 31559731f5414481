"""A player's frame as a slide: landscape, the picture on the left, the words beside it.

A slide is laid out before it is painted: every string it shows is kept with its size and the
box it sits in (``Slide.texts``), so what an animated image says can be read back exactly, and
tested, without reading pixels.  The boxes:

* ``caption``, across the top: the step and what just happened;
* ``picture``, on the left: the one layout restyled (Graphviz draws it at a resolution where its
  10 pt labels are at least 13 px high); a picture larger than its box is shown around what happens now;
* ``memory`` and ``legend``, on the right: each tape's bytes, their sum and peak; what the colours mean;
* ``trace``, below them: everything printed so far, scrolled to its end as the page's trace box is.

>>> import minitape as tf
>>> with tf.events.timeline() as events:
...     for k in range(3):
...         tf.print("line", k)
line 0
line 1
line 2
>>> slide = tf.viz.slides.slides(events.player(), size=(1280, 720))[-1]
>>> slide.size, slide.lines("trace")
((1280, 720), ['line 0', 'line 1', 'line 2'])
"""
from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from typing import Any

from minitape.viz.dot import LEGEND, LOOKS, UNNAMED, VALUE_LOOKS

DEFAULT_SIZE = (1280, 720)
#: Graphviz writes labels at 10 pt; at this resolution they are 13 px high.
LABEL_DPI = 72 * 13 / 10
LARGEST_DPI = 110.0
CAPTION, TEXT = 17, 13           # pixels: the caption's text, and everything else's
LINE = 18                        # pixels from one line of 13 px text to the next


@dataclass
class Text:
    """One line a slide shows: where (``x``, ``y`` of its top left), how big (px), in which box."""

    x: int
    y: int
    size: int
    text: str
    box: str
    colour: str = "#222222"


@dataclass
class Slide:
    """What one frame of an animated image shows, laid out: paint it with ``image()``."""

    size: tuple[int, int]
    picture: Any                                  # a Pillow image, cropped to fit its box
    at: tuple[int, int]                           # where the picture's top left goes
    dpi: float
    texts: list[Text] = field(default_factory=list)
    boxes: dict[str, tuple[int, int, int, int]] = field(default_factory=dict)
    swatches: list[tuple[str, int, int]] = field(default_factory=list)     # (look, x, y) of the legend's keys

    def lines(self, box: str) -> list[str]:
        """The text lines shown in ``box``, top to bottom."""
        return [text.text for text in self.texts if text.box == box]

    def image(self) -> Any:
        """The slide painted by Pillow, exactly ``size``."""
        from PIL import Image, ImageDraw

        canvas = Image.new("RGB", self.size, "white")
        canvas.paste(self.picture, self.at)
        draw = ImageDraw.Draw(canvas)
        x0, y0, x1, y1 = self.boxes["trace"]
        draw.rectangle((x0, y0, x1, y1), fill="#f4f4f4", outline="#dddddd")
        draw.line((self.boxes["picture"][2] + 6, self.boxes["picture"][1], self.boxes["picture"][2] + 6,
                   self.boxes["picture"][3]), fill="#e4e4e4")
        for name, x, y in self.swatches:
            _swatch(draw, name, x, y)
        for text in self.texts:
            draw.text((text.x, text.y), text.text, fill=text.colour, font=_font(text.size))
        return canvas


def slides(player: Any, size: tuple[int, int] = DEFAULT_SIZE, frames: list[int] | None = None) -> list[Slide]:
    """One slide per frame index in ``frames`` (all by default), each exactly ``size`` pixels.

    When the first of them draws nothing yet (a program that starts inside a paused call), an overview
    comes first: the picture as the last of them leaves it, so that the first slide shows the whole run.
    """
    from PIL import Image

    every = range(len(player.frames))
    indices = list(every) if frames is None else [every[k] for k in frames]
    looks_at, looks = {}, {}
    for index, frame in enumerate(player.frames[:max(indices) + 1]):
        looks.update(frame.changes)
        if index in indices:
            looks_at[index] = dict(looks)
    plan = [(index, looks_at[index], False) for index in indices]
    if not _draws(looks_at[indices[0]]) and _draws(looks_at[indices[-1]]):
        plan.insert(0, (indices[-1], looks_at[indices[-1]], True))
    width, height = size
    panel = max(300, int(width * 0.32))
    captions = [_caption(player, index, overview) for index, _, overview in plan]
    caption_lines = min(3, max(len(_wrap(c, width - 32, CAPTION)) for c in captions))
    top = 12 + caption_lines * (CAPTION + 6) + 8
    picture_box = (12, top, width - panel - 12, height - 12)
    dpi = _dpi(player, picture_box)
    memory_rows = max(len(player.frames[index].memory["tapes"]) for index, _, _ in plan) + 2
    made, centre = [], None
    for (index, frame_looks, _), caption in zip(plan, captions):
        picture = Image.open(io.BytesIO(player.layout.png_with(frame_looks, dpi))).convert("RGB")
        centre = _centre(player, player.frames[index].current, picture) or centre
        picture, at = _fit(picture, picture_box, centre)
        slide = Slide(size, picture, at, dpi, boxes={"picture": picture_box})
        for k, line in enumerate(_wrap(caption, width - 32, CAPTION)[:caption_lines]):
            slide.texts.append(Text(16, 12 + k * (CAPTION + 6), CAPTION, line, "caption", "#111111"))
        _side(slide, player.frames[index], width - panel, top, memory_rows)
        made.append(slide)
    return made


def _draws(looks: dict) -> bool:
    return any(look != "hidden" for look, _ in looks.values())


def _caption(player: Any, index: int, overview: bool) -> str:
    frame, total = player.frames[index], len(player.frames)
    if overview:
        return f"The whole run, as step {index + 1} of {total} leaves it; it plays from the start next."
    return f"step {index + 1} of {total}: {frame.said}"


def _side(slide: Slide, frame: Any, x: int, top: int, memory_rows: int) -> None:
    """The right-hand column: memory rows, the legend, then the trace box down to the bottom."""
    width, height = slide.size
    room = width - x - 16
    y = top

    def line(text: str, box: str, colour: str = "#222222", indent: int = 0) -> None:
        nonlocal y
        slide.texts.append(Text(x + indent, y, TEXT, text, box, colour))
        y += LINE

    line("memory held for the backward pass", "memory", "#111111")
    for row in frame.memory["tapes"]:
        line(_clip(f"{row['tape']}: {row['current']:,} bytes (its peak {row['peak']:,})", room - 8), "memory",
             indent=8)
    line(f"together: {frame.memory['current']:,} bytes (peak {frame.memory['peak']:,})", "memory", "#4b3f8f", 8)
    y = top + LINE * memory_rows + 8
    for name in LEGEND:
        slide.swatches.append((name, x, y + 1))
        line(_clip(LOOKS[name]["meaning"].replace("↻ ", ""), room - 36), "legend", "#333333", 34)
    line(_clip(UNNAMED, room), "legend", "#333333")
    y += 8
    line("printed so far", "heading", "#111111")
    box = (x, y, width - 12, height - 12)
    slide.boxes["trace"] = box
    printed = [part for text in frame.trace.splitlines() for part in _wrap(text, box[2] - box[0] - 16, TEXT, True)]
    fits = max(1, (box[3] - box[1] - 8) // LINE)
    if len(printed) > fits:                       # scrolled to the end, as the page's trace box is
        shown = printed[len(printed) - fits + 1:]
        slide.texts.append(Text(x + 8, y + 4, TEXT, f"↑ {len(printed) - len(shown)} earlier lines", "scrolled",
                                "#777777"))
        y += LINE
    else:
        shown = printed
    for text in shown:
        slide.texts.append(Text(x + 8, y + 4, TEXT, text, "trace", "#222222"))
        y += LINE


def _dpi(player: Any, box: tuple[int, int, int, int]) -> float:
    """Graphviz's resolution: the whole picture fits its box, unless that makes labels smaller than 13 px."""
    bounds = player.layout.graph.graph_attr.get("bb") or "0,0,1,1"          # in points, 72 to the inch
    _, _, w, h = (float(v) for v in re.split(r"[ ,]+", bounds.strip()))
    fit = 72 * min((box[2] - box[0]) / max(w + 8, 1), (box[3] - box[1]) / max(h + 8, 1))
    return min(LARGEST_DPI, max(LABEL_DPI, fit))


def _centre(player: Any, key: str | None, picture: Any) -> tuple[float, float] | None:
    """Where element ``key`` (a node or a recomputation's cluster) is, in the picture's pixels."""
    if key is None:
        return None
    graph = player.layout.graph
    _, _, w, h = (float(v) for v in re.split(r"[ ,]+", graph.graph_attr["bb"].strip()))
    try:
        if key in player.layout.clusters:
            x0, y0, x1, y1 = (float(v) for v in graph.get_subgraph("cluster_" + key[2:]).graph_attr["bb"].split(","))
            x, y = (x0 + x1) / 2, (y0 + y1) / 2
        else:
            x, y = (float(v) for v in graph.get_node(key).attr["pos"].split(","))
    except (KeyError, ValueError, AttributeError):
        return None
    return x / w * picture.width, (1 - y / h) * picture.height


def _fit(picture: Any, box: tuple[int, int, int, int], centre: tuple[float, float] | None) -> tuple[Any, tuple[int, int]]:
    """The picture centred in ``box``; one larger than the box is cropped around ``centre`` (else its top)."""
    width, height = box[2] - box[0], box[3] - box[1]
    cx, cy = centre or (picture.width / 2, 0)
    left = int(min(max(cx - width / 2, 0), max(picture.width - width, 0)))
    top = int(min(max(cy - height / 2, 0), max(picture.height - height, 0)))
    picture = picture.crop((left, top, min(left + width, picture.width), min(top + height, picture.height)))
    return picture, (box[0] + (width - picture.width) // 2, box[1] + (height - picture.height) // 2)


def _wrap(text: str, room: int, size: int, keep_spaces: bool = False) -> list[str]:
    """``text`` broken into lines at most ``room`` pixels wide (long words broken too)."""
    font = _font(size)
    lines, current = [], ""
    for word in re.split(r"(\s+)", text) if keep_spaces else text.split(" "):
        trial = current + word if keep_spaces else (f"{current} {word}" if current else word)
        if font.getlength(trial) <= room or not current:
            current = trial
        else:
            lines.append(current.rstrip())
            current = word.lstrip() if keep_spaces else word
        while font.getlength(current) > room and len(current) > 1:          # a word wider than the box
            cut = max(1, int(len(current) * room / font.getlength(current)))
            lines.append(current[:cut])
            current = current[cut:]
    return lines + [current] if current or not lines else lines


def _clip(text: str, room: int) -> str:
    font = _font(TEXT)
    while font.getlength(text) > room and len(text) > 2:
        text = text[:-2] + "…"
    return text


_fonts: dict[int, Any] = {}


def _font(size: int) -> Any:
    from PIL import ImageFont

    if size not in _fonts:
        _fonts[size] = ImageFont.load_default(size=size)
    return _fonts[size]


def _swatch(draw: Any, name: str, x: int, y: int) -> None:
    look = LOOKS[name]
    box = (x, y + 1, x + 26, y + 14)
    outline, width = look.get("line", "#333333"), int(look.get("width", 1))
    if name in VALUE_LOOKS:
        draw.ellipse(box, fill=look.get("fill"), outline=outline, width=width)
    else:
        draw.rounded_rectangle(box, radius=3, fill=look.get("fill"), outline=outline, width=width)
