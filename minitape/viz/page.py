"""The player's page: one ``<div>`` of HTML, the laid-out SVG, its styles and a little JavaScript.

Nothing is fetched: the styles are scoped to the player's element, the frames travel
as data inside its ``<script>``, and the SVG is restyled in place.  Without
JavaScript (an untrusted notebook) the page shows the last frame; with it, it opens there too, on
the whole program, and ▶ plays it from step 1.

What the page offers, for people and for tests that drive it: the root ``<div>``
(``id=player.dom_id``, ``data-frame`` = the frame shown), buttons ``.minitape-play``,
``.minitape-prev`` and ``.minitape-next``, the slider ``.minitape-slider`` (its value is the
step number, as in "step 3 of 40"), the speed ``.minitape-speed``, zoom buttons, and the
texts ``.minitape-said`` (what just happened), ``.minitape-memory`` and ``.minitape-trace``
(what was printed so far).

>>> import minitape as tf
>>> with tf.events.timeline() as events:
...     tf.print("hi")
hi
>>> html = tf.viz.page.page(events.player())
>>> all(name in html for name in ["minitape-play", "minitape-slider", "minitape-said", "minitape-trace"])
True
"""
from __future__ import annotations

import json
from typing import Any

from minitape.viz.dot import LEGEND, LOOKS, UNNAMED, VALUE_LOOKS
from minitape.viz.layout import classes
from minitape.viz.plot import sparkline
from minitape.viz.render import escape_html, visible

#: The smallest zoom "fit" chooses: Graphviz writes labels at 10 pt, so text stays at least 10 px high.
SMALLEST_FIT = 0.75


def page(player: Any) -> str:
    """The player as one self-contained ``<div>`` (see the module's docstring)."""
    pid, frames, last = player.dom_id, player.frames, len(player.frames) - 1
    scale = _scale(player)
    memories: list[str] = []
    # The script shows text as the SVG does: what a page cannot carry (a lone surrogate) written visibly.
    data = {"frames": [], "edges": [list(edge) for edge in player.layout.edges], "trace": visible(frames[-1].trace),
            "smallest": SMALLEST_FIT}
    for frame in frames:
        html = memory_html(frame.memory, scale)
        if html not in memories:
            memories.append(html)
        changes = {key: [classes(look), [visible(line) for line in lines]] for key, (look, lines) in frame.changes.items()}
        data["frames"].append({"c": changes, "s": visible(frame.said), "t": _script_length(visible(frame.trace)),
                               "m": memories.index(html), "k": frame.current})
    data["memories"] = memories
    script = _SCRIPT.replace("__PID__", pid).replace("__DATA__", _json(data))
    return (f'<div id="{pid}" class="minitape-player" data-frame="{last}" tabindex="0">'
            f"<style>{css(pid)}</style>"
            '<div class="minitape-controls">'
            '<button class="minitape-play" title="play / pause (space)">▶</button>'
            '<button class="minitape-prev" title="step back (←)">◀</button>'
            '<button class="minitape-next" title="step forward (→)">▶▶</button>'
            f'<input class="minitape-slider" type="range" min="1" max="{last + 1}" value="{last + 1}" '
            'aria-label="step">'
            f'<span class="minitape-position">step {last + 1} of {last + 1}</span>'
            '<select class="minitape-speed" title="speed"><option value="0.5">½×</option>'
            '<option value="1" selected>1×</option><option value="2">2×</option><option value="4">4×</option></select>'
            '<button class="minitape-zoom-out" title="zoom out">−</button>'
            '<button class="minitape-fit" title="fit the width">fit</button>'
            '<button class="minitape-zoom-in" title="zoom in">+</button></div>'
            f'<div class="minitape-caption"><span class="minitape-said">{escape_html(frames[-1].said)}</span></div>'
            '<div class="minitape-body">'
            f'<div class="minitape-picture">{player.layout.svg_with(player.looks(last))}</div>'
            '<div class="minitape-side">'
            f'<div class="minitape-memory">{memories[-1] if memories else ""}</div>'
            f'<div class="minitape-over-time">{memory_sparkline(player)}</div>'
            f'<div class="minitape-legend">{legend_html()}</div>'
            '<div class="minitape-heading">printed so far</div>'
            f'<pre class="minitape-trace">{escape_html(frames[-1].trace)}</pre>'
            f"</div></div><script>{script}</script></div>")


