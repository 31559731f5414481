"""The small Keras the seeds need: layers build on first call, own variables, cast ints."""
import numpy as np
import pytest

import minitape as tf

pytestmark = pytest.mark.usefixtures("backend")     # every test here runs on each backend


def test_dense_builds_on_first_call_and_names_variables():
    layer = tf.keras.layers.Dense(3, name="hidden")
    assert not layer.built and layer.variables == []
    out = layer(tf.constant([[1, 2]]))                     # integers are cast to float32
    assert out.dtype == tf.float32 and out.shape == (1, 3)
    assert [v.name for v in layer.variables] == ["kernel", "bias"]
    assert [v.path for v in layer.variables] == ["hidden/kernel", "hidden/bias"]
    np.testing.assert_array_equal(layer.bias.numpy(), np.zeros(3))


class Affine(tf.keras.layers.Layer):
    """A custom layer whose build makes its weights and does not call ``super().build``."""

    def build(self, input_shape):
        self.W = self.add_weight(shape=(input_shape[-1], 2), name="W")
        self.b = self.add_weight(shape=(2,), name="b")

    def call(self, x):
        return x @ self.W + self.b


class AffineModel(tf.keras.Model):
    def build(self, input_shape):
        self.W = self.add_weight(shape=(input_shape[-1], 2), name="W")

    def call(self, x):
        return x @ self.W


@pytest.mark.parametrize("cls", [Affine, AffineModel])
def test_a_layer_built_by_hand_is_not_built_again_by_its_call(cls):
    # As Keras 3 (which wraps build): build() called directly marks the layer built, so the first call uses
    # the weights it made instead of making a second set the gradient cannot reach.
    layer = cls()
    layer.build((1, 2))
    assert layer.built
    made = list(layer.trainable_variables)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(layer(tf.ones((1, 2))))
    assert len(layer.trainable_variables) == len(made) and all(a is b for a, b in zip(layer.trainable_variables, made))
    assert all(g is not None for g in tape.gradient(y, layer.trainable_variables))


def test_a_failed_build_leaves_the_layer_unbuilt():
    class Refuses(tf.keras.layers.Layer):
        def build(self, input_shape):
            raise ValueError("no")

    layer = Refuses()
    with pytest.raises(ValueError):
        layer.build((1, 2))
    assert not layer.built


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


# ---- optimisers: Keras' update rules (values checked against TensorFlow 2.21's Keras)

def three_steps(optimizer):
    w = tf.Variable([1.0, -2.0])
    for k in range(3):
        optimizer.apply_gradients([(tf.constant([0.5 * (k + 1), -0.25]), w)])
    return w.numpy()


@pytest.mark.parametrize("optimizer,expected", [
    (lambda: tf.keras.optimizers.SGD(0.1), [0.7, -1.925]),
    (lambda: tf.keras.optimizers.SGD(0.1, momentum=0.9), [0.5245, -1.85975]),
    (lambda: tf.keras.optimizers.SGD(0.1, momentum=0.9, nesterov=True), [0.27205, -1.798775]),
    (lambda: tf.keras.optimizers.Adam(0.01), [0.97076845, -1.9700006]),
])
def test_optimisers_match_keras_after_several_steps(optimizer, expected):
    np.testing.assert_allclose(three_steps(optimizer()), expected, rtol=1e-6)


def test_adam_first_step_closed_form():
    w, g = tf.Variable([0.5]), 0.3
    tf.keras.optimizers.Adam(learning_rate=0.01).apply_gradients([(tf.constant([g]), w)])
    alpha = 0.01 * np.sqrt(1 - 0.999) / (1 - 0.9)
    step = alpha * (0.1 * g) / (np.sqrt(0.001 * g * g) + 1e-7)
    np.testing.assert_allclose(w.numpy(), [0.5 - step], rtol=1e-6)


def test_apply_gradients_skips_none_with_keras_warning_and_checks_its_input():
    w, v = tf.Variable(1.0), tf.Variable(2.0)
    opt = tf.keras.optimizers.SGD(0.1)
    with pytest.warns(UserWarning, match=r"Gradients do not exist for variables \['Variable:0'\]"):
        opt.apply_gradients([(None, w), (tf.constant(1.0), v)])
    assert (w.numpy(), v.numpy()) == (np.float32(1.0), np.float32(1.9))
    with pytest.raises(ValueError, match="No gradients provided for any variable."):
        opt.apply_gradients([(None, w)])
    with pytest.raises(ValueError, match="got 1 gradients for 2 variables"):
        opt.apply([tf.constant(1.0)], [w, v])
    with pytest.raises(ValueError, match=r"gradient of shape \(2,\) for variable 'Variable:0' of shape \(\)"):
        opt.apply_gradients([(tf.constant([1.0, 2.0]), w)])
    with pytest.raises(ValueError, match="takes \\(gradient, variable\\) pairs"):
        opt.apply_gradients([tf.constant(1.0)])


# ---- losses: formulas, Keras' clipping, and gradients

Y_TRUE = np.array([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]], np.float32)
Y_PRED = np.array([[0.2, 0.5, 0.3], [0.0, 0.4, 1.2]], np.float32)


def test_losses_match_keras():
    losses = tf.keras.losses
    np.testing.assert_allclose(losses.categorical_crossentropy(Y_TRUE, Y_PRED).numpy(), [0.6931472, 16.118095], rtol=1e-6)
    np.testing.assert_allclose(losses.categorical_crossentropy(Y_TRUE, Y_PRED, from_logits=True).numpy(),
                               [0.9398311, 1.7599146], rtol=1e-6)
    np.testing.assert_allclose(losses.SparseCategoricalCrossentropy()(np.array([1, 0]), Y_PRED).numpy(), 8.573857, rtol=1e-6)
    np.testing.assert_allclose(losses.MeanSquaredError()(Y_TRUE, Y_PRED).numpy(), 0.49666664, rtol=1e-6)


def test_loss_formulas_and_gradients():
    from minitape.course.gradcheck import check_gradients
    rng = np.random.default_rng(0)
    logits, target = rng.normal(size=(4, 5)), rng.normal(size=(4, 3))
    probabilities = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    labels = np.array([0, 3, 1, 4])
    sparse = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, dtype="float64")  # float32 by default
    np.testing.assert_allclose(sparse(labels, logits).numpy(), -np.mean(np.log(probabilities[np.arange(4), labels])))
    check_gradients(lambda z: sparse(labels, z), logits)
    check_gradients(lambda p: tf.keras.losses.categorical_crossentropy(np.eye(5)[labels], p), probabilities)
    check_gradients(lambda y: tf.keras.losses.MeanSquaredError(dtype="float64")(target, y), rng.normal(size=(4, 3)))


# ---- a real model: digits, plainly and with each hidden block recomputed

def test_digits_mlp_trains_identically_with_and_without_recompute_grad():
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).parent.parent / "benchmarks"))
    import digits

    x_train, x_test, y_train, y_test = digits.digits()
    plain, checkpointed = digits.build(False), digits.build(True)
    curves = [digits.train(model, x_train, y_train, epochs=6) for model in (plain, checkpointed)]
    np.testing.assert_allclose(curves[0], curves[1], rtol=1e-6)
    assert curves[0][-1] < curves[0][0] / 5
    assert digits.accuracy(checkpointed, x_test, y_test) >= 0.95
