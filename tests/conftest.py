"""Helpers shared by the tests."""
import pytest

import minitape as tf


def seed_function_timeline():
    """The timeline of the seeds' first example: four checkpointed calls, then their gradient."""
    y = tf.Variable(1.0)

    def my_function(x):
        tf.print("running")
        return x * y

    g = tf.recompute_grad(my_function)
    with tf.events.timeline() as events:
        with tf.GradientTape() as tape:
            r = tf.constant(1.0)
            for _ in range(4):
                r = g(r)
        tape.gradient(r, [y])
    events.names = {"y": y, "r": r}
    return events


@pytest.fixture
def seed_timeline():
    return seed_function_timeline