def static_page(player: Any) -> str:
    """A whole HTML document holding the player (what ``player.save("tour.html")`` writes)."""
    return ("<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>minitape player</title></head>"
            f"<body style='margin:16px'>{player.to_html()}</body></html>\n")


def frame_html(player: Any, index: int) -> str:
    """One frame as HTML without script: picture, what happened, memory and trace (the widget shows this)."""
    frame = player.frames[index]
    pid = player.dom_id + "-live"
    return (f'<div id="{pid}" class="minitape-player"><style>{css(pid)}</style>'
            f'<div class="minitape-caption"><b>step {index + 1} of {len(player.frames)}</b>: '
            f'<span class="minitape-said">{escape_html(frame.said)}</span></div><div class="minitape-body">'
            f'<div class="minitape-picture">{player.frame_svg(index)}</div><div class="minitape-side">'
            f'<div class="minitape-memory">{memory_html(frame.memory, _scale(player))}</div>'
            f'<div class="minitape-legend">{legend_html()}</div><div class="minitape-heading">printed so far</div>'
            f'<pre class="minitape-trace">{escape_html(frame.trace)}</pre></div></div></div>')


def memory_html(memory: dict[str, Any], scale: int) -> str:
    """Each tape's bytes held as a bar, then their sum with a mark at its peak so far.

    >>> from minitape.viz.page import memory_html
    >>> html = memory_html({"tapes": [{"tape": "tape", "current": 8, "peak": 8, "local": False}],
    ...                     "current": 8, "peak": 16}, 16)
    >>> "8 bytes" in html, "peak 16 bytes" in html
    (True, True)
    """
    def bar(current: int, peak: int | None = None) -> str:
        fill = f'<span class="mt-fill" style="width:{100 * current / max(scale, 1):.1f}%"></span>'
        mark = "" if peak is None else f'<span class="mt-peak" style="left:{100 * peak / max(scale, 1):.1f}%"></span>'
        return f'<span class="mt-bar">{fill}{mark}</span>'

    rows = ['<div class="minitape-heading">memory held for the backward pass</div>']
    for row in memory["tapes"]:
        rows.append(f'<div class="mt-row{" mt-local" if row["local"] else ""}"><span class="mt-name">'
                    f'{escape_html(row["tape"])}</span>{bar(row["current"])}<span class="mt-num">{row["current"]:,} bytes'
                    f'</span><span class="mt-own">its peak {row["peak"]:,}</span></div>')
    rows.append(f'<div class="mt-row mt-total"><span class="mt-name">together</span>{bar(memory["current"], memory["peak"])}'
                f'<span class="mt-num">{memory["current"]:,} bytes</span>'
                f'<span class="mt-own">peak {memory["peak"]:,} bytes</span></div>')
    return "".join(rows)


def memory_sparkline(player: Any) -> str:
    """The tapes' bytes together at every frame, small, with a cursor at the frame shown (the script moves it)."""
    return sparkline([frame.memory["current"] for frame in player.frames], "held over time, together")


