"""The player: a timeline, frame by frame, with the printed trace and the tape's memory beside it.

Every frame is drawn in advance, so playing needs no Python: in JupyterLab the
player is made of ipywidgets whose play button, slider and frame stack are
linked in the browser; the same frames also come as one self-contained HTML
page with a few lines of JavaScript (:meth:`Player.to_html`), which is what a
notebook exported to HTML shows, and what a teacher can put on a course page.

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
(16, 'gradient done: the tape let go of what it held')
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from minitape.core.events import Timeline
from minitape.viz.dot import at_least
from minitape.viz.render import escape_html, to_svg
from minitape.viz.scene import Scene, name_map

_player_ids = itertools.count()


@dataclass
class Frame:
    """One moment: the picture, what just happened, what was printed so far, and the tape's memory."""

    index: int
    svg: str
    said: str
    trace: str
    memory: dict[str, int]

    def html(self, total: int, peak: int) -> str:
        gauge = f'<meter min="0" max="{max(peak, 1)}" value="{self.memory["current"]}"></meter>'
        return (
            '<style>.minitape-frame svg{max-width:100%;height:auto}</style>'
            '<div class="minitape-frame" style="display:flex;gap:16px;align-items:flex-start">'
            f'<div style="flex:3;min-width:0">{self.svg}</div>'
            '<div style="flex:2;font:13px sans-serif">'
            f'<p><b>step {self.index + 1} of {total}</b>: <span class="minitape-said">{escape_html(self.said)}</span></p>'
            f'<p>tape holds {self.memory["current"]:,} bytes {gauge} (peak {self.memory["peak"]:,})</p>'
            f'<p>printed so far:</p><pre class="minitape-trace" style="background:#f6f6f6;padding:6px">'
            f'{escape_html(self.trace)}</pre></div></div>'
        )


