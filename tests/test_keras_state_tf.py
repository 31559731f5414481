"""Freezing, building, initialiser seeds, default names, loss dtypes and regularizer configs against TensorFlow
2.21's Keras (3.15), from tests/data/tf_keras_state.json (written by tests/record_tf_keras_state.py)."""
import json

import numpy as np
import pytest

import minitape as tf

import record_tf_keras_state as spec
from recorded_keras import minitape_runs, same

RECORDED = json.loads(spec.OUT.read_text())
ours = minitape_runs(spec)


@pytest.mark.parametrize("case,key", [(case, key) for case in spec.CASES for key in RECORDED[case]])
def test_matches_keras(case, key):
    assert same(ours(case)[key], RECORDED[case][key], tol=1e-5), (ours(case)[key], RECORDED[case][key])


def test_a_frozen_layer_made_inside_a_frozen_model_thaws_with_it():
    model = tf.keras.Sequential([tf.keras.layers.Dense(2)])
    model.trainable = False
    model.build((None, 3))                  # the weights are made while the model is frozen
    assert model.trainable_weights == [] and [v.trainable for v in model.weights] == [False, False]
    model.trainable = True
    assert [v.name for v in model.trainable_weights] == ["kernel", "bias"]


def test_a_frozen_layers_regularizer_adds_no_loss():
    dense = tf.keras.layers.Dense(1, kernel_regularizer="l2")
    dense.build((None, 2))
    assert len(dense.losses) == 1
    dense.trainable = False
    assert dense.losses == []               # Keras: only trainable weights are regularized


def test_a_seeded_initializer_is_replayed_inside_a_checkpoint_and_does_not_move_the_global_stream():
    init = tf.random_normal_initializer(seed=3)
    tf.random.set_seed(1)
    first, after = init((4,)).numpy(), tf.random.uniform(()).numpy()
    tf.random.set_seed(1)
    with tf.random.replay(tf.random.Source(seed=9)):
        again = init((4,)).numpy()
    assert np.array_equal(first, again) and tf.random.uniform(()).numpy() == after


def test_keras_seeded_layers_agree_and_unseeded_ones_follow_set_random_seed():
    def kernel(init):
        layer = tf.keras.layers.Dense(2, kernel_initializer=init)
        layer.build((None, 3))
        return layer.kernel.numpy()
    assert np.array_equal(kernel(tf.keras.initializers.GlorotUniform(seed=1)),
                          kernel(tf.keras.initializers.GlorotUniform(seed=1)))
    tf.keras.utils.set_random_seed(5)
    a = kernel("glorot_uniform")
    tf.keras.utils.set_random_seed(5)
    assert np.array_equal(a, kernel("glorot_uniform"))


def test_a_loss_term_of_another_float_dtype_is_keras_type_error_with_the_fix():
    class Float64Loss(tf.keras.layers.Layer):
        def call(self, x):
            self.add_loss(tf.constant(0.5, tf.float64))
            return x
    model = tf.keras.Sequential([tf.keras.layers.Dense(1), Float64Loss()])
    model.compile(optimizer="sgd", loss="mse")
    with pytest.raises(TypeError, match=r"Cannot convert a list containing a tensor of dtype .*float64.* to "
                                        r".*float32.*tf\.cast\(loss, tf\.float32\)"):
        model.fit(spec.X, spec.Y, verbose=0)


def test_an_integer_loss_term_is_cast_to_float32():
    class CountLoss(tf.keras.layers.Layer):
        def call(self, x):
            self.add_loss(tf.constant(2))
            return x
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer="zeros"), CountLoss()])
    model.compile(optimizer="sgd", loss="mse")
    assert model.evaluate(np.ones((2, 3)), np.ones((2, 1)), verbose=0) == pytest.approx(3.0)


def test_building_an_empty_sequential_model_is_keras_value_error():
    with pytest.raises(ValueError, match="cannot be built because it has no layers"):
        tf.keras.Sequential(name="empty").build((None, 3))
