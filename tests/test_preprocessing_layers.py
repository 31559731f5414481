"""The augmentation layers' geometry and gradients, ``adapt`` on batches, and the layers inside models: what a
recording of TF cannot pin down (Keras' random draws differ from minitape's), checked by construction."""
import numpy as np
import pytest

import minitape as tf
from minitape.course.gradcheck import check_gradients
from minitape.keras.layers.image_preprocessing import affine_transform
from minitape.keras.layers.separable import depthwise_conv2d
from minitape.keras.layers.convolutional3d import conv3d

L = tf.keras.layers
IMAGES = np.random.default_rng(0).uniform(size=(2, 4, 4, 3)).astype("float32")


def test_a_quarter_turn_is_rot90():
    turned = L.RandomRotation((0.25, 0.25), fill_mode="constant")(IMAGES)
    np.testing.assert_allclose(turned.numpy(), tf.image.rot90(IMAGES).numpy(), atol=1e-5)


def test_translation_by_one_pixel_fills_with_the_fill_value():
    moved = L.RandomTranslation((0.25, 0.25), (0.0, 0.0), fill_mode="constant", fill_value=-1.0)(IMAGES)
    np.testing.assert_allclose(moved.numpy()[:, 1:], IMAGES[:, :-1], atol=1e-6)
    assert (moved.numpy()[:, 0] == -1).all()


@pytest.mark.parametrize("fill_mode", ["reflect", "wrap", "nearest", "constant"])
def test_a_zoom_out_keeps_the_centre_and_fills_the_border(fill_mode):
    zoomed = L.RandomZoom((1.0, 1.0), fill_mode=fill_mode, interpolation="nearest")(np.ones((1, 5, 5, 1), "float32"))
    assert zoomed.numpy()[0, 2, 2, 0] == 1 and (zoomed.numpy() == 0).any() == (fill_mode == "constant")


def test_random_layers_draw_again_each_call_and_pass_through_at_inference():
    flip = L.RandomFlip(seed=None)
    tf.random.set_seed(0)
    outs = [flip(IMAGES).numpy() for _ in range(8)]
    assert any(not np.array_equal(outs[0], out) for out in outs[1:])
    assert flip(IMAGES, training=False) is not None and np.array_equal(flip(IMAGES, training=False), IMAGES)


def test_affine_transform_gradient_against_finite_differences():
    transforms = np.array([[0.9, -0.3, 0.7, 0.2, 1.1, -0.4]] * 2)
    for fill_mode in ("reflect", "constant"):
        check_gradients(lambda x: affine_transform(x, transforms, fill_mode, 0.5), IMAGES.astype("float64"))


def test_a_misspelt_flip_mode_is_refused():
    """Keras 3.15 accepts ``RandomFlip("diagonal")`` and flips nothing: a silent no-op minitape refuses."""
    with pytest.raises(ValueError, match="unknown mode argument diagonal"):
        L.RandomFlip("diagonal")


def test_normalization_adapts_on_a_generator_of_batches_as_on_the_whole():
    data = np.random.default_rng(1).normal(3.0, 2.0, size=(50, 4)).astype("float32")
    whole, batched = L.Normalization(), L.Normalization()
    whole.adapt(data)
    batched.adapt(data[i:i + 16] for i in range(0, 50, 16))
    np.testing.assert_allclose(batched.adapt_mean.numpy(), data.mean(0), rtol=1e-5)
    np.testing.assert_allclose(batched.adapt_variance.numpy(), data.var(0), rtol=1e-4)
    np.testing.assert_allclose(whole(data).numpy(), batched(data).numpy(), atol=1e-5)
    assert not batched.trainable_weights and len(batched.non_trainable_weights) == 3


def test_normalization_adapts_on_a_dataset_of_rows_or_of_labelled_batches():
    """Duck-typed as a ``tf.data.Dataset``: rows (rank-1 elements) are batched first, pairs give their ``x``."""
    class Rows:
        def __init__(self, batches, spec_shape):
            self.batches, self.element_spec = batches, tf.TensorSpec(spec_shape)

        def batch(self, size):
            stacked = np.stack(self.batches)
            return Rows([stacked[i:i + size] for i in range(0, len(stacked), size)], (None, *stacked.shape[1:]))

        def __iter__(self):
            return iter(self.batches)
    data = np.random.default_rng(3).normal(size=(300, 2)).astype("float32")
    rows, pairs = L.Normalization(), L.Normalization()
    rows.adapt(Rows(list(data), (2,)))
    pairs.adapt([(data[:150], None), (data[150:], None)])
    for layer in (rows, pairs):
        np.testing.assert_allclose(layer.adapt_mean.numpy(), data.mean(0), rtol=1e-4, atol=1e-6)


def test_preprocessing_in_a_model_that_fits():
    tf.keras.utils.set_random_seed(0)
    model = tf.keras.Sequential([tf.keras.Input((4, 4, 3)), L.Rescaling(1 / 255.0), L.RandomFlip(),
                                 L.RandomRotation(0.1), L.Resizing(2, 2), L.Flatten(), L.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    x = (IMAGES * 255).astype("float32")
    history = model.fit(x, np.ones((2, 1), "float32"), epochs=2, verbose=0)
    assert len(history.history["loss"]) == 2
    np.testing.assert_allclose(model.predict(x, verbose=0), model.predict(x, verbose=0))   # no augmentation


def test_merge_layers_in_a_functional_model():
    a, b = tf.keras.Input((3,)), tf.keras.Input((3,))
    joined = L.concatenate([L.add([a, b]), L.multiply([a, b]), L.Dot(axes=1)([a, b])])
    out = L.Reshape((-1, 1))(joined)
    model = tf.keras.Model([a, b], out)
    assert model.output_shape == (None, 7, 1)
    x = np.array([[1.0, 2.0, 3.0]], "float32")
    np.testing.assert_allclose(model([x, x]).numpy().ravel(), [2, 4, 6, 1, 4, 9, 14])


def test_depthwise_convolution_gradients_against_finite_differences():
    depthwise, pointwise = np.cos(np.arange(24.0)).reshape(2, 2, 3, 2), np.sin(np.arange(12.0)).reshape(1, 1, 6, 2)
    check_gradients(lambda x, d, p: tf.nn.conv2d(depthwise_conv2d(x, d, (1, 1), "SAME"), p, 1, "VALID"),
                    IMAGES.astype("float64"), depthwise, pointwise)


def test_conv3d_gradients_against_finite_differences():
    volume = np.random.default_rng(2).normal(size=(1, 3, 4, 3, 2))
    kernel = np.cos(np.arange(48.0)).reshape(2, 3, 2, 2, 2)
    check_gradients(lambda x, k: conv3d(x, k, (2, 1, 1), "same"), volume, kernel)
