# Source: https://keras.io/guides/custom_train_step_in_tensorflow/ (keras-team/keras-io, guides/custom_train_step_in_tensorflow.py
#   at b4108fbfe9f0, the Keras 3 text), "Providing your own evaluation step"
# Changed: `import tensorflow as tf` -> `import minitape as tf`, `import keras`/`from keras import layers` -> `from minitape import
#   keras`/`from minitape.keras import layers`; the setup cell's `os.environ["KERAS_BACKEND"] = "tensorflow"` lines dropped;
#   `np.random.random(` -> `rng.random(` with an added `rng = np.random.default_rng(0)`; `seeded_weights(model)` (defined
#   below: seeded NumPy weights) after the model is built, as TF's and minitape's random initial weights differ;
#   `verbose=0` added to `model.evaluate(x, y)` (its progress bar prints timings)
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
    def test_step(self, data):
        # Unpack the data
        x, y = data
        # Compute predictions
        y_pred = self(x, training=False)
        # Updates the metrics tracking the loss
        loss = self.compute_loss(y=y, y_pred=y_pred)
        # Update the metrics.
        for metric in self.metrics:
            if metric.name == "loss":
                metric.update_state(loss)
            else:
                metric.update_state(y, y_pred)
        # Return a dict mapping metric names to current value.
        # Note that it will include the loss (tracked in self.metrics).
        return {m.name: m.result() for m in self.metrics}


# Construct an instance of CustomModel
inputs = keras.Input(shape=(32,))
outputs = keras.layers.Dense(1)(inputs)
model = CustomModel(inputs, outputs)
seeded_weights(model)
model.compile(loss="mse", metrics=["mae"])

# Evaluate with our custom test_step
x = rng.random((1000, 32))
y = rng.random((1000, 1))
model.evaluate(x, y, verbose=0)
