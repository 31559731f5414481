# Source: https://keras.io/guides/custom_train_step_in_tensorflow/ (keras-team/keras-io, guides/custom_train_step_in_tensorflow.py
#   at b4108fbfe9f0, the Keras 3 text), "Going lower-level"
# Changed: `import tensorflow as tf` -> `import minitape as tf`, `import keras`/`from keras import layers` -> `from minitape import
#   keras`/`from minitape.keras import layers`; the setup cell's `os.environ["KERAS_BACKEND"] = "tensorflow"` lines dropped;
#   `np.random.random(` -> `rng.random(` with an added `rng = np.random.default_rng(0)`; `seeded_weights(model)` (defined
#   below: seeded NumPy weights) after the model is built, as TF's and minitape's random initial weights differ;
#   `model.fit(...)` -> `history = model.fit(..., verbose=0, shuffle=False)` with an added line showing the History
#   rounded to 4 decimals, as the progress bar (which prints timings) shows it
import minitape as tf
from minitape import keras
from minitape.keras import layers
import numpy as np


def seeded_weights(model):  # added: seeded NumPy initial weights in place of Keras' random ones
    rng = np.random.default_rng(0)
    model.set_weights([rng.uniform(-0.05, 0.05, w.shape).astype("float32") for w in model.get_weights()])


rng = np.random.default_rng(0)
# %%
class CustomModel(keras.Model):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.loss_tracker = keras.metrics.Mean(name="loss")
        self.mae_metric = keras.metrics.MeanAbsoluteError(name="mae")
        self.loss_fn = keras.losses.MeanSquaredError()

    def train_step(self, data):
        x, y = data

        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)  # Forward pass
            # Compute our own loss
            loss = self.loss_fn(y, y_pred)

        # Compute gradients
        trainable_vars = self.trainable_variables
        gradients = tape.gradient(loss, trainable_vars)

        # Update weights
        self.optimizer.apply(gradients, trainable_vars)

        # Compute our own metrics
        self.loss_tracker.update_state(loss)
        self.mae_metric.update_state(y, y_pred)
        return {
            "loss": self.loss_tracker.result(),
            "mae": self.mae_metric.result(),
        }

    @property
    def metrics(self):
        # We list our `Metric` objects here so that `reset_states()` can be
        # called automatically at the start of each epoch
        # or at the start of `evaluate()`.
        return [self.loss_tracker, self.mae_metric]


# Construct an instance of CustomModel
inputs = keras.Input(shape=(32,))
outputs = keras.layers.Dense(1)(inputs)
model = CustomModel(inputs, outputs)
seeded_weights(model)

# We don't pass a loss or metrics here.
model.compile(optimizer="adam")

# Just use `fit` as usual -- you can use callbacks, etc.
x = rng.random((1000, 32))
y = rng.random((1000, 1))
history = model.fit(x, y, epochs=5, verbose=0, shuffle=False)
{k: [round(v, 4) for v in vs] for k, vs in history.history.items()}
