"""The player: a timeline, frame by frame, with the printed trace and the tapes' memory beside it.

The whole timeline is laid out once (``minitape.viz.layout``); a frame says only
how each element looks at that moment (hidden, saved, current, done...) and what its
label reads.  ``to_html`` is one self-contained page, HTML + SVG + a little
JavaScript, with no network and no kernel: it is what a notebook shows (JupyterLab,
VS Code, an nbconvert export, the docs site) and what ``save`` writes, as a
web page or as an animated image for slides.

>>> import minitape as tf
>>> f = tf.recompute_grad(lambda x: (tf.print("running"), x * x)[1])
>>> with tf.events.timeline() as events:
...     with tf.GradientTape() as tape:
...         x = tf.constant(3.0)
...         tape.watch(x)
...         y = f(x)
...     grad = tape.gradient(y, x)
running
running
>>> player = events.player()
>>> len(player.frames), player.frames[-1].said
(15, 'gradient done: the tape let go of what it held (4 bytes)')
"""
from __future__ import annotations

import itertools
import os
import secrets
from dataclasses import dataclass, field
from typing import Any

from minitape.core.events import Timeline
from minitape.viz.dot import at_least
from minitape.viz.layout import FOLDED, Layout
from minitape.viz.page import frame_html, page, static_page
from minitape.viz.scene import Scene

_player_ids = itertools.count()
Looks = dict[str, tuple[str, list[str]]]


@dataclass
class Frame:
    """One moment: what changed in the picture, what just happened, what was printed so far, the memory.

    ``event`` is the index in the timeline of the event this frame shows the world after;
    ``changes`` maps each element whose look changed since the previous frame to its
    look and label lines; ``memory`` is each tape's ``memory_info()``, their sum and its peak.
    """

    index: int
    event: int
    said: str
    trace: str
    memory: dict[str, Any]
    changes: Looks = field(default_factory=dict)
    current: str | None = None


