"""The image layers' arguments, names and initialisers; training mode; state under recomputation.

Error texts are Keras 3.15's (as TF 2.21 ships it), recorded by hand from /tmp/tfvenv.
"""
import pathlib
import re

import numpy as np
import pytest

import minitape as tf
from minitape.checkpointing import is_recomputing
from record_tf_keras import named_cnn

pytestmark = pytest.mark.usefixtures("backend")     # every test here runs on each backend

layers = tf.keras.layers
RECORDED = np.load(pathlib.Path(__file__).parent / "data" / "tf_keras.npz")


def test_both_import_forms_and_keras_names():
    import minitape.keras.layers as imported
    from minitape.keras import layers as also

    assert imported is also is tf.keras.layers
    names = {cls: cls().name for cls in (layers.Flatten, layers.ReLU, layers.GlobalAveragePooling2D,
                                         layers.BatchNormalization, layers.LayerNormalization, layers.Add)}
    names[layers.Conv2D] = layers.Conv2D(1, 1).name
    names[layers.MaxPooling2D] = layers.MaxPooling2D().name
    bases = {cls: re.sub(r"_\d+$", "", name) for cls, name in names.items()}
    assert bases == {layers.Flatten: "flatten", layers.ReLU: "re_lu", layers.GlobalAveragePooling2D:
                     "global_average_pooling2d", layers.BatchNormalization: "batch_normalization",
                     layers.LayerNormalization: "layer_normalization", layers.Add: "add", layers.Conv2D: "conv2d",
                     layers.MaxPooling2D: "max_pooling2d"}


@pytest.mark.parametrize("make, message", [
    (lambda: layers.Conv2D(0, 3), "Invalid value for argument `filters`. Expected a strictly positive value. "
                                  "Received filters=0."),
    (lambda: layers.Conv2D(4, 0), "The `kernel_size` argument must be a tuple of 2 integers. Received "
                                  "kernel_size=0, including values {0} that do not satisfy `value > 0`"),
    (lambda: layers.Conv2D(4, (3, 3, 3)), "The `kernel_size` argument must be a tuple of 2 integers. Received "
                                          "kernel_size=(3, 3, 3)"),
    (lambda: layers.Conv2D(4, 3, padding="full"), "The `padding` argument must be one of {'valid', 'same'}. "
                                                  "Received: full"),
    (lambda: layers.Conv2D(4, 3, strides=2, dilation_rate=2), "`strides > 1` not supported in conjunction with "
                                                               "`dilation_rate > 1`. Received: strides=(2, 2) and "
                                                               "dilation_rate=(2, 2)"),
    (lambda: layers.Conv2D(4, 3, data_format="channels_first"), "data_format='channels_first' is not supported"),
    (lambda: layers.Conv2D(4, 3)(tf.ones((2, 5, 5))), "Input 0 of layer 'conv2d.*' is incompatible with the layer: "
                                                      "expected min_ndim=4, found ndim=3. Full shape received: "
                                                      "(2, 5, 5)"),
    (lambda: layers.MaxPooling2D(pool_size=0), "The `pool_size` argument must be a tuple of 2 integers. Received "
                                               "pool_size=0"),
    (lambda: layers.MaxPooling2D()(tf.ones((2, 5, 5))), "expected ndim=4, found ndim=3. Full shape received: "
                                                        "(2, 5, 5)"),
    (lambda: layers.GlobalAveragePooling2D()(tf.ones((2, 5, 5))), "expected ndim=4, found ndim=3"),
    (lambda: layers.Add()([tf.ones((2, 3)), tf.ones((2, 4))]), "Inputs have incompatible shapes. Received shapes "
                                                               "(3,) and (4,)"),
    (lambda: layers.Add()(tf.ones((2, 3))), "A merge layer should be called on a list of inputs. Received: "
                                            "input_shape=(2, 3) (not a list of shapes)"),
    (lambda: layers.Embedding(0, 3), "`input_dim` must be a positive integer. Received: input_dim=0 (of type int)."),
    (lambda: layers.Activation("nope"), "Unknown activation function: 'nope'"),
    (lambda: layers.Conv2D(2, 3, kernel_initializer="he_nrmal"), "Could not interpret initializer identifier: "
                                                                  "'he_nrmal'"),
    (lambda: tf.keras.initializers.VarianceScaling(mode="fan_middle"), "Invalid `mode` argument: fan_middle"),
])
def test_bad_arguments_raise_keras_errors(make, message):
    with pytest.raises(ValueError, match=re.escape(message).replace(r"\.\*", ".*")):
        make()


