"""Schedules: checkpoint_sequential, and the binomial schedule reaching Griewank–Walther's minimum."""
import functools
import math

import numpy as np
import pytest

import minitape as tf
from minitape.checkpointing.schedules import chain_schedule, revolve_recomputations

pytestmark = pytest.mark.usefixtures("backend")     # every test here runs on each backend


def formula(n, c):
    t = 0
    while math.comb(c + t, c) < n:
        t += 1
    return t * n - math.comb(c + t, c + 1)


PAIRS = [(n, c) for n in range(1, 61) for c in range(1, 7)] + [(100, 4), (200, 3), (150, 10), (90, 2)]


@pytest.mark.parametrize("n,c", PAIRS)
def test_schedule_reaches_the_binomial_minimum_within_its_snapshots(n, c):
    plan = chain_schedule(n, c)
    assert plan.recomputations == formula(n, c) == revolve_recomputations(n, c)
    assert plan.peak_snapshots <= c
    assert [a for a in plan.actions if a[0] == "backward"] == [("backward", i) for i in reversed(range(n))]


# The planner before it found its splits from binomials: a search over every split of every
# sub-chain, O(n²·snapshots).  Kept here, slow, as the reference the fast planner must equal action
# for action (ties between equally cheap splits go to the smallest).

@functools.lru_cache(maxsize=None)
def searched_split(l, s, sweeping):
    """(cost, split) for reversing l steps with s free slots; while sweeping, advancing is free."""
    if l == 1:
        return (0 if sweeping else 1), 0
    best = ((l - 1) * l // 2 if sweeping else l * (l + 1) // 2, 0)
    if s > 0:
        for m in range(1, l):
            best = min(best, ((0 if sweeping else m) + searched_split(l - m, s - 1, sweeping)[0]
                              + searched_split(m, s, False)[0], m))
    return best


def searched_schedule(n, c):
    actions = []

    def reverse(start, l, s):
        if l == 0:
            return
        m = searched_split(l, s, False)[1]
        if m == 0:
            for i in range(start + l - 1, start - 1, -1):
                actions.extend(([("advance", start, i)] if i > start else []) + [("record", i), ("backward", i)])
            return
        actions.extend([("advance", start, start + m), ("store", start + m)])
        reverse(start + m, l - m, s - 1)
        actions.append(("free", start + m))
        reverse(start, m, s)

    stack, position, l, s = [], 0, n, c - 1
    while l > 1 and searched_split(l, s, True)[1]:
        m = searched_split(l, s, True)[1]
        actions.extend([("advance", position, position + m), ("store", position + m)])
        stack.append((position, m, s))
        position, l, s = position + m, l - m, s - 1
    actions.extend(([("advance", position, position + l - 1)] if l > 1 else [])
                   + [("record", position + l - 1), ("backward", position + l - 1)])
    reverse(position, l - 1, s)
    for start, m, slots in reversed(stack):
        actions.append(("free", start + m))
        reverse(start, m, slots)
    return actions


@pytest.mark.parametrize("c", range(1, 13))
def test_schedule_equals_the_searched_schedule_action_for_action(c):
    for n in [*range(1, 121), 250, 333]:
        plan = chain_schedule(n, c)
        assert plan.actions == searched_schedule(n, c), (n, c)
        assert plan.recomputations == formula(n, c)


def counted_chain(n, w):
    calls = {"steps": 0}

    def make(k):
        def step(x):
            calls["steps"] += 1
            return tf.tanh(x * w + 0.1 * k)
        return step
    return [make(k) for k in range(n)], calls


@pytest.mark.parametrize("n,c", [(n, c) for n in (1, 2, 3, 5, 8, 13, 21, 34, 60) for c in range(1, 7)] + [(100, 4), (64, 8)])
def test_checkpoint_chain_runs_exactly_the_optimal_steps_and_gets_the_plain_gradient(n, c):
    w = tf.Variable(np.float64(0.7))
    x = tf.constant(np.array([0.3, -0.2]))
    steps, calls = counted_chain(n, w)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.checkpoint_chain(steps, x, snapshots=c))
    grads = tape.gradient(y, [x, w])
    assert calls["steps"] == n + formula(n, c)
    with tf.GradientTape() as tape:
        tape.watch(x)
        h = x
        for f in steps:
            h = f(h)
        plain = tape.gradient(tf.reduce_sum(h), [x, w])
    for a, b in zip(grads, plain):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-12)