def legend_html() -> str:
    """What each colour and border means: once, beside the picture."""
    items = []
    for name in LEGEND:
        look = LOOKS[name]
        fill, line = look.get("fill", "none"), look.get("line", "#333")
        dash = ' stroke-dasharray="4,2"' if look.get("dashed") else ""
        width = look.get("width", 1)
        shape = (f'<ellipse cx="14" cy="8" rx="12" ry="6.5" fill="{fill}" stroke="{line}" stroke-width="{width}"{dash}/>'
                 if name in VALUE_LOOKS else
                 f'<rect x="2" y="2" width="24" height="12" rx="3" fill="{fill}" stroke="{line}" stroke-width="{width}"{dash}/>')
        items.append(f'<div class="mt-legend-item"><svg width="28" height="16" aria-hidden="true">{shape}</svg>'
                     f'<span>{escape_html(look["meaning"])}</span></div>')
    items.append(f'<div class="mt-legend-item mt-unnamed"><span>{escape_html(UNNAMED)}</span></div>')
    return "".join(items)


def css(pid: str) -> str:
    """The page's styles, every rule scoped to the player's element."""
    p = f"#{pid}"
    rules = [f"{p}{{font:13px/1.4 system-ui,-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;color:#222;"
             "border:1px solid #ddd;border-radius:6px;padding:8px;margin:4px 0;background:#fff;outline:none}",
             f"{p} .minitape-controls{{display:flex;flex-wrap:wrap;gap:6px;align-items:center}}",
             f"{p} button,{p} select{{font:inherit;font-size:14px;min-width:2.2em;padding:2px 8px;white-space:nowrap;"
             "cursor:pointer;border:1px solid #bbb;border-radius:4px;background:#f7f7f7;color:#222}",
             f"{p} .minitape-slider{{flex:1 1 160px;min-width:120px}}",
             f"{p} .minitape-position{{min-width:8.5em;font-variant-numeric:tabular-nums}}",
             f"{p} .minitape-caption{{margin:8px 0;min-height:2.8em;font-size:14px}}",
             # Picture and side by side down to a docs site's narrow column (about 700 px); narrower, stacked:
             # the picture no taller than half the window, and the trace first below it, both seen together.
             f"{p}{{container-type:inline-size}}",
             f"{p} .minitape-body{{display:grid;grid-template-columns:minmax(0,1fr) minmax(230px,36%);gap:12px;"
             "align-items:start}",
             f"{p} .minitape-picture{{min-width:0;max-height:80vh;overflow:auto;border:1px solid #eee;"
             "border-radius:4px;cursor:grab}",
             f"{p} .minitape-picture svg{{display:block;margin:0 auto;max-width:none;height:auto}}",
             f"{p} .minitape-side{{min-width:0}}",
             f"@container (max-width: 560px){{{p} .minitape-body{{grid-template-columns:minmax(0,1fr)}}"
             f"{p} .minitape-picture{{max-height:50vh}}{p} .minitape-side{{display:flex;flex-direction:column}}"
             f"{p} .minitape-side>.minitape-heading,{p} .minitape-side>.minitape-trace{{order:-1}}}}",
             f"{p} .minitape-heading{{font-weight:600;margin:6px 0 4px}}",
             f"{p} .minitape-trace{{background:#f6f6f6;padding:6px;max-height:12em;overflow:auto;margin:0;"
             "white-space:pre-wrap}",
             f"{p} .minitape-over-time svg{{max-width:100%;height:auto}}",
             f"{p} .mt-row{{display:grid;grid-template-columns:minmax(4.5em,9.5em) minmax(48px,1fr) max-content;"
             "column-gap:6px;align-items:center;"
             "margin:2px 0}",
             f"{p} .mt-name{{overflow-wrap:anywhere;line-height:1.2}}",
             f"{p} .mt-own{{grid-column:2/4;color:#777;font-size:11px;margin-top:-2px}}",
             f"{p} .mt-bar{{position:relative;height:10px;background:#f0f0f0;border-radius:3px}}",
             f"{p} .mt-fill{{position:absolute;left:0;top:0;bottom:0;background:#6baed6;border-radius:3px}}",
             f"{p} .mt-local .mt-fill{{background:#fd8d3c}}",
             f"{p} .mt-total .mt-fill{{background:#756bb1}}",
             f"{p} .mt-peak{{position:absolute;top:-3px;bottom:-3px;width:2px;background:#d62728}}",
             f"{p} .mt-num{{text-align:right;font-variant-numeric:tabular-nums}}",
             f"{p} .mt-legend-item{{display:flex;gap:6px;align-items:center;font-size:12px}}",
             f"{p} .mt-hidden{{visibility:hidden}}",
             f"{p} g.node>*{{transition:fill .2s,stroke .2s}}"]
    for name, look in LOOKS.items():
        shape = ([f"fill:{look['fill']}"] if "fill" in look else []) + \
            ([f"stroke:{look['line']}"] if "line" in look else []) + \
            ([f"stroke-width:{look['width']}px"] if "width" in look else []) + \
            (["stroke-dasharray:5,2"] if look.get("dashed") else [])
        rules.append(",".join(f"{p} g.mt-{name}>{part}" for part in ("ellipse", "polygon", "path")) +
                     "{" + ";".join(shape) + "}")
        if "text" in look:
            rules.append(f"{p} g.mt-{name}>text{{fill:{look['text']}}}")
    return "\n".join(rules)