class Player:
    """Play a :class:`~minitape.core.events.Timeline` frame by frame.

    Args:
        timeline: the events to play (``with tf.events.timeline() as events: ...``).
        names: ``locals()``, to label values with your variable names.
        max_frames: long timelines are sampled down to this many frames (always keeping the last).
        max_nodes: pictures with more ops than this fold the middle of long runs.

    >>> import minitape as tf
    >>> x = tf.constant(2.0)
    >>> with tf.events.timeline() as events:
    ...     with tf.GradientTape() as tape:
    ...         tape.watch(x)
    ...         y = x * x
    ...     dy_dx = tape.gradient(y, x)
    >>> player = tf.viz.Player(events, names=locals())
    >>> [frame.said for frame in player.frames]
    ['the tape watches x', 'recorded multiply, keeping input 0, input 1 (8 bytes)',
     'gradient: playing the tape backwards', 'backward through multiply: gradients flow to its inputs',
     'gradient done: the tape let go of what it held']
    """

    def __init__(self, timeline: Timeline, names: dict[str, Any] | None = None, max_frames: int = 120,
                 max_nodes: int = 200) -> None:
        at_least("Player", "max_frames", max_frames, 1)
        at_least("Player", "max_nodes", max_nodes, 2)
        self.frames = self._draw(timeline, names if names is not None else timeline.names, max_frames, max_nodes)
        self.peak = max((f.memory["peak"] for f in self.frames), default=0)
        self.dom_id = f"minitape-player-{next(_player_ids)}"

    @staticmethod
    def _draw(timeline: Timeline, names: dict[str, Any] | None, max_frames: int, max_nodes: int) -> list[Frame]:
        scene = Scene(names=name_map(names))
        keep = set(_sample(len(timeline), max_frames))
        frames: list[Frame] = []
        pictures: dict[str, str] = {}               # the same picture is laid out once

        def draw() -> Frame:
            dot = scene.to_dot(max_nodes)
            svg = pictures.get(dot) or pictures.setdefault(dot, to_svg(dot))
            return Frame(len(frames), svg, scene.said, scene.trace, dict(scene.memory))

        for index, event in enumerate(timeline):
            scene.apply(event)
            if index in keep:
                frames.append(draw())
        return frames or [draw()]                   # nothing happened: one frame, the empty picture

    # -- the self-contained page ---------------------------------------------
    def to_html(self) -> str:
        """The player as HTML with inline JavaScript: plays anywhere, no server, no network.

        >>> import minitape as tf
        >>> with tf.events.timeline() as events:
        ...     tf.print("hello")
        hello
        >>> html = events.player().to_html()
        >>> html.startswith('<div id="minitape-player-'), "<script>" in html
        (True, True)
        """
        pid = self.dom_id
        frames = "".join(
            f'<div class="minitape-slide" data-index="{f.index}" style="display:{"block" if f.index == 0 else "none"}">'
            f'{f.html(len(self.frames), self.peak)}</div>' for f in self.frames)
        last = len(self.frames) - 1
        return f"""<div id="{pid}" class="minitape-player">
<div style="display:flex;gap:8px;align-items:center;font:13px sans-serif">
<button class="minitape-play" title="play / pause">▶</button>
<button class="minitape-prev" title="step back">◀</button>
<button class="minitape-next" title="step forward">▶▶</button>
<input class="minitape-slider" type="range" min="0" max="{last}" value="0" style="flex:1">
<span class="minitape-position">1 / {last + 1}</span></div>
{frames}
<script>
(function () {{
  var root = document.getElementById("{pid}");
  var slides = root.querySelectorAll(".minitape-slide"), slider = root.querySelector(".minitape-slider");
  var play = root.querySelector(".minitape-play"), timer = null;
  function show(i) {{
    i = Math.max(0, Math.min({last}, i));
    slides.forEach(function (s) {{ s.style.display = (+s.dataset.index === i) ? "block" : "none"; }});
    slider.value = i; root.dataset.frame = i;
    root.querySelector(".minitape-position").textContent = (i + 1) + " / {last + 1}";
  }}
  function stop() {{ clearInterval(timer); timer = null; play.textContent = "▶"; }}
  play.onclick = function () {{
    if (timer) {{ stop(); return; }}
    if (+slider.value >= {last}) show(0);
    play.textContent = "⏸";
    timer = setInterval(function () {{ if (+slider.value >= {last}) stop(); else show(+slider.value + 1); }}, 700);
  }};
  root.querySelector(".minitape-prev").onclick = function () {{ stop(); show(+slider.value - 1); }};
  root.querySelector(".minitape-next").onclick = function () {{ stop(); show(+slider.value + 1); }};
  slider.oninput = function () {{ stop(); show(+slider.value); }};
  show(0);
}})();
</script></div>"""

    def save(self, path: str) -> None:
        """Write the player as a standalone web page.

        >>> import minitape as tf, os, tempfile
        >>> with tf.events.timeline() as events:
        ...     tf.print("hello")
        hello
        >>> path = os.path.join(tempfile.mkdtemp(), "player.html")
        >>> events.player().save(path)
        >>> open(path, encoding="utf-8").read().startswith("<!DOCTYPE html>")
        True
        """
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>minitape</title></head>"
                         f"<body>{self.to_html()}</body></html>")

    # -- the widgets -----------------------------------------------------------
    def widget(self) -> Any:
        """The player as ipywidgets: play and slider are linked in the browser to a stack of frames.

        >>> import minitape as tf
        >>> x = tf.constant(1.0)
        >>> with tf.events.timeline() as events, tf.GradientTape() as tape:
        ...     tape.watch(x)
        >>> box = events.player().widget()
        >>> [type(child).__name__ for child in box.children]
        ['HBox', 'Stack']
        """
        import ipywidgets as widgets

        last = len(self.frames) - 1
        play = widgets.Play(min=0, max=last, interval=700, description="play")
        slider = widgets.IntSlider(min=0, max=last, readout=True, layout=widgets.Layout(flex="1"))
        stack = widgets.Stack([widgets.HTML(f.html(len(self.frames), self.peak)) for f in self.frames], selected_index=0)
        back, forward = widgets.Button(description="◀", layout=widgets.Layout(width="3em")), \
            widgets.Button(description="▶▶", layout=widgets.Layout(width="3em"))
        back.on_click(lambda _: setattr(slider, "value", max(0, slider.value - 1)))
        forward.on_click(lambda _: setattr(slider, "value", min(last, slider.value + 1)))
        widgets.jslink((play, "value"), (slider, "value"))
        widgets.jslink((slider, "value"), (stack, "selected_index"))
        return widgets.VBox([widgets.HBox([play, back, forward, slider]), stack])

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        bundle = {"text/html": self.to_html(), "text/plain": f"<minitape Player: {len(self.frames)} frames>"}
        try:
            bundle.update(self.widget()._repr_mimebundle_(include=include, exclude=exclude) or {})
        except ImportError:
            pass
        bundle["text/html"] = self.to_html()      # what a page without the widget manager shows
        return bundle


def _sample(n: int, most: int) -> list[int]:
    """At most ``most`` indices spread over ``range(n)``, always including the last."""
    if n <= most:
        return list(range(n))
    step = n / most
    return sorted({min(n - 1, int(k * step)) for k in range(most)} | {n - 1})
