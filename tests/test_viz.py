"""Events, pictures and the player: exact event sequences, DOT snapshots, safety, scale."""
import os
from pathlib import Path

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
    op_nodes = [line for line in dot.splitlines() if line.startswith("  o") and "[label=" in line]
    assert len(op_nodes) == 200 and "more entries" in dot
    assert "multiply ×" in dot


def test_player_frames_and_widgets(capsys, seed_timeline):
    events = seed_timeline()
    player = events.player(max_frames=30)
    assert 1 < len(player.frames) <= 31
    assert player.frames[-1].trace == "running\n" * 8
    box = player.widget()
    controls, stack = box.children
    assert type(controls.children[0]).__name__ == "Play" and len(stack.children) == len(player.frames)
    bundle = player._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle and "minitape-player" in bundle["text/html"]


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