def test_checkpoint_chain_holds_at_most_c_states():
    stored = []

    def watch(event):
        if event.kind == "schedule":
            stored.append(len(event.data["entry"].stored))

    w, x = tf.Variable(0.5), tf.constant([1.0])
    tf.events.subscribe(watch)
    try:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.checkpoint_chain([lambda h: tf.sin(h * w)] * 20, x, snapshots=3)
        tape.gradient(y, x)
    finally:
        tf.events.unsubscribe(watch)
    assert len(stored) > 20 and max(stored) <= 3


def test_checkpoint_sequential_checkpoints_every_segment():
    layers = [lambda h: tf.tanh(h * 1.5) for _ in range(7)]
    x = tf.constant([0.2, 0.4])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.checkpoint_sequential(layers, 3, x)           # segments of 2, 2 and 3 (PyTorch's split)
    assert [e.label for e in tape.entries()] == ["recompute_grad(segment of 2)"] * 2 + ["recompute_grad(segment of 3)"]
    with tf.GradientTape() as plain:
        plain.watch(x)
        h = x
        for f in layers:
            h = f(h)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), plain.gradient(h, x).numpy(), rtol=1e-6)


def test_checkpoint_sequential_accepts_a_sequential_model_and_checks_segments():
    model = tf.keras.Sequential([tf.keras.layers.Dense(3), tf.keras.layers.Dense(2)])
    assert tf.checkpoint_sequential(model, 2, tf.ones((1, 4))).shape == (1, 2)
    with pytest.raises(ValueError, match="segments must be between 1 and 2"):
        tf.checkpoint_sequential(model, 3, tf.ones((1, 4)))


@pytest.mark.parametrize("n,c", [(0, 2), (3, 0)])
def test_bad_chain_arguments(n, c):
    with pytest.raises(ValueError):
        chain_schedule(n, c)


def test_making_a_chain_entry_runs_nothing_the_forward_pass_runs_the_plan():
    """checkpoint_chain runs the forward pass; the entry it records is made from what that produced."""
    from minitape.checkpointing.schedules import ChainEntry
    w = tf.Variable(0.5)
    steps, calls = counted_chain(6, w)
    entry = ChainEntry(steps, chain_schedule(6, 2), tf.constant([1.0]))
    assert calls["steps"] == 0 and entry.stored.keys() == {0} and entry.recorded == {}
    assert entry.forward().shape == (1,) and calls["steps"] == 6
    assert set(entry.stored) == {a[1] for a in chain_schedule(6, 2).forward_actions if a[0] == "store"} | {0}


def test_a_record_action_names_the_tape_its_step_runs_under():
    # The player draws a recorded step's entries inside the chain's node: the `schedule` event names
    # the step's tape, so no tape has to be guessed to be the step's (the first new one it meets).
    w = tf.Variable(0.9)
    x = tf.constant(0.5)
    with tf.events.timeline() as events:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.checkpoint_chain([lambda s: tf.sin(s * w)] * 4, x, snapshots=2)
        tape.gradient(y, [x, w])
    records = [i for i, e in enumerate(events) if e.kind == "schedule" and e.data["action"][0] == "record"]
    assert len(records) == 4              # the forward pass records the last step, the reversal the others
    for i in records:
        step_tape = events[i].data["step_tape"]
        ops = [e for e in events[i + 1:] if e.kind == "op"]
        assert isinstance(step_tape, tf.GradientTape) and ops[0].data["tape"] is step_tape
    others = [e.data["step_tape"] for e in events if e.kind == "schedule" and e.data["action"][0] != "record"]
    assert others and all(t is None for t in others)
    scene = events.scene()
    assert {row["tape"] for row in scene.tapes.summary()["tapes"]} <= {"tape"} | {f"step {k}'s tape" for k in range(4)}
