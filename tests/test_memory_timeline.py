"""The memory timeline tells the truth (issue [pedagogy]): after every step of any program, the bytes it
says each tape holds are that tape's ``memory_info()["current"]``, and its total is what all the tapes hold.

The programs are the player's truth test's (plain ops, ``recompute_grad`` nested or not,
``checkpoint_sequential``, ``checkpoint_chain``, ``custom_gradient``; persistent or not; a second tape
nested inside or not).  A listener asks every tape met so far for its ``memory_info()`` after each event.
"""
from hypothesis import HealthCheck, given, settings

import minitape as tf
from test_player_truth import Sites, programs, run


def observed(program):
    """Run ``program`` in a timeline; returns it, the user's tapes, and each tape's bytes after every event."""
    seen, asked = {}, []

    def ask_every_tape(event):
        if event.data.get("tape") is not None:
            seen.setdefault(id(event.data["tape"]), event.data["tape"])
        asked.append({key: tape.memory_info()["current"] for key, tape in seen.items()})

    tf.events.subscribe(ask_every_tape)
    try:
        with tf.events.timeline() as events:
            tapes, _ = run(program, checkpointing=True, sites=Sites())
    finally:
        tf.events.unsubscribe(ask_every_tape)
    return events, tapes, asked


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs)
def test_every_step_holds_what_memory_info_says(program):
    events, tapes, asked = observed(program)
    names = dict(zip(["outer", "inner"], tapes))
    memory = events.memory_timeline(names=names)
    assert [row.step for row in memory] == list(range(len(events)))
    for row, truth in zip(memory, asked):
        assert row.total == sum(truth.values()), (row, truth)          # every tape, the finished local ones at 0
        assert row.total == sum(row.tapes.values())
        for name, tape in names.items():
            if id(tape) in truth:
                assert row.tapes[name] == truth[id(tape)], (row, name)
    assert memory.peak.total == max(sum(truth.values()) for truth in asked)
    starts = [i for i, e in enumerate(events) if e.kind == "gradient_start" and any(e.data["tape"] is t for t in tapes)]
    assert memory.backward_starts == starts


def test_plain_against_revolve_shows_the_trade(capsys):
    blocks = [lambda h: tf.tanh(h * 1.1)] * 8

    def run_chain(step):
        with tf.events.timeline() as events:
            with tf.GradientTape() as tape:
                x = tf.ones([100])
                tape.watch(x)
                y = tf.reduce_sum(step(x))
            tape.gradient(y, x)
        return events

    plain = run_chain(tf.checkpointing.schedules.in_order(blocks))
    revolve = run_chain(lambda x: tf.checkpoint_chain(blocks, x, snapshots=2))
    comparison = tf.viz.compare_memory({"plain": plain, "Revolve": revolve})
    low, high = comparison.timelines["Revolve"], comparison.timelines["plain"]
    assert low.peak.total < high.peak.total and len(low) > len(high) and low.recomputed == 16
    svg = comparison.to_svg()
    for text in ["plain — peak 3,632 bytes", "Revolve — peak 2,008 bytes", "16 ops recorded again",
                 "(+ unrecorded advances)"]:
        assert text in svg
    assert svg.count("<circle") == 2                                    # each schedule's peak marked
    single = high.to_svg()
    assert "backward →" in single and "peak 3.63 kB" in single


def test_the_plot_is_plain_svg_with_legible_text():
    import re

    with tf.events.timeline() as events:
        with tf.GradientTape() as tape:
            x = tf.constant([1.0, 2.0])
            tape.watch(x)
            y = tf.reduce_sum(x * x)
        tape.gradient(y, x)
    svg = events.memory_timeline()._repr_svg_()
    assert svg.startswith("<svg") and "<script" not in svg and "href" not in svg
    assert min(int(size) for size in re.findall(r'font-size="(\d+)"', svg)) >= 12
    import xml.dom.minidom
    xml.dom.minidom.parseString(svg)                                    # well-formed: any browser draws it


def test_compare_memory_needs_a_timeline():
    import pytest

    with pytest.raises(ValueError, match="compare_memory: give at least one timeline"):
        tf.viz.compare_memory({})


def test_the_players_page_draws_memory_over_its_frames(capsys, seed_timeline):
    from minitape.viz.plot import short_bytes

    player = seed_timeline().player()
    html = player.to_html()
    assert html.count('class="mt-cursor"') == 1 and "minitape-over-time" in html
    assert f"held over time, together: peak {short_bytes(player.peak)}" in html
    assert 'cursor.setAttribute("x1", x)' in html                       # the script moves it with the frame


def test_peak_labels_stay_legible_where_a_line_crosses_them():
    """A peak's label sits beside the lines: a white outline under its letters keeps a crossing line from
    striking it through (seen on notebook 08's three schedules, where a plateau ran through "295 kB")."""
    import re

    with tf.events.timeline() as events, tf.GradientTape() as tape:
        x = tf.constant(1.0)
        tape.watch(x)
        y = tf.exp(x)
    svg = tf.viz.compare_memory({"plain": events}).to_svg()
    label = re.search(r"<text [^>]*font-weight=\"600\"[^>]*>4 B</text>", svg).group(0)     # the peak's, not the axis'
    assert 'stroke="#fff"' in label and 'paint-order="stroke"' in label, label