def _scale(player: Any) -> int:
    """The bytes a full memory bar stands for: the most any tape, or all together, ever held."""
    rows = [row["peak"] for frame in player.frames for row in frame.memory["tapes"]]
    return max([player.peak, *rows, 1])


def _script_length(text: str) -> int:
    """The length of ``text`` as JavaScript counts it (UTF-16 code units: an emoji counts two).

    >>> from minitape.viz.page import _script_length
    >>> _script_length("ab"), _script_length("a\U0001F600")
    (2, 3)
    """
    return len(text.encode("utf-16-le")) // 2


def _json(data: Any) -> str:
    """JSON that can sit inside a ``<script>``: no ``</script>`` can close it early."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


_SCRIPT = """
(function () {
  var script = document.currentScript;
  var root = (script && script.closest && script.closest(".minitape-player")) || document.getElementById("__PID__");
  if (!root || root.dataset.ready) return;
  root.dataset.ready = "1";
  var data = __DATA__, frames = data.frames, n = frames.length;
  var $ = function (name) { return root.querySelector(name); };
  var picture = $(".minitape-picture"), svg = picture.querySelector("svg"), slider = $(".minitape-slider");
  var play = $(".minitape-play"), speed = $(".minitape-speed"), timer = null, shown = -1, zoom = 1;
  var elements = {}, kinds = {};
  svg.querySelectorAll("g.node, g.edge, g.cluster").forEach(function (g) {
    elements[g.id] = g; kinds[g.id] = g.getAttribute("class").split(" ")[0];
  });
  var states = [], state = {};
  frames.forEach(function (frame) {
    state = Object.assign({}, state, frame.c); states.push(state);
  });
  var displayed = Object.assign({}, states[n - 1]);
  function lookOf(looks, key) { var look = looks[key]; return look ? look[0] : "mt-hidden"; }
  function restyle(key, look) {
    var g = elements[key];
    if (!g) return;
    g.setAttribute("class", kinds[key] + " " + look[0]);
    if (kinds[key] === "node") {
      var texts = g.querySelectorAll("text");
      for (var k = 0; k < texts.length; k++) texts[k].textContent = look[1][k] || "";
    }
  }
  function show(i, follow) {
    i = Math.max(0, Math.min(n - 1, i));
    var target = states[i], frame = frames[i];
    for (var key in elements) {
      if (kinds[key] === "edge" || target[key] === displayed[key]) continue;
      restyle(key, target[key] || ["mt-hidden", []]);
      displayed[key] = target[key];
    }
    data.edges.forEach(function (edge) {
      var hidden = lookOf(target, edge[1]) === "mt-hidden" || lookOf(target, edge[2]) === "mt-hidden";
      if (elements[edge[0]]) elements[edge[0]].setAttribute("class", "edge" + (hidden ? " mt-hidden" : ""));
    });
    $(".minitape-said").textContent = frame.s;
    $(".minitape-memory").innerHTML = data.memories[frame.m];
    var cursor = $(".mt-cursor");
    if (cursor) {
      var x = cursor.dataset.left * 1 + cursor.dataset.step * (i + 0.5);
      cursor.setAttribute("x1", x); cursor.setAttribute("x2", x);
    }
    var trace = $(".minitape-trace");
    trace.textContent = data.trace.slice(0, frame.t);
    trace.scrollTop = trace.scrollHeight;
    slider.value = i + 1;
    $(".minitape-position").textContent = "step " + (i + 1) + " of " + n;
    root.dataset.frame = i;
    shown = i;
    if (follow && frame.k && elements[frame.k]) reveal(elements[frame.k]);
    // The last frame is the whole program: seen from its start, not from wherever following the steps left it.
    else if (follow && i === n - 1) { picture.scrollLeft = 0; picture.scrollTop = 0; }
  }
  function reveal(g) {
    var box = g.getBoundingClientRect(), view = picture.getBoundingClientRect();
    if (box.top < view.top || box.bottom > view.bottom)
      picture.scrollTop += (box.top + box.bottom) / 2 - (view.top + view.bottom) / 2;
    if (box.left < view.left || box.right > view.right)
      picture.scrollLeft += (box.left + box.right) / 2 - (view.left + view.right) / 2;
  }
  function stop() { clearInterval(timer); timer = null; play.textContent = "▶"; }
  function start() {
    if (shown >= n - 1) show(0, true);
    play.textContent = "▮▮";
    timer = setInterval(function () { if (shown >= n - 1) stop(); else show(shown + 1, true); },
                        700 / parseFloat(speed.value));
  }
  play.onclick = function () { if (timer) stop(); else start(); };
  $(".minitape-prev").onclick = function () { stop(); show(shown - 1, true); };
  $(".minitape-next").onclick = function () { stop(); show(shown + 1, true); };
  slider.oninput = function () { stop(); show(parseInt(slider.value, 10) - 1, true); };
  speed.onchange = function () { if (timer) { stop(); start(); } };
  root.onkeydown = function (event) {
    if (event.target.tagName === "INPUT" || event.target.tagName === "SELECT") return;
    if (event.key === "ArrowRight") { stop(); show(shown + 1, true); }
    else if (event.key === "ArrowLeft") { stop(); show(shown - 1, true); }
    else if (event.key === " ") { play.onclick(); }
    else return;
    event.preventDefault();
  };
  var width = parseFloat(svg.getAttribute("width")) * 4 / 3, height = parseFloat(svg.getAttribute("height")) * 4 / 3;
  function scaleTo(z) {
    zoom = Math.max(0.25, Math.min(4, z));
    svg.setAttribute("width", (width * zoom).toFixed(1) + "px");
    svg.setAttribute("height", (height * zoom).toFixed(1) + "px");
  }
  function fit() {
    var room = picture.clientWidth - 4;
    scaleTo(room > 0 ? Math.max(data.smallest, Math.min(1, room / width)) : 1);
  }
  $(".minitape-zoom-in").onclick = function () { scaleTo(zoom * 1.25); };
  $(".minitape-zoom-out").onclick = function () { scaleTo(zoom / 1.25); };
  $(".minitape-fit").onclick = fit;
  var drag = null;
  picture.onmousedown = function (event) {
    drag = {x: event.clientX, y: event.clientY, left: picture.scrollLeft, top: picture.scrollTop};
    event.preventDefault();
  };
  window.addEventListener("mousemove", function (event) {
    if (!drag) return;
    picture.scrollLeft = drag.left - (event.clientX - drag.x);
    picture.scrollTop = drag.top - (event.clientY - drag.y);
  });
  window.addEventListener("mouseup", function () { drag = null; });
  fit();
  show(n - 1, false);     // open on the whole program; play starts again from step 1
})();
"""
