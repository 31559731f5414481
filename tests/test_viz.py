"""Events, pictures and the player: exact event sequences, DOT snapshots, safety, scale."""
import json
import os
import re
from pathlib import Path

import pytest

import minitape as tf

SNAPSHOTS = Path(__file__).parent / "snapshots"


def kinds(events):
    return [e.kind for e in events]


def test_seed_function_event_sequence(capsys, seed_timeline):
    events = seed_timeline()
    forward = ["checkpoint_enter", "print", "op", "checkpoint_leave"] * 4
    recompute = ["recompute_start", "watch", "watch", "print", "op", "recompute_end",
                 "gradient_start", "backward_step", "gradient_end", "backward_step"]
    assert kinds(events) == forward + ["gradient_start"] + recompute * 4 + ["gradient_end"]
    assert [e.data["text"] for e in events if e.kind == "print"] == ["running\n"] * 8


def test_seed_keras_event_sequence(capsys):
    model = tf.keras.Sequential([tf.keras.layers.Lambda(lambda x: (tf.print("running"), x)[1]),
                                 tf.keras.layers.Dense(2)])
    g = tf.recompute_grad(model)
    with tf.events.timeline() as events:
        with tf.GradientTape(persistent=True) as tape:
            r = tf.constant([[1, 2]])
            for _ in range(4):
                r = g(r)
        tape.gradient(r, model.variables)
    assert kinds(events).count("checkpoint_enter") == 4 and kinds(events).count("recompute_start") == 4
    # each recomputation prints inside its own start/end
    inside = []
    for event in events:
        if event.kind == "recompute_start":
            inside.append([])
        elif inside and event.kind == "print" and len(inside[-1]) == 0:
            inside[-1].append(event)
    assert [len(group) for group in inside] == [1, 1, 1, 1]


def test_plain_tape_records_without_prints_in_backward(capsys):
    x = tf.constant(2.0)
    with tf.events.timeline() as events:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x * x
        tape.gradient(y, x)
    assert kinds(events) == ["watch", "op", "gradient_start", "backward_step", "gradient_end"]
    assert events[1].data["memory"] == {"current": 0, "peak": 0}     # x is the user's; `*` keeps only x


def check_snapshot(name, text):
    """Compare with the committed snapshot.  MINITAPE_WRITE_SNAPSHOTS=1 writes it instead (review, then commit)."""
    path = SNAPSHOTS / f"{name}.dot"
    if os.environ.get("MINITAPE_WRITE_SNAPSHOTS"):
        path.write_text(text)
    assert path.exists(), f"no snapshot {path.name}: write it with MINITAPE_WRITE_SNAPSHOTS=1, review it, commit it"
    assert text == path.read_text()


