# %% [markdown]
# # 8. A residual CNN, checkpointed
#
# **You will learn:** to build an image model from Keras layers (`Conv2D`, `BatchNormalization`,
# pooling), to train it with Keras' `fit` and with a `tf.function` step as the seeds' blog writes it,
# to checkpoint each residual block with `tf.recompute_grad`, and to predict — then measure — what
# that saves. This is the case checkpointing is for: convolutions keep whole images for the backward
# pass, and a block recomputed keeps only its input.

# %%
import numpy as np
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

import minitape as tf
import minitape.keras.layers as layers
from minitape.course import exercises

# %% [markdown]
# ## Digits as images
# scikit-learn's 1,797 handwritten digits are 8×8 grey images. Keras' images are NHWC: a batch of
# height × width × channels, here one channel.

# %%
images, labels = load_digits(return_X_y=True)
x_all = (images / 16).astype("float32").reshape(-1, 8, 8, 1)
x_train, x_test, y_train, y_test = train_test_split(x_all, labels, test_size=0.25, stratify=labels, random_state=0)
x_train.shape, x_test.shape

# %% [markdown]
# ## A residual block
# Conv → BN → ReLU → Conv → BN, then the block's input added back (the *skip*) and a last ReLU.
# `BatchNormalization` normalizes each channel by the batch's statistics while training, and by its
# moving averages at test time. Keras' default `momentum=0.99` suits long training; our few hundred
# steps would leave the averages far from the data, so we take 0.9.
#
# The model runs each block through `tf.recompute_grad`: the forward pass records one entry per
# block, holding only its input, and `tape.gradient` runs the block again. BN knows when it is being
# recomputed (`tf.checkpointing.is_recomputing()`), so its moving averages still move once per step.

# %%
class ResidualBlock(tf.keras.Model):
    def __init__(self, filters):
        super().__init__()
        self.conv1 = layers.Conv2D(filters, 3, padding="same", use_bias=False, kernel_initializer="he_normal")
        self.bn1 = layers.BatchNormalization(momentum=0.9)
        self.conv2 = layers.Conv2D(filters, 3, padding="same", use_bias=False, kernel_initializer="he_normal")
        self.bn2 = layers.BatchNormalization(momentum=0.9)
        self.add = layers.Add()

    def call(self, x, training=None):
        h = tf.nn.relu(self.bn1(self.conv1(x), training=training))
        h = self.bn2(self.conv2(h), training=training)
        return tf.nn.relu(self.add([x, h]))


class ResNet(tf.keras.Model):
    def __init__(self, blocks=2, filters=16, checkpoint=True):
        super().__init__()
        self.stem = layers.Conv2D(filters, 3, padding="same", activation="relu", kernel_initializer="he_normal")
        self.blocks = [ResidualBlock(filters) for _ in range(blocks)]
        self.steps = [tf.recompute_grad(block) if checkpoint else block for block in self.blocks]
        self.pool = layers.GlobalAveragePooling2D()
        self.classifier = layers.Dense(10, activation="softmax")

    def call(self, x, training=None):
        h = self.stem(x)
        for step in self.steps:
            h = step(h, training=training)
        return self.classifier(self.pool(h))


tf.keras.utils.set_random_seed(0)
model = ResNet()
model(x_train[:1])
model.summary()

# %% [markdown]
# ## Training with `fit`
# `compile` names the optimiser, the loss and the metrics; `fit` runs the loop: batches of 32, a
# tape around each forward pass, the optimiser's update, and the running means shown per epoch.

# %%
model.compile(optimizer=tf.keras.optimizers.Adam(0.005), loss="sparse_categorical_crossentropy",
              metrics=["accuracy"])
history = model.fit(x_train, y_train, batch_size=32, epochs=2, validation_data=(x_test, y_test))

# %% [markdown]
# ## The blog's `tf.function` step
# The seeds' blog trains with a step of its own (its Example 1), decorated with `@tf.function`.
# minitape runs a `tf.function` eagerly, as TensorFlow does under
# `tf.config.run_functions_eagerly(True)`. Two changes from the blog: `model(images,
# training=True)` — the blog's `model(images)` would leave batch normalization in inference mode
# while training — and the step returns its loss. The labels are one-hot, for `categorical_crossentropy`.
# One more epoch, with a smaller learning rate, finishes the training.

# %%
@tf.function
def train_step(images, labels, model, optimizer):
  with tf.GradientTape() as tape:
    predictions = model(images, training=True)
    loss = tf.keras.losses.categorical_crossentropy(labels, predictions)
  gradients = tape.gradient(loss, model.trainable_variables)
  optimizer.apply_gradients(zip(gradients, model.trainable_variables))
  return loss

