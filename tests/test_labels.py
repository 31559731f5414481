"""Labels a student reads: the user's names where known, else ``#n`` numbered 1, 2, 3... and explained.

One vocabulary: the static picture's legend and the player's say the same words (``dot.LOOKS``).
"""
import re

import minitape as tf
from minitape.viz.dot import LEGEND, LOOKS, UNNAMED


def numbers(labels) -> list[int]:
    return sorted({int(m.group(1)) for label in labels if (m := re.fullmatch(r"#(\d+)", label))})


def test_unnamed_values_are_numbered_densely_from_one(capsys):
    x = tf.constant(2.0)
    with tf.events.timeline() as events:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.sin(tf.exp(x) * x) + tf.cos(x)
        tape.gradient(y, x)
    player = events.player(names={"x": x, "y": y})
    labels = [lines[0] for _, lines in player.looks(-1).values() if lines]
    assert "x" in labels and "y" in labels
    assert numbers(labels) == list(range(1, len(numbers(labels)) + 1)) and len(numbers(labels)) >= 3
    assert UNNAMED in player.to_html() and UNNAMED in events.scene().to_dot()


def test_keras_variables_are_labelled_by_their_paths_in_a_recomputation(capsys):
    layer = tf.keras.layers.Dense(2, name="block_dense")
    block = tf.recompute_grad(lambda x: layer(x))
    x = tf.constant([[1.0, 2.0]])
    layer(x)
    with tf.events.timeline() as events:
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(block(x))
        tape.gradient(loss, layer.trainable_variables)
    said = [frame.said for frame in events.player(names={"x": x}).frames]     # no names for the variables
    watched = [text for text in said if text.startswith("the local tape watches")]
    assert "the local tape watches block_dense/kernel" in watched, said
    assert "the local tape watches block_dense/bias" in watched, said
    assert watched[0] == "the local tape watches copy of x" and not any("#" in text for text in watched), watched


def test_the_static_legend_and_the_players_say_the_same_words():
    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        tf.exp(x)
    dot = tf.viz.Scene.of_tape(tape).to_dot()
    page = tf.viz.page.legend_html()
    for name in LEGEND:
        meaning = LOOKS[name]["meaning"]
        assert f'label="{meaning}"' in dot and meaning in page, meaning
    assert "saved for backward" not in dot and "current step" not in dot


def test_a_recomputations_copies_are_labelled_by_the_functions_parameters(capsys):
    def block(h, scale=None):
        return tf.sin(h) * scale

    checkpointed = tf.recompute_grad(block)
    x, s = tf.constant(1.0), tf.constant(2.0)
    with tf.events.timeline() as events:
        with tf.GradientTape() as tape:
            tape.watch([x, s])
            y = checkpointed(x, scale=s)
        tape.gradient(y, [x, s])
    watched = [frame.said for frame in events.player(names={"x": x, "s": s}).frames
               if frame.said.startswith("the local tape watches")]
    assert watched == ["the local tape watches h (copy of x)", "the local tape watches scale (copy of s)"]