class Player:
    """Play a ``Timeline`` frame by frame.

    Args:
        timeline: the events to play (``with tf.events.timeline() as events: ...``).
        names: ``locals()``, to label values (and tapes) with your variable names.
        max_frames: long timelines are sampled down to this many frames (always keeping the last).
        max_nodes: pictures with more ops than this fold the middle of long runs into one node.

    Consecutive moments that look the same are one frame.

    >>> import minitape as tf
    >>> x = tf.constant(2.0)
    >>> with tf.events.timeline() as events:
    ...     with tf.GradientTape() as tape:
    ...         tape.watch(x)
    ...         y = x * x
    ...     dy_dx = tape.gradient(y, x)
    >>> player = tf.viz.Player(events, names=locals())
    >>> [frame.said for frame in player.frames]
    ['the tape watches x', 'recorded multiply, keeping x and x (no new bytes: yours, or already held)',
     'tape.gradient: playing the tape backwards, last entry first',
     'backward through multiply: gradients flow to its inputs', 'gradient done']
    """

    def __init__(self, timeline: Timeline, names: dict[str, Any] | None = None, max_frames: int = 120,
                 max_nodes: int = 200) -> None:
        at_least("Player", "max_frames", max_frames, 1)
        at_least("Player", "max_nodes", max_nodes, 2)
        self.scene = Scene.named(names if names is not None else timeline.names)
        self.frames = self._play(timeline, max_frames)
        self.layout = Layout(self.scene, self._widest(), max_nodes)
        self._fit_to_layout()
        self.peak = max(f.memory["peak"] for f in self.frames)
        self.dom_id = f"minitape-player-{next(_player_ids)}-{secrets.token_hex(3)}"

    def _play(self, timeline: Timeline, max_frames: int) -> list[Frame]:
        scene, keep = self.scene, set(_sample(len(timeline), max_frames))
        frames: list[Frame] = []
        shown: Looks = {}
        for index, event in enumerate(timeline):
            scene.apply(event)
            if index in keep:
                changes = {key: look for key in sorted(scene.dirty) if (look := scene.look(key)) != shown.get(key)}
                scene.dirty.clear()
                memory = scene.tapes.summary()
                last = frames[-1] if frames else None
                if last and not changes and (last.said, last.trace, last.memory) == (scene.said, scene.trace, memory):
                    continue                                    # the same as the frame before: no new frame
                shown.update(changes)
                frames.append(Frame(len(frames), index, scene.said, scene.trace, memory, changes, scene.current))
        return frames or [Frame(0, -1, scene.said, scene.trace, scene.tapes.summary())]     # nothing happened

    def _widest(self) -> dict[str, list[str]]:
        """Each element's longest label line by line, over every frame: its node fits them all."""
        widest: dict[str, list[str]] = {}
        for frame in self.frames:
            for key, (_, lines) in frame.changes.items():
                known = widest.setdefault(key, [])
                for k, line in enumerate(lines):
                    if k == len(known):
                        known.append(line)
                    elif len(line) > len(known[k]):
                        known[k] = line
        return widest

    def _fit_to_layout(self) -> None:
        """Keep the changes of elements the layout draws; those of folded ops become the folded node's count."""
        drawn, folded = set(self.layout.elements) | set(self.layout.clusters), set(self.layout.folded)
        state: dict[str, str] = {}
        before = None
        for frame in self.frames:
            for key in [k for k in frame.changes if k not in drawn]:
                look, _ = frame.changes.pop(key)
                if key in folded:
                    state[key] = look.split()[0]
            if not folded:
                continue
            inside = frame.current in folded
            if inside:
                frame.current = FOLDED          # the page scrolls to the step in progress: here, the folded node
            recorded = sum(look != "hidden" for look in state.values())
            done = sum(look == "done" for look in state.values())
            lines = self.layout.elements[FOLDED][:2] + [f"{recorded:,} of {len(folded):,} recorded, {done:,} differentiated"]
            look = "hidden" if not recorded else ("done" if done == len(folded) else "op")
            now = (look + (" current" if inside and look != "hidden" else ""), lines)
            if now != before:
                frame.changes[FOLDED] = before = now

    # -- frames -----------------------------------------------------------------
    def looks(self, index: int) -> Looks:
        """How every element looks at frame ``index`` (the changes of frames 0..index, applied in turn).

        >>> import minitape as tf
        >>> x = tf.constant(2.0)
        >>> with tf.events.timeline() as events, tf.GradientTape() as tape:
        ...     tape.watch(x)
        ...     y = tf.sin(x)
        >>> events.player(names=locals()).looks(-1)["v0"]
        ('user', ['x', 'float32[]', '2'])
        """
        index = range(len(self.frames))[index]
        looks: Looks = {}
        for frame in self.frames[:index + 1]:
            looks.update(frame.changes)
        return looks

    def frame_svg(self, index: int) -> str:
        """Frame ``index`` as SVG on its own (the one layout, restyled).

        >>> import minitape as tf
        >>> with tf.events.timeline() as events:
        ...     tf.print("hello")
        hello
        >>> events.player().frame_svg(0).startswith("<svg")
        True
        """
        return self.layout.svg_with(self.looks(index))

    # -- the self-contained page ---------------------------------------------
    def to_html(self) -> str:
        """The player as HTML with inline SVG and JavaScript: plays anywhere, no server, no network.

        Without JavaScript (an untrusted notebook) it shows the last frame.

        >>> import minitape as tf
        >>> with tf.events.timeline() as events:
        ...     tf.print("hello")
        hello
        >>> html = events.player().to_html()
        >>> html.startswith('<div id="minitape-player-'), "<script>" in html
        (True, True)
        """
        return page(self)

    def save(self, path: str | os.PathLike, size: tuple[int, int] = (1280, 720), frames: Any = None,
             fps: float | None = None) -> None:
        """Write the player as a web page (``.html``), or as an animated image for slides (``.gif``, ``.png``).

        An animated PNG keeps every colour; a GIF plays everywhere.  For the images: ``size`` is
        (width, height) in pixels, a 16:9 slide by default; ``frames`` chooses frames (a ``range``,
        a ``slice`` or a list of indices; all by default); ``fps`` is frames per second (about 1.4 by
        default; the last frame stays four times as long).  See ``minitape.viz.slides`` for the layout.

        >>> import minitape as tf, os, tempfile
        >>> with tf.events.timeline() as events:
        ...     tf.print("hello")
        hello
        >>> folder = tempfile.mkdtemp()
        >>> events.player().save(os.path.join(folder, "player.html"))
        >>> open(os.path.join(folder, "player.html"), encoding="utf-8").read().startswith("<!DOCTYPE html>")
        True
        >>> events.player().save(os.path.join(folder, "player.gif"))
        >>> open(os.path.join(folder, "player.gif"), "rb").read(6)
        b'GIF89a'
        >>> events.player().save(os.path.join(folder, "small.png"), size=(640, 360), frames=[-1], fps=2)
        """
        suffix = os.path.splitext(os.fspath(path))[1].lower()
        if suffix in (".html", ".htm"):
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(static_page(self))
        elif suffix in (".gif", ".png", ".apng"):
            from minitape.viz.animate import save_animation
            save_animation(self, path, "GIF" if suffix == ".gif" else "PNG", size, frames, fps)
        else:
            raise ValueError(f"Player.save: cannot write {suffix or 'a file without a suffix'!r}; "
                             f"name the file .html (a web page), .gif or .png (an animated image).")

    # -- live control in a kernel -------------------------------------------------
    def widget(self) -> Any:
        """ipywidgets for a live kernel: a play button and slider (linked in the browser) driving the frame shown.

        The page of ``to_html`` needs no kernel; this is for code that steers the player.

        >>> import minitape as tf
        >>> x = tf.constant(1.0)
        >>> with tf.events.timeline() as events, tf.GradientTape() as tape:
        ...     tape.watch(x)
        >>> box = events.player().widget()
        >>> [type(child).__name__ for child in box.children]
        ['HBox', 'HTML']
        """
        import ipywidgets as widgets

        last = len(self.frames)
        play = widgets.Play(value=last, min=1, max=last, interval=700, description="play")
        slider = widgets.IntSlider(value=last, min=1, max=last, readout=True, description="step",
                                   layout=widgets.Layout(flex="1"))
        view = widgets.HTML(frame_html(self, last - 1))         # opens on the whole program, as the page does
        widgets.jslink((play, "value"), (slider, "value"))
        slider.observe(lambda change: setattr(view, "value", frame_html(self, change["new"] - 1)), names="value")
        return widgets.VBox([widgets.HBox([play, slider]), view])

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        # Only the self-contained page: a widget view would hide it in every export (nbconvert,
        # the docs site), where no widget manager runs.
        return {"text/html": self.to_html(), "text/plain": repr(self)}

    def __repr__(self) -> str:
        return f"<minitape Player: {len(self.frames)} frames>"


def _sample(n: int, most: int) -> list[int]:
    """At most ``most`` indices spread over ``range(n)``, always including the last."""
    if n <= most:
        return list(range(n))
    step = n / most
    return sorted({min(n - 1, int(k * step)) for k in range(most)} | {n - 1})
