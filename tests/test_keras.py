"""The small Keras the seeds need: layers build on first call, own variables, cast ints."""
import numpy as np
import pytest

import minitape as tf


def test_dense_builds_on_first_call_and_names_variables():
    layer = tf.keras.layers.Dense(3, name="hidden")
    assert not layer.built and layer.variables == []
    out = layer(tf.constant([[1, 2]]))                     # integers are cast to float32
    assert out.dtype == tf.float32 and out.shape == (1, 3)
    assert [v.name for v in layer.variables] == ["hidden/kernel:0", "hidden/bias:0"]
    np.testing.assert_array_equal(layer.bias.numpy(), np.zeros(3))


def test_sequential_and_subclassed_models_collect_variables():
    class Net(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.blocks = [tf.keras.layers.Dense(4), tf.keras.layers.Dense(2, use_bias=False)]

        def call(self, x):
            for block in self.blocks:
                x = block(x)
            return x

    net = Net()
    net(tf.ones((1, 3)))
    assert [tuple(v.shape) for v in net.trainable_variables] == [(3, 4), (4,), (4, 2)]
    seq = tf.keras.Sequential([tf.keras.layers.Dense(2), tf.keras.layers.ReLU(), tf.keras.layers.Dropout(0.5)])
    seq(tf.ones((2, 2)))
    assert len(seq.variables) == 2 and len(seq.layers) == 3


def test_dense_input_size_changed_after_build():
    layer = tf.keras.layers.Dense(2)
    layer(tf.ones((1, 3)))
    with pytest.raises(ValueError, match="expected axis -1 of input shape to have value 3, but received input with shape \\(1, 4\\)"):
        layer(tf.ones((1, 4)))


def test_unknown_activation():
    with pytest.raises(ValueError, match="Unknown activation function: 'swishy'"):
        tf.keras.layers.Dense(2, activation="swishy")


def test_dropout_only_while_training():
    layer = tf.keras.layers.Dropout(0.5)
    x = tf.ones((100,))
    np.testing.assert_array_equal(layer(x).numpy(), x.numpy())
    assert set(layer(x, training=True).numpy().tolist()) == {0.0, 2.0}
