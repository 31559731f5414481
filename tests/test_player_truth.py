"""The player tells the truth (issue [player]): every gradient and every byte count a frame shows is
what the public API returns at that moment.

Hypothesis writes small programs: plain ops, ``recompute_grad`` (nested too), ``checkpoint_sequential``,
``checkpoint_chain`` and ``custom_gradient`` steps, under a persistent or non-persistent tape, with or
without a second tape nested inside it.  Each program runs twice:

* checkpointed, inside a timeline, with a listener asking every tape met so far for its
  ``memory_info()`` at every event; the player is built from that timeline;
* plainly (``recompute_grad`` and the schedules replaced by calling the functions), with persistent
  tapes, so that ``tape.gradient`` can be asked about every value the program made.

Every value is made at a *site* of the program, and a recomputation makes it again at the same site:
the gradient a frame writes on a value must be the plain run's ``tape.gradient`` of the gradient pass
in progress with respect to that site's value, and the final frame must show every one of them.
"""
import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import minitape as tf
from minitape.dialect.printing import format_array
from minitape.viz.dot import SMALL

OPS = {
    "sin": lambda x, w: tf.sin(x),
    "scale": lambda x, w: x * w,
    "tanh": lambda x, w: tf.tanh(x + w),
    "square": lambda x, w: x * x * 0.5,
}
names = st.sampled_from(sorted(OPS))
blocks = st.lists(names, min_size=1, max_size=3)
steps = st.one_of(
    st.tuples(st.just("op"), names),
    st.tuples(st.just("recompute"), blocks, st.booleans()),          # (ops, nested: a checkpoint inside)
    st.tuples(st.just("sequential"), st.lists(names, min_size=2, max_size=4), st.integers(1, 2)),
    st.tuples(st.just("chain"), st.lists(names, min_size=2, max_size=4), st.integers(1, 3)),
    st.tuples(st.just("custom"),),
)
programs = st.fixed_dictionaries({"steps": st.lists(steps, min_size=1, max_size=4), "persistent": st.booleans(),
                                  "nested": st.booleans()})


class Sites(dict):
    """Tensor id -> the site of the program that made it (every run of that site)."""

    def __init__(self):
        super().__init__()
        self.tensors = {}                  # site -> the tensor it made last (the plain run makes each once)
        self.kept = []                     # every tensor, so that no id is reused

    def __call__(self, site, tensor):
        self[tensor._id] = site
        self.tensors[site] = tensor
        self.kept.append(tensor)
        return tensor


def run(program, checkpointing, sites):
    """Run ``program``; returns its user tapes, and each gradient pass's (tape, target, gradients of x0 and w)."""
    w = sites("w", tf.Variable([0.7, -0.4]))
    x0 = sites("x0", tf.constant([0.3, -1.2]))

    def op(name, site):
        return lambda x: sites(site, OPS[name](x, w))

    @tf.custom_gradient
    def custom_sin(x):
        def grad(dy):
            return dy * tf.cos(x)
        return tf.sin(x), grad

    def checkpointed(f):
        return tf.recompute_grad(f) if checkpointing else f

    with tf.GradientTape(persistent=program["persistent"] or not checkpointing) as tape:
        tape.watch(x0)
        inner = tf.GradientTape(persistent=not checkpointing)
        if program["nested"]:
            inner.__enter__()
            inner.watch(x0)
        h = x0
        for k, step in enumerate(program["steps"]):
            site = f"s{k}"
            if step[0] == "op":
                h = op(step[1], site)(h)
            elif step[0] == "recompute":
                fs = [op(name, f"{site}.{j}") for j, name in enumerate(step[1])]
                if step[2]:                               # the block calls a checkpointed block of its own
                    fs.insert(1, lambda x, f=op("sin", f"{site}.in"), s=f"{site}.inner": sites(s, checkpointed(f)(x)))
                h = sites(site, checkpointed(tf.checkpointing.schedules.in_order(fs))(h))
            elif step[0] in ("sequential", "chain"):
                fs = [op(name, f"{site}.{j}") for j, name in enumerate(step[1])]
                if not checkpointing:
                    h = sites(site, tf.checkpointing.schedules.in_order(fs)(h))
                elif step[0] == "sequential":
                    h = sites(site, tf.checkpoint_sequential(fs, min(step[2], len(fs)), h))
                else:
                    h = sites(site, tf.checkpoint_chain(fs, h, snapshots=step[2]))
            else:
                h = sites(site, custom_sin(h))
        loss = sites("loss", tf.reduce_sum(h))
        if program["nested"]:
            inner.__exit__(None, None, None)
    passes = [(tape, loss, tape.gradient(loss, [x0, w]))]
    if program["persistent"]:
        passes.append((tape, loss, tape.gradient(loss, [x0, w])))
    if program["nested"]:
        passes.append((inner, loss, inner.gradient(loss, [x0, w])))
    return [tape] + ([inner] if program["nested"] else []), passes


def expected_gradients(program):
    """For each gradient pass: site -> the plain run's ``tape.gradient`` with respect to that site's value."""
    sites = Sites()
    tapes, passes = run(program, checkpointing=False, sites=sites)
    return [dict(zip(sites.tensors, tape.gradient(target, list(sites.tensors.values())))) for tape, target, _ in passes]