optimizer = tf.keras.optimizers.Adam(0.0005)
one_hot = np.eye(10, dtype="float32")[y_train]
order = np.random.default_rng(0).permutation(len(x_train))
losses = [float(tf.reduce_mean(train_step(tf.constant(x_train[rows]), tf.constant(one_hot[rows]), model, optimizer)))
          for rows in np.array_split(order, len(order) // 32)]
test_loss, test_accuracy = model.evaluate(x_test, y_test, verbose=0)
print(f"mean loss of the epoch {np.mean(losses):.4f}; test accuracy: {test_accuracy:.3f}")

# %% [markdown]
# ## What checkpointing saves, beside the theory
# Before measuring, predict. What a tape keeps is what each op's derivative needs (`tape.print_saved()`
# lists it):
#
# | op | keeps |
# | --- | --- |
# | `conv2d` | its input and its filters (a variable: alive anyway, not counted) |
# | batch normalization (`fused_batch_norm`, one primitive) | its input (and `γ`, a variable) |
# | `relu` | its output |
# | the skip's `add` | nothing |
#
# With `A` the bytes of one activation (batch × 8 × 8 × 16 floats), a plain block keeps 4·A: two
# BNs (A each) and two ReLUs — each convolution's input is the output of a ReLU already kept, or
# the block's input. A checkpointed block keeps only its input, and the first block's input is
# ours (made before the tape): so `L` blocks keep `4·L·A` plainly, and `(L − 1)·A` checkpointed.

# %%
probe = ResNet(blocks=4, checkpoint=False)
probe(x_train[:1])
h = probe.stem(tf.constant(x_train[:32]))          # the blocks' input, made before the tapes
A = h.numpy().nbytes

def held(checkpoint):
    with tf.GradientTape() as tape:
        out = h
        for block in probe.blocks:
            out = (tf.recompute_grad(block) if checkpoint else block)(out, training=True)
    return tape.memory_info()["current"]

per_block = 2 * A + 2 * A
theory = {"plain": 4 * per_block, "each block recomputed": 3 * A}
for name, checkpoint in [("plain", False), ("each block recomputed", True)]:
    measured = held(checkpoint)
    print(f"{name:>22}: holds {measured:9,} bytes = {measured / A:4.1f} activations; theory {theory[name]:9,}")

# %% [markdown]
# ## Memory over time: three schedules
# The bytes the tapes hold after every step of one training step, forward then backward, for the same
# four blocks (a batch of 8) under three schedules: **none** (every block plain), **per block** (each
# block under `tf.recompute_grad`) and **√L** (`tf.checkpoint_sequential` in √4 = 2 segments of 2 blocks).
# Plainly the tape climbs through the forward pass and holds everything until the backward pass ends;
# checkpointed, it holds only the blocks' inputs, and the backward pass saw-tooths: each recomputation's
# local tape fills, is differentiated, and lets go. A checkpointed block's forward is one step here (its
# ops run with the tapes paused), so the longer lines are the ones that recorded more: the
# recomputations, counted in the legend.

# %%
def memory_of(schedule, x=h[:8]):
    with tf.events.timeline() as events:
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(schedule(x))
        tape.gradient(loss, probe.trainable_variables)
    return events

steps = [lambda x, block=block: block(x, training=True) for block in probe.blocks]
tf.viz.compare_memory({
    "none": memory_of(tf.checkpointing.schedules.in_order(steps)),
    "per block": memory_of(tf.checkpointing.schedules.in_order([tf.recompute_grad(step) for step in steps])),
    "√L: 2 segments of 2 blocks": memory_of(lambda x: tf.checkpoint_sequential(steps, 2, x)),
})

# %% [markdown]
# ## Watching one block recompute
# One block, tiny, under `recompute_grad`: the forward pass records a single entry; the backward pass
# runs the block again under a local tape — conv, BN, ReLU, conv, BN, add, ReLU — and differentiates it.
# Press ▶.

# %%
small = ResidualBlock(2)
image = tf.constant(x_train[:2, :4, :4, :].repeat(2, axis=-1))
small(image)
checkpointed = tf.recompute_grad(small)
with tf.events.timeline() as events:
    with tf.GradientTape() as tape:
        out = checkpointed(image, training=True)
        loss = tf.reduce_sum(out)
    grads = tape.gradient(loss, small.trainable_variables)
events.names = locals()
events.player()

# %% [markdown]
# ## Exercise: checkpoint under a memory budget
# Six residual blocks (16 channels, a batch of 32), and a budget: the tape may hold at most half of
# what the plain chain holds, plus two and a half activations. Which blocks would you recompute so
# that it fits, recomputing as few as possible? Write their indices (0 to 5) in `my_choice`.
# Hint: a checkpointed block keeps its input; who keeps its *output*?

# %%
chain = ResNet(blocks=6, checkpoint=False)
chain(x_train[:1])
blocks = [lambda h, block=block: block(h, training=True) for block in chain.blocks]
start = chain.stem(tf.constant(x_train[:32]))

my_choice = None          # e.g. {0, 1, 2}
exercises.check_checkpoint_choice(my_choice, blocks, start)

# %% [markdown]
# ## More to try
# 1. Train the plain model (`ResNet(checkpoint=False)`) from the same seed: are the losses the same?
# 2. Put two blocks under one `recompute_grad`. What does the tape hold now, and what does the
#    backward pass run?
# 3. Replace `GlobalAveragePooling2D` by `MaxPooling2D` and `Flatten`. What does `max_pool2d` keep?