def test_dot_snapshot_small_tape():
    x = tf.constant([[1.0, 2.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        h = tf.tanh(x @ tf.ones((2, 2)) + 1.0)
        loss = tf.reduce_sum(h)
    check_snapshot("small_tape", tape.picture(names=locals()).to_dot())


def test_dot_snapshot_checkpointed_tape():
    w = tf.Variable(0.5)
    block = tf.recompute_grad(lambda x: tf.sin(x * w))
    with tf.GradientTape() as tape:
        x = tf.constant(1.0)
        y = block(block(x))
    check_snapshot("checkpointed_tape", tape.picture(names=locals()).to_dot())


def test_dot_snapshot_mid_backward_frame(capsys, seed_timeline):
    events = seed_timeline()
    middle = [i for i, e in enumerate(events) if e.kind == "recompute_end"][1] + 3
    scene = events.scene(middle)
    assert scene.phase == "backward" and "backward through multiply" in scene.said
    check_snapshot("mid_backward", scene.to_dot())


def test_dot_is_deterministic(capsys, seed_timeline):
    assert seed_timeline().scene().to_dot() == seed_timeline().scene().to_dot()


HOSTILE = '<script>alert("x")</script> {a|b} \\N "quoted"'


def test_hostile_names_and_prints_stay_text(capsys):
    x = tf.constant(3.0)
    with tf.events.timeline(names={HOSTILE: x}) as events:
        with tf.GradientTape() as tape:
            tape.watch(x)
            tf.print(HOSTILE)
            y = x * x
        tape.gradient(y, x)
    dot = events.scene().to_dot()
    assert '\\"quoted\\"' in dot and "\\\\N" in dot           # quotes and backslashes escaped in DOT
    svg = events.scene().to_svg()                              # Graphviz accepts it...
    assert "<script>" not in svg and "&lt;script&gt;" in svg   # ...and the SVG shows it as text
    page = events.player().to_html()
    assert "<script>alert" not in page and "&lt;script&gt;alert(&quot;x&quot;)" in page


def test_a_lone_surrogate_in_a_name_is_shown_on_the_page_as_in_the_svg(tmp_path, capsys):
    x, v = tf.constant(3.0), tf.Variable(2.0, name="v\udc80")
    with tf.events.timeline(names={"x\ud800": x}) as events:
        with tf.GradientTape() as tape:
            tape.watch(x)
            tf.print("smile \U0001F600")
            y = x * v
        tape.gradient(y, x)
    player = events.player()
    page = player.to_html()
    page.encode("utf-8")                                       # no UnicodeEncodeError
    player.save(tmp_path / "tour.html")
    data = json.loads(re.search(r"var data = (\{.*?\}), frames", page).group(1))
    assert "x\\ud800" in data["frames"][-1]["s"] or any("x\\ud800" in f["s"] for f in data["frames"])
    assert "x\\ud800" in events.scene().to_svg()            # the same text as the picture's
    # The trace is cut where JavaScript counts (an emoji is two UTF-16 units).
    assert data["trace"][:data["frames"][-1]["t"]] == "smile \U0001F600\n"
    assert data["frames"][-1]["t"] == len("smile \U0001F600\n") + 1


def test_long_tapes_fold_into_a_readable_picture():
    x = tf.constant(0.5)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x
        for _ in range(2500):
            y = tf.sin(y) * 0.9 + 0.01
    assert len(tape.entries()) > 7000
    scene = tape.picture()
    dot = scene.to_dot(max_nodes=200)
    op_nodes = [line for line in dot.splitlines() if line.startswith("  o") and '[id="o' in line]
    assert len(op_nodes) == 200 and "more entries" in dot
    assert "multiply ×" in dot


def test_player_frames_and_live_widgets(capsys, seed_timeline):
    events = seed_timeline()
    player = events.player(max_frames=30)
    assert 1 < len(player.frames) <= 31
    assert player.frames[-1].trace == "running\n" * 8
    controls, view = player.widget().children
    play, slider = controls.children
    assert type(play).__name__ == "Play" and (slider.min, slider.max) == (1, len(player.frames))
    slider.value = 3                                      # in a kernel, the slider picks the frame shown
    assert f"step 3 of {len(player.frames)}" in view.value and player.frames[2].said in view.value


def test_notebooks_get_the_self_contained_page_and_no_widget_view(capsys, seed_timeline):
    # nbconvert and mkdocs-jupyter show a widget view instead of text/html when both are present, and
    # without a widget manager the view is blank: the bundle holds the page alone.
    player = seed_timeline().player()
    bundle = player._repr_mimebundle_()
    assert set(bundle) == {"text/html", "text/plain"}
    page = bundle["text/html"]
    assert page.startswith(f'<div id="{player.dom_id}"') and "<svg" in page and "<script>" in page
    assert page.count("your value (an input or a variable)") == 1 and "legend" not in player.layout.dot
    assert "http://" not in page.replace("http://www.w3.org/", "") and "https://" not in page   # nothing to fetch
    assert "<script src" not in page and "<link" not in page


def test_frames_only_restyle_one_layout(capsys, seed_timeline):
    player = seed_timeline().player()
    svgs = [player.frame_svg(i) for i in range(len(player.frames))]

    def geometry(svg):            # the SVG with what a frame may change (classes and texts) taken out
        return re.sub(r'class="[^"]*"|<text([^>]*)>[^<]*</text>', r"\1", svg)

    assert len({geometry(svg) for svg in svgs}) == 1                       # no node moves
    assert all(a != b for a, b in zip(svgs, svgs[1:])) or all(
        (f.said, f.trace, f.memory) != (g.said, g.trace, g.memory) for f, g in zip(player.frames, player.frames[1:]))
    states = [(svg, f.said, f.trace, str(f.memory)) for svg, f in zip(svgs, player.frames)]
    assert all(a != b for a, b in zip(states, states[1:]))                 # no two frames in a row are the same


def test_memory_shows_the_outer_tape_during_recomputation(capsys, seed_timeline):
    player = seed_timeline().player()
    recomputing = [f for f in player.frames if f.said.startswith("recomputed multiply")]
    assert len(recomputing) == 4
    for frame in recomputing:        # the outer tape still holds the four checkpoints' inputs
        rows = {row["tape"]: row["current"] for row in frame.memory["tapes"]}
        assert rows == {"tape": 16, "local tape (my_function)": 0} and frame.memory["peak"] == 16


def test_checkpointing_holds_less_and_recomputation_adds_one_segment(capsys):
    blocks = [lambda x: tf.tanh(tf.sin(x) * 2.0) for _ in range(4)]     # one segment keeps three arrays
    x = tf.ones((1000,))

    def held(segments):
        with tf.events.timeline() as events:
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = tf.checkpoint_sequential(blocks, segments, x) if segments else blocks[3](blocks[2](blocks[1](blocks[0](x))))
            tape.gradient(y, x)
        return events.player().frames

    plain, checkpointed = held(0), held(4)
    plain_peak = max(f.memory["peak"] for f in plain)
    outer = max(row["current"] for f in checkpointed for row in f.memory["tapes"] if not row["local"])
    local = max(row["current"] for f in checkpointed for row in f.memory["tapes"] if row["local"])
    assert outer == 3 * 4000 and plain_peak == 4 * local          # the segments' inputs (x is yours) vs. everything
    assert max(f.memory["peak"] for f in checkpointed) == outer + local < plain_peak


def test_a_long_timeline_folds_and_keeps_its_labels_readable(capsys):
    x = tf.constant(0.5)
    with tf.events.timeline() as events:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x
            for _ in range(700):
                y = tf.sin(y) * 0.9 + 0.01
        tape.gradient(y, x)
    player = events.player(max_nodes=60)
    assert len(player.layout.shown_ops) == 60 and len(player.layout.folded) == 2100 - 60
    counts = [lines[-1] for f in player.frames for key, (_, lines) in f.changes.items() if key == "folded"]
    assert counts[-1] == "2,040 of 2,040 recorded, 2,040 differentiated"
    assert 'font-size="10.00"' in player.layout.svg and "SMALLEST_FIT" not in player.to_html()
    assert tf.viz.page.SMALLEST_FIT >= 0.75                # fit never draws 10 pt labels below 10 px


def test_the_player_saves_a_page_and_animated_images(capsys, seed_timeline, tmp_path):
    from PIL import Image

    player = seed_timeline().player()
    player.save(tmp_path / "tour.html")
    assert (tmp_path / "tour.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    for name in ("tour.gif", "tour.png"):
        player.save(tmp_path / name)
        with Image.open(tmp_path / name) as image:
            assert image.n_frames == len(player.frames) + 1 and image.is_animated    # first, the whole run
    with pytest.raises(ValueError, match=r"Player.save: cannot write '.svg'; name the file .html .*\.gif or \.png"):
        player.save(tmp_path / "tour.svg")


def test_every_event_carries_the_tapes_memory(capsys, seed_timeline):
    events = seed_timeline()
    assert all("memory" in e.data for e in events)
    held = [e.data["memory"]["current"] for e in events if e.kind == "op" and e.data["tape"] is events[2].data["tape"]]
    assert held == sorted(held) and held[-1] > 0           # recording only adds


def test_tensors_and_tapes_display_themselves():
    v = tf.Variable([1.0, 2.0], name="w")
    assert "w:0" in v._repr_svg_() and "<svg" in tf.constant(3.0)._repr_svg_()
    with tf.GradientTape() as tape:
        tape.watch(v)
        y = v * v
    assert "multiply" in tape._repr_svg_()
