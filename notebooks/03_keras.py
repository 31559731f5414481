# %% [markdown]
# # 3. Keras models under `recompute_grad`, and a real model
#
# **You will learn:** how Keras layers own variables, how `recompute_grad` wraps a layer or a model,
# and how to train an MLP on handwritten digits with a `GradientTape` loop, plainly and checkpointed.

# %%
import numpy as np
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split
from tqdm.auto import tqdm

import minitape as tf

# %% [markdown]
# ## Layers build on first call
# A `Dense` layer does not know its input size until it sees an input; then it creates its weights.

# %%
layer = tf.keras.layers.Dense(3, activation="tanh")
print(layer.built)
layer(tf.ones((2, 5)))
[(v.name, tuple(v.shape)) for v in layer.variables]

# %% [markdown]
# ## Checkpointing a model
# The wrapped function has no `.variables`: keep the model (or use `__wrapped__`).

# %%
model = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="tanh"), tf.keras.layers.Dense(2)])
checkpointed = tf.recompute_grad(model)
x = tf.ones((4, 3))
with tf.GradientTape() as tape:
    y = tf.reduce_sum(checkpointed(x) ** 2)
grads = tape.gradient(y, checkpointed.__wrapped__.trainable_variables)
[tuple(g.shape) for g in grads]

# %% [markdown]
# ## Handwritten digits
# 1,797 8×8 images ship with scikit-learn. We train the same MLP twice, from the same weights on the
# same batches: plainly, and with each hidden block under `recompute_grad`.

# %%
images, labels = load_digits(return_X_y=True)
x_train, x_test, y_train, y_test = train_test_split((images / 16).astype("float32"), labels,
                                                    test_size=0.25, stratify=labels, random_state=0)

class MLP(tf.keras.Model):
    def __init__(self, checkpoint):
        super().__init__()
        self.hidden = [tf.keras.layers.Dense(64, activation="tanh") for _ in range(2)]
        self.readout = tf.keras.layers.Dense(10)
        self.blocks = [tf.recompute_grad(h) if checkpoint else h for h in self.hidden]

    def call(self, x):
        for block in self.blocks:
            x = block(x)
        return self.readout(x)

def train(checkpoint, epochs=15):
    tf.random.set_seed(0)
    model = MLP(checkpoint)
    optimizer = tf.keras.optimizers.Adam(3e-3)
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    order, curve = np.random.default_rng(0), []
    for _ in tqdm(range(epochs), desc="checkpointed" if checkpoint else "plain"):
        losses = []
        for rows in np.array_split(order.permutation(len(x_train)), len(x_train) // 32):
            with tf.GradientTape() as tape:
                loss = loss_fn(y_train[rows], model(tf.constant(x_train[rows])))
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
            losses.append(float(loss))
        curve.append(np.mean(losses))
    accuracy = np.mean(np.argmax(model(tf.constant(x_test)).numpy(), axis=1) == y_test)
    return curve, accuracy

plain_curve, plain_accuracy = train(False)
checkpointed_curve, checkpointed_accuracy = train(True)
print(f"test accuracy: plain {plain_accuracy:.3f}, checkpointed {checkpointed_accuracy:.3f}")
print("largest difference between the loss curves:", np.max(np.abs(np.array(plain_curve) - checkpointed_curve)))

# %% [markdown]
# The curves are identical: recomputation changes when values are computed, not what is computed.
#
# ## Exercises
# 1. Add `tf.keras.layers.Dropout(0.2)` after each hidden layer (call the model with `training=True`
#    while training). Are the two curves still identical? Why?
# 2. Put *both* hidden blocks under one `recompute_grad`. How many entries does the tape hold now?
# 3. Switch to `tf.keras.optimizers.SGD(0.1, momentum=0.9)`. How many epochs reach 97%?
