"""Keras 3's tracking of layers in containers, add_loss and regularizers: the corners the TF records do not reach."""
import numpy as np
import pytest

import minitape as tf

layers = tf.keras.layers


def names(model):
    return [layer.name for layer in model.layers]


def test_a_layer_in_a_tuple_counts_once_however_often_it_is_held():
    shared = layers.Dense(2, name="shared")
    model = tf.keras.Model()
    model.pair, model.again = (shared, shared), [shared]
    shared(tf.ones((1, 3)))
    assert names(model) == ["shared"] and len(model.trainable_weights) == 2


def test_losses_are_those_of_the_last_outermost_call_and_weight_penalties_follow_the_weights():
    class Noisy(layers.Layer):
        def call(self, x):
            self.add_loss(tf.reduce_sum(x))
            return x

    inner = Noisy()
    model = tf.keras.Sequential([inner, layers.Dense(1, kernel_initializer="ones", kernel_regularizer="l2")])
    model(tf.ones((2, 2)))
    model(tf.ones((1, 2)))
    assert [float(loss) for loss in model.losses] == pytest.approx([2.0, 0.02])
    model.layers[1].kernel.assign([[2.0], [0.0]])
    assert [float(loss) for loss in model.losses] == pytest.approx([2.0, 0.04])
    assert [float(loss) for loss in inner.losses] == [2.0]


def test_the_activity_penalty_is_averaged_over_the_batch():
    layer = layers.Dense(1, kernel_initializer="ones", activity_regularizer=tf.keras.regularizers.L1(1.0))
    layer(tf.constant([[1.0, 1.0], [2.0, 2.0]]))                     # outputs 2 and 4: |2| + |4| over 2
    assert [float(loss) for loss in layer.losses] == [3.0]


def test_a_loss_given_only_by_add_loss_trains_and_no_loss_at_all_is_refused():
    class Shrink(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = layers.Dense(1, kernel_initializer="ones")

        def call(self, x):
            y = self.dense(x)
            self.add_loss(tf.reduce_mean(y ** 2))
            return y

    model = Shrink()
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1))
    history = model.fit(np.ones((4, 2), "float32"), np.zeros((4, 1), "float32"), epochs=2, verbose=0)
    assert history.history["loss"][1] < history.history["loss"][0]
    plain = tf.keras.Sequential([layers.Dense(1)])
    plain.compile(optimizer="sgd")
    with pytest.raises(ValueError, match="No loss to compute"):
        plain.fit(np.ones((2, 2), "float32"), np.zeros((2, 1), "float32"), verbose=0)


@pytest.mark.parametrize("bad, message", [
    (lambda: layers.Layer().add_loss(1.0), "`add_loss\\(\\)` can only be called .* Received invalid value: 1.0"),
    (lambda: tf.keras.regularizers.get("l1_l2"), "Could not interpret regularizer identifier: l1_l2"),
    (lambda: tf.keras.regularizers.get(3), "Could not interpret regularizer identifier: 3"),
    (lambda: tf.keras.regularizers.L2(-1.0), "Invalid value for argument l2: expected a non-negative float"),
    (lambda: layers.Dense(1, kernel_regularizer="nope"), "Could not interpret regularizer identifier: nope"),
    (lambda: layers.Layer().add_weight("w", (2,)), "`name` must be passed as a keyword argument"),
    (lambda: layers.Layer().add_weight((2,), shape=(2,)), "`shape` was passed both positionally"),
])
def test_bad_losses_and_regularizers_raise_keras_errors(bad, message):
    with pytest.raises(ValueError, match=message):
        bad()


def test_regularizers_by_name_class_and_callable():
    regularizers = tf.keras.regularizers
    assert isinstance(regularizers.get("L2"), regularizers.L2)
    assert isinstance(regularizers.get("l1l2"), regularizers.L1L2)
    assert regularizers.get(regularizers.L1).l1 == 0.01 and regularizers.get(None) is None
    assert regularizers.get(abs) is abs and regularizers.l1_l2 is regularizers.L1L2
    assert regularizers.L1L2(l1=None, l2=0.5).get_config() == {"l1": 0.0, "l2": 0.5}


def test_a_metric_called_updates_then_reports():
    accuracy = tf.keras.metrics.SparseCategoricalAccuracy()
    assert float(accuracy([1], [[0.2, 0.8]])) == 1.0
    assert float(accuracy([0], [[0.2, 0.8]])) == 0.5
    assert [v.path for v in accuracy.variables] == ["sparse_categorical_accuracy/total",
                                                    "sparse_categorical_accuracy/count"]


def test_with_name_scope_keeps_the_method_name_and_doc():
    class Block(tf.Module):
        @tf.Module.with_name_scope
        def forward(self, x):
            """Doubles x."""
            return tf.Variable(2 * x, name="out")

    block = Block()
    assert Block.forward.__name__ == "forward" and Block.forward.__doc__ == "Doubles x."
    assert block.forward(1.0).name == "block/out:0"
