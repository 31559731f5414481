"""Constraints, Precision/Recall and metric functions, get/set_weights and the functional API against
TensorFlow 2.21's Keras (3.15), from tests/data/tf_keras_api.json (written by tests/record_tf_keras_api.py);
then the errors and corners that have no number to compare."""
import json

import numpy as np
import pytest

import minitape as tf

import record_tf_keras_api as spec
from recorded_keras import minitape_runs, same

RECORDED = json.loads(spec.OUT.read_text())
ours = minitape_runs(spec)


@pytest.mark.parametrize("case,key", [(case, key) for case in spec.CASES for key in RECORDED[case]])
def test_matches_keras(case, key):
    assert same(ours(case)[key], RECORDED[case][key]), (ours(case)[key], RECORDED[case][key])


def test_a_tf_op_on_a_symbolic_input_says_to_wrap_it_in_a_layer():
    x = tf.keras.Input(shape=(2,))
    for attempt in (lambda: tf.exp(x), lambda: tf.matmul(x, tf.ones((2, 2))), lambda: x + 1.0,
                    lambda: tf.constant(1.0) * x, lambda: x[0]):
        with pytest.raises(ValueError, match="(?s)A KerasTensor cannot be used as input to a TensorFlow function.*"
                                             "wrap `tf_fn` in a layer"):
            attempt()
    with pytest.raises(ValueError, match="You cannot convert it to a NumPy array"):
        np.asarray(x)
    y = tf.keras.layers.Lambda(tf.exp)(x)          # the way to do it
    assert y.shape == (None, 2) and tf.keras.Model(x, y)(np.zeros((1, 2))).numpy().tolist() == [[1.0, 1.0]]


def test_layers_see_the_symbolic_shape_while_a_functional_model_is_built():
    seen = []

    class Probe(tf.keras.layers.Layer):
        def build(self, input_shape):
            seen.append(("build", tuple(input_shape)))

        def call(self, x):
            seen.append(("call", x.shape.as_list()))
            if x.shape[0] is None:                     # the stand-in: no values to read
                with pytest.raises(ValueError, match="no values to read"):
                    x.numpy()
            return tf.concat([x, x], axis=1)

    x = tf.keras.Input(shape=(3,), name="probe_in")
    y = Probe()(x)
    assert seen == [("build", (None, 3)), ("call", [None, 3])] and y.shape == (None, 6)
    assert tf.keras.Model(x, y)(np.ones((4, 3))).shape == (4, 6) and seen[-1] == ("call", [4, 3])


def test_functional_model_errors_name_what_to_do():
    a, b = tf.keras.Input(shape=(2,)), tf.keras.Input(shape=(2,), name="forgotten")
    total = tf.keras.layers.Add()([a, b])
    with pytest.raises(ValueError, match="Graph disconnected.*'forgotten'.*pass it in `inputs`"):
        tf.keras.Model(a, total)
    with pytest.raises(ValueError, match="must be KerasTensors"):
        tf.keras.Model(a, tf.ones((1, 2)))
    with pytest.raises(ValueError, match="must come from `tf.keras.Input`"):
        tf.keras.Model(total, tf.keras.layers.ReLU()(total))
    model = tf.keras.Model([a, b], total)
    with pytest.raises(ValueError, match="expects 2 input"):
        model(np.ones((1, 2)))
    with pytest.raises(ValueError, match=r"Input 1 of layer .* expected shape=\(None, 2\), found shape=\(1, 3\)"):
        model([np.ones((1, 2)), np.ones((1, 3))])


def test_functional_model_trains_with_fit_and_passes_training_on():
    tf.keras.utils.set_random_seed(1)
    x = tf.keras.Input(shape=(3,))
    y = tf.keras.layers.Dense(1)(tf.keras.layers.Dropout(0.5)(tf.keras.layers.Dense(8, activation="relu")(x)))
    model = tf.keras.Model(x, y)
    model.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss="mse")
    data = np.random.default_rng(0).random((32, 3)).astype("float32")
    target = data.sum(axis=1, keepdims=True)
    history = model.fit(data, target, epochs=5, batch_size=8, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]
    assert model.predict(data, verbose=0).shape == (32, 1)
    ones = np.ones((4, 3), "float32")
    assert np.array_equal(model(ones, training=False), model(ones, training=False))
    assert not np.array_equal(model(ones, training=True), model(ones, training=True))


def test_summary_of_a_functional_model_lists_its_input_layers():
    x = tf.keras.Input(shape=(4,), name="summary_in")
    model = tf.keras.Model(x, tf.keras.layers.Dense(2, name="summary_dense")(x), name="summarised")
    printed = []
    model.summary(print_fn=printed.append)
    assert "summary_in (InputLayer)" in printed[0] and "(None, 4)" in printed[0] and "Total params: 10" in printed[0]


def test_set_weights_refuses_the_wrong_count_or_shape():
    dense = tf.keras.layers.Dense(2, name="checked")
    dense.build((None, 3))
    with pytest.raises(ValueError, match="weight list of length 1, but the layer was expecting 2 weights"):
        dense.set_weights([np.ones((3, 2))])
    with pytest.raises(ValueError, match=r"shape \(3, 2\) is not compatible with provided weight shape \(3, 3\)"):
        dense.set_weights([np.ones((3, 3)), np.ones(2)])
    assert dense.kernel.numpy().tolist() != np.ones((3, 2)).tolist()       # nothing assigned


def test_bad_constraints_and_thresholds_are_value_errors():
    with pytest.raises(ValueError, match="Could not interpret constraint identifier: bogus"):
        tf.keras.layers.Dense(2, kernel_constraint="bogus")
    with pytest.raises(ValueError, match="Could not interpret constraint identifier: 3"):
        tf.keras.layers.Conv2D(2, 3, bias_constraint=3)
    with pytest.raises(ValueError, match=r"Threshold values must be in \[0, 1\]. Received: \[1.5\]"):
        tf.keras.metrics.Precision(thresholds=1.5)
    with pytest.raises(ValueError, match="class_id is provided, y_pred must be a 2D array"):
        tf.keras.metrics.Recall(class_id=1).update_state([0, 1], [0.2, 0.9])
    with pytest.raises(ValueError, match="needs an initializer"):
        tf.keras.metrics.Metric(name="no_init").add_weight(name="total")


def test_a_constraint_applies_after_the_step_in_fit():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_constraint=tf.keras.constraints.NonNeg(),
                                                       kernel_initializer="zeros")])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.5), loss="mse")
    x = np.array([[1.0, -1.0]] * 4, "float32")
    model.fit(x, np.ones((4, 1), "float32"), epochs=3, verbose=0)
    assert (model.layers[0].kernel.numpy() >= 0).all() and model.layers[0].kernel.numpy()[0, 0] > 0


def test_pooling_aliases_are_keras_classes():
    layers = tf.keras.layers
    assert (layers.MaxPool2D, layers.AvgPool2D, layers.GlobalAvgPool2D, layers.GlobalMaxPool2D) == (
        layers.MaxPooling2D, layers.AveragePooling2D, layers.GlobalAveragePooling2D, layers.GlobalMaxPooling2D)
    x = tf.reshape(tf.range(16.0), (1, 4, 4, 1))
    assert layers.GlobalMaxPool2D()(x).numpy().tolist() == [[15.0]]
    assert layers.MaxPool2D(pool_size=[3, 3])(x).numpy().ravel().tolist() == [10.0]
