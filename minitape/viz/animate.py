"""The player as an animated image for slides: each frame drawn by Graphviz as PNG, framed by Pillow.

Every frame is the one layout restyled (``png_with``), so
nothing moves; beside it the legend, below it the step, what happened, the memory
held and the last lines printed.  ``player.save("tour.gif")`` plays in any slide
program; ``.png`` writes an animated PNG, with every colour kept.

>>> import minitape as tf, io
>>> with tf.events.timeline() as events:
...     tf.print("hello")
hello
>>> images = tf.viz.animate.frame_images(events.player())
>>> len(images), images[0].mode
(1, 'RGB')
"""
from __future__ import annotations

import io
import re
import os
import textwrap
from typing import Any

from minitape.viz.dot import LEGEND, LOOKS, VALUE_LOOKS

WIDTH_LIMIT = 1400           # pixels: a huge picture is drawn smaller (Graphviz's dpi), not cropped
TEXT_WIDTH = 96              # characters per line of the caption
PAUSE_MS = 700
LEGEND_WIDTH = 300


def save_animation(player: Any, path: str | os.PathLike, format: str) -> None:
    """Write every frame of ``player`` as an animated ``format`` ("GIF" or "PNG") at ``path``."""
    images = frame_images(player)
    durations = [PAUSE_MS] * (len(images) - 1) + [PAUSE_MS * 4]       # linger on the last frame
    if format == "GIF":                # one palette, from the last frame (it has every colour), for all
        palette = images[-1].quantize(colors=255, method=2, dither=0)
        images = [image.quantize(palette=palette, dither=0) for image in images]
    images[0].save(path, format=format, save_all=True, append_images=images[1:], duration=durations, loop=0)


def frame_images(player: Any) -> list[Any]:
    """One Pillow image per frame, all the same size."""
    from PIL import Image

    dpi = _dpi(player)
    looks: dict = {}
    pictures = []
    for frame in player.frames:
        looks.update(frame.changes)
        pictures.append(Image.open(io.BytesIO(player.layout.png_with(looks, dpi))).convert("RGB"))
    width = max(p.width for p in pictures)
    height = max(p.height for p in pictures)
    words = [_words(frame, len(player.frames)) for frame in player.frames]
    lines = max(len(caption) + len(rest) for caption, rest in words)
    return [_framed(picture, caption, rest, width, height, lines) for picture, (caption, rest) in zip(pictures, words)]


def _words(frame: Any, total: int) -> tuple[list[str], list[str]]:
    """The frame's caption (wrapped), then its memory rows and the last lines printed."""
    caption = textwrap.wrap(f"step {frame.index + 1} of {total}: {frame.said}", TEXT_WIDTH) or [""]
    rest = [f"{row['tape']}: {row['current']:,} bytes (its peak {row['peak']:,})" for row in frame.memory["tapes"]]
    rest.append(f"together: {frame.memory['current']:,} bytes (peak {frame.memory['peak']:,})")
    printed = frame.trace.splitlines()[-4:]
    return caption, rest + (["printed so far (last lines):"] + ["    " + line for line in printed] if printed else [])


def _dpi(player: Any) -> float:
    """Graphviz's resolution for this picture: 72 unless that makes it wider or taller than the limit."""
    box = player.layout.graph.graph_attr.get("bb") or "0,0,1,1"          # in points, 72 to the inch
    largest = max(float(v) for v in re.split(r"[ ,]+", box.strip())[2:])
    return max(24.0, min(72.0, 72.0 * WIDTH_LIMIT / max(largest, 1.0)))


def _framed(picture: Any, caption: list[str], rest: list[str], width: int, height: int, lines: int) -> Any:
    """The picture with the legend beside it and the words below it, on a canvas every frame shares."""
    from PIL import Image, ImageDraw, ImageFont

    font, small = ImageFont.load_default(size=15), ImageFont.load_default(size=13)
    canvas = Image.new("RGB", (width + LEGEND_WIDTH + 24, height + 30 + 20 * lines), "white")
    canvas.paste(picture, (8 + (width - picture.width) // 2, 8))
    draw = ImageDraw.Draw(canvas)
    _legend(draw, width + 24, 12, small)
    y = height + 16
    for text, style in [(text, font) for text in caption] + [(text, small) for text in rest]:
        draw.text((10, y), text, fill="#111111" if style is font else "#444444", font=style)
        y += 20
    return canvas


def _legend(draw: Any, x: int, y: int, font: Any) -> None:
    for name in LEGEND:
        look = LOOKS[name]
        box = (x, y + 2, x + 26, y + 16)
        outline, width = look.get("line", "#333333"), int(look.get("width", 1))
        if name in VALUE_LOOKS:
            draw.ellipse(box, fill=look.get("fill"), outline=outline, width=width)
        else:
            draw.rounded_rectangle(box, radius=3, fill=look.get("fill"), outline=outline, width=width)
        draw.text((x + 34, y + 1), look["meaning"].replace("↻ ", ""), fill="#333333", font=font)
        y += 22
