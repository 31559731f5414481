# Source: https://github.com/fchollet/deep-learning-with-python-notebooks/blob/master/second_edition/chapter03_introduction-to-keras-and-tf.ipynb
#   (fchollet/deep-learning-with-python-notebooks, second_edition/chapter03_introduction-to-keras-and-tf.ipynb), "The
#   "compile" step" to "Inference: Using a model after training""
# Changed: `import tensorflow as tf` -> `import minitape as tf`, `from tensorflow(.keras) import ...` -> `from minitape(.keras)
#   import ...`; the data cells of the linear-classifier section first, with `np.random.multivariate_normal(` -> seeded
#   `np.random.default_rng(0)/(1).multivariate_normal(` and `np.random.permutation` ->
#   `np.random.default_rng(2).permutation`; `verbose=0` and `shuffle=False` added to fit (progress-bar timings, unseeded
#   shuffle), the second `model.fit(...)` -> `history = model.fit(...)` (its repr prints an address);
#   `seeded_weights(model)` (defined at the top: seeded NumPy uniform(-0.05, 0.05) weights) called once the model has
#   weights, with `model.build(...)` first where the model is built lazily, so that TF's and minitape's unseeded random
#   initial weights do not decide the printed values
# Tolerance: 1e-5 (float32 drift: the gradients' sums over each batch are added in another order than
#   Eigen's, so after 5 epochs of RMSprop one prediction differs from TF's in the 8th digit, -0.12397969 vs -0.12397963)
import numpy as np

def seeded_weights(model):  # added: seeded NumPy initial weights in place of Keras' unseeded random ones
    rng = np.random.default_rng(0)
    model.set_weights([rng.uniform(-0.05, 0.05, w.shape).astype("float32") for w in model.get_weights()])
import minitape as tf
from minitape import keras
# %%
num_samples_per_class = 1000
negative_samples = np.random.default_rng(0).multivariate_normal(
    mean=[0, 3],
    cov=[[1, 0.5],[0.5, 1]],
    size=num_samples_per_class)
positive_samples = np.random.default_rng(1).multivariate_normal(
    mean=[3, 0],
    cov=[[1, 0.5],[0.5, 1]],
    size=num_samples_per_class)
# %%
inputs = np.vstack((negative_samples, positive_samples)).astype(np.float32)
# %%
targets = np.vstack((np.zeros((num_samples_per_class, 1), dtype="float32"),
                     np.ones((num_samples_per_class, 1), dtype="float32")))
# %%
model = keras.Sequential([keras.layers.Dense(1)])
model.compile(optimizer="rmsprop",
              loss="mean_squared_error",
              metrics=["accuracy"])
# %%
model.compile(optimizer=keras.optimizers.RMSprop(),
              loss=keras.losses.MeanSquaredError(),
              metrics=[keras.metrics.BinaryAccuracy()])
model.build((None, 2))
seeded_weights(model)
# %%
history = model.fit(
    inputs,
    targets,
    epochs=5,
    batch_size=128, verbose=0, shuffle=False
)
# %%
history.history
# %%
model = keras.Sequential([keras.layers.Dense(1)])
model.compile(optimizer=keras.optimizers.RMSprop(learning_rate=0.1),
              loss=keras.losses.MeanSquaredError(),
              metrics=[keras.metrics.BinaryAccuracy()])
model.build((None, 2))
seeded_weights(model)

indices_permutation = np.random.default_rng(2).permutation(len(inputs))
shuffled_inputs = inputs[indices_permutation]
shuffled_targets = targets[indices_permutation]

num_validation_samples = int(0.3 * len(inputs))
val_inputs = shuffled_inputs[:num_validation_samples]
val_targets = shuffled_targets[:num_validation_samples]
training_inputs = shuffled_inputs[num_validation_samples:]
training_targets = shuffled_targets[num_validation_samples:]
history = model.fit(
    training_inputs,
    training_targets,
    epochs=5,
    batch_size=16,
    validation_data=(val_inputs, val_targets), verbose=0, shuffle=False
)
# %%
predictions = model.predict(val_inputs, batch_size=128, verbose=0)
print(predictions[:10])
