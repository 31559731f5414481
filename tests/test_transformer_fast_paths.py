"""The transformer step's fast paths in keras (issue #28): the same values as the rules they stand for.

Adam updates every variable at once in NumPy when it can (``Adam._update_steps``); the result must be the
bits of Keras' rule applied variable by variable with ops, and no value read before a step may change.
"""
import numpy as np

import minitape as tf


def _adam_run(optimizer, steps=3, fused=True):
    rng = np.random.default_rng(0)
    variables = [tf.Variable(rng.standard_normal(shape).astype(np.float32)) for shape in [(3, 4), (4,), (), (2, 2, 2)]]
    for _ in range(steps):
        grads = [tf.constant(rng.standard_normal(tuple(v.shape)).astype(np.float32)) for v in variables]
        if fused:
            optimizer.apply_gradients(zip(grads, variables))
        else:                    # Keras' rule, one variable at a time, op by op
            optimizer.build(variables)
            for g, v in zip(grads, variables):
                optimizer.update_step(g, v, tf.cast(optimizer.learning_rate, v.dtype))
            optimizer.iterations.assign_add(1)
    return [v.numpy() for v in variables] + [s.numpy() for s in optimizer.variables]


def test_adam_all_at_once_is_the_rule_variable_by_variable_bit_for_bit():
    optimizer = tf.keras.optimizers.Adam(0.01)
    fused, plain = _adam_run(optimizer), _adam_run(tf.keras.optimizers.Adam(0.01), fused=False)
    assert all(type(s._value) is not np.ndarray or s._value.base is not None for s in optimizer.variables[2:])
    for a, b in zip(fused, plain):
        np.testing.assert_array_equal(a, b)


def test_adam_all_at_once_leaves_values_read_before_the_step_alone():
    w = tf.Variable([1.0, 2.0])
    optimizer = tf.keras.optimizers.Adam(0.1)
    optimizer.apply_gradients([(tf.constant([1.0, 1.0]), w)])
    before, held, momentum = w.read_value(), np.asarray(w), optimizer.variables[2].read_value()
    values = [before.numpy(), held.copy(), momentum.numpy()]
    optimizer.apply_gradients([(tf.constant([1.0, 1.0]), w)])
    for now, then in zip([before.numpy(), held, momentum.numpy()], values):
        np.testing.assert_array_equal(now, then)
    assert not np.array_equal(w.numpy(), values[0])


def test_adam_subclass_with_its_own_update_step_is_called():
    calls = []

    class Counting(tf.keras.optimizers.Adam):
        def update_step(self, gradient, variable, learning_rate):
            calls.append(variable.name)
            super().update_step(gradient, variable, learning_rate)

    _adam_run(Counting(0.01), steps=1)
    assert len(calls) == 4
