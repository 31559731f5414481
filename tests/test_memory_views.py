"""memory_info() counts what the tape alone keeps alive, views included (issue #23 [correctness]).

A kept value made while recording can be a view of the user's buffer (identity, reshape, a slice,
expand_dims): that buffer is alive anyway, so it is not the tape's.  It becomes the tape's once the
user lets go of it, or once a variable is given a new buffer.
"""
from __future__ import annotations

import gc

import pytest

import minitape as tf

VIEWS = {
    "identity": lambda x: tf.identity(x) * 2.0,
    "reshape": lambda x: tf.reshape(x, (10, 100)) * 2.0,
    "slice": lambda x: x[:] * 2.0,
    "expand_dims": lambda x: tf.expand_dims(x, 0) * 2.0,
}


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_a_view_of_a_watched_tensor_is_the_users(name):
    x = tf.ones((1000,))
    with tf.GradientTape() as tape:
        tape.watch(x)
        VIEWS[name](x)
    assert tape.memory_info() == {"current": 4, "peak": 4}        # the 2.0 alone, as for x * 2.0


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_a_view_of_a_variable_is_the_users(name):
    v = tf.Variable(tf.ones((1000,)))
    with tf.GradientTape() as tape:
        VIEWS[name](v)
    assert tape.memory_info() == {"current": 4, "peak": 4}


def test_what_the_op_makes_is_still_the_tapes():
    x = tf.ones((1000,))
    with tf.GradientTape() as tape:
        tape.watch(x)
        tf.tanh(tf.reshape(x, (10, 100)))                          # tanh keeps its own output
    assert tape.memory_info()["current"] == 4000


def test_a_view_becomes_the_tapes_when_the_user_lets_go():
    x = tf.ones((1000,))
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        tf.reshape(x, (10, 100)) * 2.0
    assert tape.memory_info()["current"] == 4
    del x
    gc.collect()
    assert tape.memory_info()["current"] == 4004                  # only the tape's view keeps it alive now


def test_a_view_becomes_the_tapes_when_the_variable_moves_on():
    v = tf.Variable(tf.ones((1000,)))
    with tf.GradientTape(persistent=True) as tape:
        tf.identity(v) * 2.0
    assert tape.memory_info()["current"] == 4
    v.assign(tf.zeros((1000,)))                                   # a new buffer: the old one is the tape's
    assert tape.memory_info()["current"] == 4004