def test_add_takes_a_list_even_of_one():
    x = tf.ones((2, 3))
    np.testing.assert_array_equal(layers.Add()([x]).numpy(), x.numpy())          # as Keras 3


def test_a_conv_layer_checks_its_channels_after_building():
    conv = layers.Conv2D(2, 3, name="conv")
    conv(tf.ones((1, 5, 5, 3)))
    with pytest.raises(ValueError, match=re.escape("expected axis -1 of input shape to have value 3, but received "
                                                   "input with shape (1, 5, 5, 2)")):
        conv(tf.ones((1, 5, 5, 2)))


@pytest.mark.parametrize("name, cls, stddev", [
    ("he_normal", tf.keras.initializers.HeNormal, (2 / 72) ** 0.5),
    ("glorot_normal", tf.keras.initializers.GlorotNormal, (2 / (72 + 3600)) ** 0.5),
])
def test_truncated_normal_initialisers_have_keras_spread(name, cls, stddev):
    shape = (3, 3, 8, 400)                      # fan_in 72, fan_out 3600
    tf.keras.utils.set_random_seed(0)
    by_name = tf.keras.initializers.get(name)(shape).numpy()
    tf.keras.utils.set_random_seed(0)
    np.testing.assert_array_equal(cls()(shape).numpy(), by_name)       # a name and an object: the same draw
    assert abs(by_name.std() / stddev - 1) < 0.02                      # the truncation is compensated...
    assert np.abs(by_name).max() <= 2 * stddev / 0.87962566103423978  # ...and nothing beyond two (raw) sigmas


def test_uniform_and_normal_initialisers_have_keras_defaults():
    assert np.abs(tf.keras.initializers.get("he_uniform")((50, 1000)).numpy()).max() <= (6 / 50) ** 0.5
    assert abs(tf.keras.initializers.RandomNormal()((100_000,)).numpy().std() - 0.05) < 0.001
    assert np.abs(tf.keras.initializers.get("random_uniform")((1000,)).numpy()).max() <= 0.05
    assert tf.keras.initializers.get(tf.keras.initializers.Ones)((2,)).numpy().tolist() == [1.0, 1.0]
    kernel = layers.Conv2D(2, 3, kernel_initializer=tf.keras.initializers.HeNormal(seed=3))
    kernel.build((None, 5, 5, 1))
    assert kernel.kernel.shape == (3, 3, 1, 2)