def shown(gradient):
    return "grad " + (format_array(gradient.numpy()) if np.size(gradient.numpy()) <= SMALL else "✓")


def agrees(line, gradient):
    """Whether a label's ``grad ...`` line writes ``gradient``, up to float32 rounding: the plain run adds
    the same contributions in another order."""
    if gradient is None or np.size(gradient.numpy()) > SMALL:
        return gradient is not None and line == "grad ✓"
    written = np.array(line.removeprefix("grad ").replace("[", " ").replace("]", " ").split(), dtype=float)
    return np.allclose(written, np.ravel(gradient.numpy()), rtol=1e-5, atol=1e-6)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs)
def test_every_frame_shows_what_the_api_returns(program):
    expected = expected_gradients(program)
    sites, asked = Sites(), []
    seen = {}                                     # id(tape) -> tape, every tape the events named so far

    def ask_every_tape(event):
        if event.data.get("tape") is not None:
            seen.setdefault(id(event.data["tape"]), event.data["tape"])
        asked.append({key: tape.memory_info() for key, tape in seen.items()})

    tf.events.subscribe(ask_every_tape)
    try:
        with tf.events.timeline() as events:
            tapes, passes = run(program, checkpointing=True, sites=sites)
    finally:
        tf.events.unsubscribe(ask_every_tape)
    player = events.player(max_frames=100_000)

    # which gradient pass each event belongs to: the last of the user's passes started by then
    starts = [i for i, e in enumerate(events) if e.kind == "gradient_start" and any(e.data["tape"] is t for t in tapes)]
    assert len(starts) == len(expected)
    looks, peak = {}, 0
    for frame in player.frames:
        looks.update(frame.changes)
        current = sum(i <= frame.event for i in starts) - 1
        for key, (look, lines) in looks.items():
            grad = [line for line in lines if line.startswith("grad ")]
            node = player.scene.values.get(key)
            if not grad or node is None or node.tensor_id not in sites:
                continue
            truth = expected[current][sites[node.tensor_id]] if current >= 0 else None
            assert agrees(grad[0], truth), (frame.index, frame.said, key, lines, truth)
        # bytes: each row is its tape's memory_info() at this moment; together is their sum, peak its maximum
        for row in frame.memory["tapes"]:
            truth = asked[frame.event][row["id"]]
            assert (row["current"], row["peak"]) == (truth["current"], truth["peak"]), (frame.said, row)
        assert frame.memory["current"] == sum(row["current"] for row in frame.memory["tapes"])
        peak = max(peak, frame.memory["current"])
        assert frame.memory["peak"] == peak

    # the last frame shows the last pass's gradient on every value the program made that has one...
    for key, node in player.scene.values.items():
        if node.tensor_id in sites and key in player.layout.elements:
            truth = expected[-1][sites[node.tensor_id]]
            grad = [line for line in looks[key][1] if line.startswith("grad ")]
            assert (truth is None and not grad) or (grad and agrees(grad[0], truth)), (key, looks[key], truth)
    # ...and exactly what that tape.gradient call returned for its sources
    *_, (_, _, returned) = passes
    for site, gradient in zip(["x0", "w"], returned):
        keys = [k for k, node in player.scene.values.items() if sites.get(node.tensor_id) == site]
        assert [line for key in keys for line in looks[key][1] if line.startswith("grad ")] == (
            [shown(gradient)] if gradient is not None else [])


def test_the_tours_last_frame_labels_y_with_what_tape_gradient_returns(capsys):
    # The tour's seed example: four checkpointed calls of x * y; tape.gradient gives 4 for y (it gave
    # "grad 8": each checkpoint added y's gradient twice, once from its recomputed multiply).
    y = tf.Variable(1.0)
    g = tf.recompute_grad(lambda x: (tf.print("running"), x * y)[1])
    with tf.events.timeline() as events:
        with tf.GradientTape() as tape:
            r = tf.constant(1.0)
            for _ in range(4):
                r = g(r)
        (grad,) = tape.gradient(r, [y])
    player = events.player(names={"y": y})
    looks = player.looks(-1)
    (key,) = [k for k, node in player.scene.values.items() if node.name == "y"]
    assert float(grad) == 4.0 and looks[key][1][-1] == "grad 4"
    every_grad = {line for frame in player.frames for _, lines in frame.changes.values() for line in lines
                  if line.startswith("grad ")}
    assert every_grad == {"grad 1", "grad 4"}           # r's are 1; nothing else is ever written


def test_a_variable_shows_the_value_each_step_read(capsys):
    # Two training steps in one timeline: w is 2 while the first tape records, 0 after the update.
    w = tf.Variable(2.0)
    with tf.events.timeline() as events:
        for _ in range(2):
            with tf.GradientTape() as tape:
                loss = w * w
            w.assign_sub(0.5 * tape.gradient(loss, w))
    player = events.player(names={"w": w})
    (key,) = [k for k, node in player.scene.values.items() if node.name == "w"]
    shown = [(frame.said, frame.changes[key][1]) for frame in player.frames if key in frame.changes]
    assert shown[0][1] == ["w", "float32[]", "2"] and shown[1][1] == ["w", "float32[]", "2", "grad 4"]
    assert shown[-1][1] == ["w", "float32[]", "0", "grad 0"] and float(w.numpy()) == 0.0
