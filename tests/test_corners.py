"""Smaller defects found by a hostile but fair user (issue [reliability]): events and threads,
the player's edges, labels Graphviz cannot carry, tf.print's placeholder, the recomputation
check, and Jacobians of empty targets.  Expected values are TF 2.21's where TF has the feature."""
import os
import threading

import numpy as np
import pytest

import minitape as tf


def test_a_timeline_hears_only_its_own_thread(capsys):
    opened, done = threading.Event(), threading.Event()

    def elsewhere():
        opened.wait()
        x = tf.constant(1.0)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.sin(x)
        tape.gradient(y, x)
        tf.print("from the other thread")
        done.set()

    other = threading.Thread(target=elsewhere)
    other.start()
    x = tf.constant(2.0)
    with tf.events.timeline() as events:
        opened.set()
        done.wait()
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x * x
    other.join()
    assert [e.kind for e in events] == ["watch", "op"]
    assert all(e.data["tape"] is tape for e in events)
    assert tf.events.listening == 0


def test_the_player_of_an_empty_timeline_shows_one_empty_frame():
    with tf.events.timeline() as events:
        pass
    player = events.player()
    assert [frame.said for frame in player.frames] == ["nothing yet"]
    controls, view = player.widget().children
    assert "step 1 of 1" in view.value and 'max="1"' in player.to_html()


@pytest.mark.parametrize("options, error, message", [
    ({"max_frames": 0}, ValueError, "Player: max_frames must be at least 1, got 0"),
    ({"max_frames": 2.5}, TypeError, "Player: max_frames must be an int, got float 2.5"),
    ({"max_nodes": 1}, ValueError, "Player: max_nodes must be at least 2, got 1"),
])
def test_the_player_refuses_counts_it_cannot_use(capsys, options, error, message):
    with tf.events.timeline() as events:
        tf.print("hello")
    with pytest.raises(error, match=message):
        events.player(**options)
    assert len(events.player(max_frames=1).frames) == 1


def test_picture_names_must_be_strings():
    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.sin(x)
    with pytest.raises(TypeError, match=r"names .* must map str names to tensors.* got the key 1 \(int\)"):
        tape.picture(names={1: x})
    with pytest.raises(TypeError, match="names .* must be a dict"):
        tape.picture(names=[x])


def test_labels_graphviz_and_pages_cannot_carry_are_escaped(capsys, tmp_path):
    x = tf.constant(1.0)
    nul, surrogate = "a\x00b", "c\ud800d"
    with tf.events.timeline(names={nul: x}) as events:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.sin(x)
        tf.print("bell\x07")
    svg = tape.picture(names={surrogate: x, "y": y}).to_svg()
    assert "c\\ud800d" in svg and "\ud800" not in svg
    assert "a\\x00b" in events.scene().to_svg()
    events.player().save(tmp_path / "player.html")          # UTF-8 cannot encode a lone surrogate: escaped
    page = (tmp_path / "player.html").read_text(encoding="utf-8")
    assert "bell\\x07" in page and "\x07" not in page and "\x00" not in page


def test_print_places_tensors_with_a_placeholder_no_input_contains(capsys):
    tf.print(["__minitape_tensor_0__", tf.constant(1)])
    tf.print(["{}", tf.constant(1), "'{}'"])
    tf.print([tf.constant(1)] * 12)
    # TF 2.21's output for the same three calls
    assert capsys.readouterr().out == ("['__minitape_tensor_0__', 1]\n"
                                       "['{}', 1, \"'{}'\"]\n"
                                       "[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n")


@pytest.mark.parametrize("first, second", [
    (lambda x: (x, 2.0 * x), lambda x: {"a": x, "b": 2.0 * x}),
    (lambda x: [x, x], lambda x: (x, x)),
    (lambda x: {"a": x}, lambda x: {"b": x}),
])
def test_a_recomputation_that_changes_its_structure_is_named(first, second):
    calls = []

    def shifty(x):
        calls.append(x)
        return (first if len(calls) == 1 else second)(x)

    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        out = tf.recompute_grad(shifty)(x)
    with pytest.raises(tf.RecomputeMismatchError, match=r"recomputing .*shifty returned .*, but the forward pass "
                                                        r"returned .*\(· is a tensor\)"):
        tape.gradient(out, x)


def test_jacobians_of_empty_targets_are_zeros_as_in_tf():
    x, empty = tf.constant([1.0, 2.0]), tf.zeros((0,))
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, empty])
        connected = x[:0] * 2.0
        from_empty = empty * 3.0
        sliced = tf.reshape(x, (2, 1))[:, :0]
        unconnected = tf.zeros((0, 3))
        total = tf.reduce_sum(x)
    # TF 2.21: shape target.shape + source.shape, zeros, when the target depends on the source...
    assert tape.jacobian(connected, x).shape == (0, 2)
    assert tape.jacobian(from_empty, empty).shape == (0, 0)
    assert tape.jacobian(sliced, x).shape == (2, 0, 2) and not tape.jacobian(sliced, x).numpy().size
    # ...and None (or zeros, when asked) when it does not
    assert tape.jacobian(unconnected, x) is None and tape.jacobian(total, empty) is None
    zero = tf.UnconnectedGradients.ZERO
    assert tape.jacobian(unconnected, x, unconnected_gradients=zero).shape == (0, 3, 2)
    assert tape.jacobian(total, empty, unconnected_gradients=zero).shape == (0,)


def test_batch_jacobian_matches_tf_at_its_edges():
    x = tf.constant([[1.0, 2.0]])
    empty_batch = tf.zeros((0, 2))
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, empty_batch])
        y = x * x
        nothing_per_example = x[:, :0] * 2.0
        from_empty_batch = empty_batch * 2.0
    # TF 2.21: an unconnected target gives zeros of the target's dtype, whatever unconnected_gradients says
    unconnected = tape.batch_jacobian(tf.zeros((1, 3), tf.float64), x)
    assert unconnected.dtype == tf.float64 and unconnected.shape == (1, 3, 2) and not unconnected.numpy().any()
    assert tape.batch_jacobian(nothing_per_example, x).shape == (1, 0, 2)
    assert tape.batch_jacobian(from_empty_batch, empty_batch).shape == (0, 2, 2)     # TF: ZeroDivisionError
    np.testing.assert_array_equal(tape.batch_jacobian(y, x).numpy(), [[[2.0, 0.0], [0.0, 4.0]]])
    # TF 2.21: "Shape (2,) must have rank at least 2"
    for target, source in ((y[0], x), (y, x[0])):
        with pytest.raises(ValueError, match=r"^Shape \(2,\) must have rank at least 2"):
            tape.batch_jacobian(target, source)