def make_block():
    class Block(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.conv = layers.Conv2D(2, 3, padding="same")
            self.bn = layers.BatchNormalization()

        def call(self, x):                      # no training argument: the layers inside inherit it
            return tf.nn.relu(self.bn(self.conv(x)))
    return Block()


def test_training_reaches_layers_through_an_outer_call():
    x = tf.random.normal((4, 5, 5, 2))
    block = make_block()
    block(x)                                       # inference: the moving statistics stay put
    np.testing.assert_array_equal(block.bn.moving_mean.numpy(), np.zeros(2))
    block(x, training=True)
    moved = block.bn.moving_mean.numpy()
    assert np.all(moved != 0)
    block.bn(block.conv(x), training=False)        # an explicit value wins
    np.testing.assert_array_equal(block.bn.moving_mean.numpy(), moved)


def test_a_frozen_batch_norm_runs_in_inference_mode():
    bn = layers.BatchNormalization(trainable=False)
    x = tf.constant([[1.0], [3.0]])
    out = bn(x, training=True)
    np.testing.assert_allclose(out.numpy(), x.numpy() / np.sqrt(1.001), rtol=1e-6)
    assert bn.trainable_variables == [] and bn.moving_mean.numpy() == 0


def train_step(block, x, checkpoint):
    run = tf.recompute_grad(block) if checkpoint == "per block" else block
    with tf.GradientTape() as tape:
        if checkpoint == "sequential":
            y = tf.checkpoint_sequential([lambda h: block(h, training=True)], 1, x)
        elif checkpoint == "chain":
            y = tf.checkpoint_chain([lambda h: block(h, training=True)] * 2, x, snapshots=1)
        else:
            y = run(x, training=True)
        loss = tf.reduce_sum(y * y)
    return tape.gradient(loss, block.trainable_variables)


@pytest.mark.parametrize("checkpoint", ["per block", "sequential"])
def test_moving_statistics_move_once_per_step_however_checkpointed(checkpoint):
    x = tf.random.normal((4, 5, 5, 2))
    plain, checkpointed = make_block(), make_block()
    plain(x)
    checkpointed(x)
    for a, b in zip(plain.variables, checkpointed.variables):
        b.assign(a)
    for _ in range(2):
        expected = train_step(plain, x, None)
        got = train_step(checkpointed, x, checkpoint)
        for g, e in zip(got, expected):
            np.testing.assert_allclose(g.numpy(), e.numpy(), rtol=1e-5, atol=1e-6)
    for a, b in zip(plain.variables, checkpointed.variables):
        np.testing.assert_allclose(b.numpy(), a.numpy(), rtol=1e-6)


def test_a_chain_reversed_by_its_schedule_moves_the_statistics_once_per_step_run():
    block, x = make_block(), tf.random.normal((4, 5, 5, 2))
    block(x)
    train_step(block, x, "chain")                       # 2 steps, 1 snapshot: step 0 runs again going back
    reference = make_block()
    reference(x)
    for a, b in zip(block.variables[:2], reference.variables[:2]):
        b.assign(a)
    reference(reference(x, training=True), training=True)
    np.testing.assert_allclose(block.bn.moving_mean.numpy(), reference.bn.moving_mean.numpy(), rtol=1e-6)


@pytest.mark.parametrize("checkpoint", ["recompute_grad", "chain"])
def test_a_block_recomputes_in_the_training_mode_its_forward_pass_had(checkpoint):
    # The model passes no `training` on: its BN inherits it from `model(x, training=True)`. The
    # recomputation runs later, inside tape.gradient, outside that call; it must still train.
    class Net(tf.keras.Model):
        def __init__(self, wrap):
            super().__init__()
            self.block = tf.keras.Sequential([layers.Conv2D(2, 3, padding="same"), layers.BatchNormalization()])
            self.wrap = wrap

        def call(self, x):
            return tf.reduce_sum(self.wrap(self.block)(x) ** 2)

    if checkpoint == "chain":                    # the block twice; with one snapshot, the first runs again
        plain = Net(lambda block: lambda x: block(block(x)))
        checkpointed = Net(lambda block: lambda x: tf.checkpoint_chain([block, block], x, snapshots=1))
    else:
        plain, checkpointed = Net(lambda block: block), Net(tf.recompute_grad)
    x = tf.random.normal((4, 5, 5, 2))
    plain(x)
    checkpointed(x)
    for a, b in zip(plain.variables, checkpointed.variables):
        b.assign(a)
    grads = []
    for net in (plain, checkpointed):
        with tf.GradientTape() as tape:
            y = net(x, training=True)
        grads.append(tape.gradient(y, net.trainable_variables))
    for g, e in zip(grads[1], grads[0]):
        np.testing.assert_allclose(g.numpy(), e.numpy(), rtol=1e-4, atol=1e-4)


def test_is_recomputing_is_true_only_while_a_checkpoint_runs_again():
    seen = []

    def inner(x):
        seen.append(("inner", is_recomputing()))
        return tf.sin(x)

    def outer(x):
        seen.append(("outer", is_recomputing()))
        return tf.recompute_grad(inner)(x) * 2.0

    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.recompute_grad(outer)(x)
    tape.gradient(y, x)
    assert seen == [("outer", False), ("inner", False), ("outer", True), ("inner", True), ("inner", True)]
    assert not is_recomputing()


def test_summary_prints_keras_table(monkeypatch):
    monkeypatch.setenv("COLUMNS", "120")                # recorded in a wide terminal: Keras' 88 columns
    model = named_cnn(tf.keras)
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
    model.fit(np.ones((4, 6, 6, 1), "float32"), np.zeros(4, "int32"), verbose=0)
    printed = []
    model.summary(print_fn=printed.append)
    assert printed[0] == str(RECORDED["summary/named_cnn"])          # TF 2.21's Keras, to the character


def test_sequential_with_input_shape_is_built_at_once():
    model = tf.keras.Sequential([layers.Conv2D(2, 3, input_shape=(8, 8, 1)), layers.Flatten(), layers.Dense(1)])
    assert model.built and [layer.output_shape for layer in model.layers] == [(None, 6, 6, 2), (None, 72), (None, 1)]
    assert model.count_params() == 20 + 73


def test_a_residual_chain_holds_what_the_theory_says():
    """docs/keras-checkpointing.md: a BN keeps its input A, a block two BNs and two ReLU outputs."""
    class Block(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.conv1, self.conv2 = (layers.Conv2D(3, 3, padding="same", use_bias=False) for _ in range(2))
            self.bn1, self.bn2 = layers.BatchNormalization(), layers.BatchNormalization()

        def call(self, x, training=None):
            h = tf.nn.relu(self.bn1(self.conv1(x), training=training))
            return tf.nn.relu(x + self.bn2(self.conv2(h), training=training))

    blocks = [Block() for _ in range(4)]
    steps = [lambda h, block=block: block(h, training=True) for block in blocks]
    x = tf.random.normal((2, 5, 5, 3))
    for block in blocks:
        block(x)
    activation, channels = x.numpy().nbytes, 3

    def held(forward):
        with tf.GradientTape() as tape:
            forward(x)
        return tape.memory_info()["current"]

    def chain(h, checkpoint):
        for step in steps:
            h = tf.recompute_grad(step)(h) if checkpoint else step(h)
        return h

    assert held(lambda h: chain(h, False)) == 4 * (2 * activation + 2 * activation)
    assert held(lambda h: chain(h, True)) == 3 * activation
    assert held(lambda h: tf.checkpoint_sequential(steps, 2, h)) == 1 * activation


def test_a_functional_model_is_built_on_the_current_backend():
    """Building runs layers on stand-ins; they live where the weights are made, so einsum's operands agree."""
    inputs = tf.keras.Input((5, 4))
    attended = tf.keras.layers.MultiHeadAttention(2, 4)(inputs, inputs, use_causal_mask=True)
    model = tf.keras.Model(inputs, tf.keras.layers.GlobalAveragePooling1D()(attended))
    assert model(np.ones((2, 5, 4), "float32")).shape == (2, 4)


def test_a_layer_that_overrides_compute_mask_hangs_its_masks_on_its_outputs():
    # keras.io's masking guide (corpus: kerasio_masking_and_padding): TemporalSplit splits a masked input in two
    # along time and splits the mask with it; Keras 3 calls compute_mask for any layer that overrides it.
    from minitape.keras.masking import get_keras_mask, set_keras_mask

    class TemporalSplit(tf.keras.layers.Layer):
        def call(self, inputs):
            return tf.split(inputs, 2, axis=1)

        def compute_mask(self, inputs, mask=None):
            return None if mask is None else tf.split(mask, 2, axis=1)

    assert TemporalSplit().supports_masking and not tf.keras.layers.Layer().supports_masking
    x = tf.ones((2, 4, 3))
    set_keras_mask(x, tf.constant([[True, True, True, False], [True, False, False, False]]))
    first, second = TemporalSplit()(x)
    # TF 2.21 prints these two masks for the same split.
    assert get_keras_mask(first).numpy().tolist() == [[True, True], [True, False]]
    assert get_keras_mask(second).numpy().tolist() == [[True, False], [False, False]]

    class NoMask(TemporalSplit):
        supports_masking = False                  # said outright, it wins, as Keras' setter does

    assert get_keras_mask(NoMask()(x)[0]) is None


def test_nn_embedding_lookup_gathers_rows_and_clips_them_to_max_norm():
    table = tf.Variable([[0.0, 0.0], [3.0, 4.0], [1.0, 1.0]])
    with tf.GradientTape() as tape:
        rows = tf.nn.embedding_lookup(table, [[1, 2], [1, 1]])
        total = tf.reduce_sum(rows)
    assert rows.numpy()[0].tolist() == [[3.0, 4.0], [1.0, 1.0]]
    assert tf.convert_to_tensor(tape.gradient(total, table)).numpy().tolist() == [[0, 0], [3, 3], [1, 1]]
    assert tf.nn.embedding_lookup([table], [1], max_norm=1.0).numpy()[0].tolist() == pytest.approx([0.6, 0.8])
    with pytest.raises(tf.errors.UnimplementedError, match="shards"):
        tf.nn.embedding_lookup([table, table], [1])
