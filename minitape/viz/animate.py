"""The player as an animated image for slides: each frame laid out as a landscape slide, painted by Pillow.

Every frame is the one layout restyled (``png_with``), so nothing moves; beside it the memory
held, the legend and everything printed so far (``minitape.viz.slides``).  ``player.save("tour.gif")``
plays in any slide program, at 1280 × 720 unless ``size`` says otherwise; ``.png`` writes an
animated PNG, with every colour kept.

>>> import minitape as tf
>>> with tf.events.timeline() as events:
...     tf.print("hello")
hello
>>> images = tf.viz.animate.frame_images(events.player(), size=(640, 360))
>>> len(images), images[0].mode, images[0].size
(1, 'RGB', (640, 360))
"""
from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from minitape.viz.slides import DEFAULT_SIZE, slides

PAUSE_MS = 700
SMALLEST_SIZE = (320, 240)
Frames = range | slice | Sequence[int] | None


def save_animation(player: Any, path: str | os.PathLike, format: str, size: tuple[int, int] = DEFAULT_SIZE,
                   frames: Frames = None, fps: float | None = None) -> None:
    """Write the chosen frames of ``player`` as an animated ``format`` ("GIF" or "PNG") at ``path``."""
    pause = PAUSE_MS if fps is None else 1000 / _positive_fps(fps)
    images = frame_images(player, size, frames)
    durations = [pause] * (len(images) - 1) + [pause * 4]       # linger on the last frame
    if format == "GIF":                # one palette, from the last frame (it has every colour), for all
        palette = images[-1].quantize(colors=255, method=2, dither=0)
        images = [image.quantize(palette=palette, dither=0) for image in images]
    images[0].save(path, format=format, save_all=True, append_images=images[1:], duration=durations, loop=0)


def frame_images(player: Any, size: tuple[int, int] = DEFAULT_SIZE, frames: Frames = None) -> list[Any]:
    """One Pillow image per chosen frame (see ``chosen_frames``), each exactly ``size`` (width, height)."""
    return [slide.image() for slide in slides(player, checked_size(size), chosen_frames(player, frames))]


def checked_size(size: Any) -> tuple[int, int]:
    """``size`` as (width, height) in whole pixels, at least 320 × 240.

    >>> from minitape.viz.animate import checked_size
    >>> checked_size((1920, 1080))
    (1920, 1080)
    >>> checked_size((100, 100))
    Traceback (most recent call last):
    ...
    ValueError: Player.save: size must be (width, height) in pixels, at least (320, 240); got (100, 100).
    """
    try:
        width, height = (int(v) for v in size)
        ok = (width, height) == tuple(size) and width >= SMALLEST_SIZE[0] and height >= SMALLEST_SIZE[1]
    except (TypeError, ValueError):
        ok = False
    if not ok:
        raise ValueError(f"Player.save: size must be (width, height) in pixels, at least {SMALLEST_SIZE}; "
                         f"got {size!r}.")
    return width, height


def chosen_frames(player: Any, frames: Frames) -> list[int]:
    """The frame indices ``frames`` names: None (all), a ``range`` or ``slice``, or a list of indices
    (negative ones count from the end), in the order given.

    >>> import minitape as tf
    >>> with tf.events.timeline() as events:
    ...     for k in range(5):
    ...         tf.print(k)
    0
    1
    2
    3
    4
    >>> from minitape.viz.animate import chosen_frames
    >>> player = events.player()
    >>> chosen_frames(player, slice(1, None, 2)), chosen_frames(player, range(2)), chosen_frames(player, [0, -1])
    ([1, 3], [0, 1], [0, 4])
    """
    count = len(player.frames)
    if frames is None:
        return list(range(count))
    if isinstance(frames, slice):
        chosen = list(range(count)[frames])
    else:
        try:
            chosen = [range(count)[int(k)] for k in frames]
        except (TypeError, ValueError):
            raise TypeError(f"Player.save: frames must be a range, a slice or a list of frame indices; "
                            f"got {frames!r}.") from None
        except IndexError:
            raise ValueError(f"Player.save: frames names a frame outside 0..{count - 1} (the player has {count} "
                             f"frames; -1 is the last); got {frames!r}.") from None
    if not chosen:
        raise ValueError(f"Player.save: frames chooses no frame from the player's {count}; got {frames!r}.")
    return chosen


def _positive_fps(fps: Any) -> float:
    if isinstance(fps, bool) or not isinstance(fps, int | float) or not fps > 0:
        raise ValueError(f"Player.save: fps (frames per second) must be a positive number, got {fps!r}.")
    return float(fps)
