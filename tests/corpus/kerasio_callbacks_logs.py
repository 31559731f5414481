# Source: https://keras.io/guides/writing_your_own_callbacks/ (keras-team/keras-io, guides/writing_your_own_callbacks.py, in its
#   2022 TensorFlow-era copy Md557/keras-io at 98dedbd; the Keras 3 text was not at hand), "Usage of logs dict"
# Changed: `import tensorflow as tf` -> `import minitape as tf`, `from tensorflow(.keras) import ...` -> `from minitape(.keras)
#   import ...`; cells split where the guide's text blocks split them; `tf.keras.datasets.mnist.load_data()` (a download)
#   -> seeded NumPy uint8 images (1000 each, 28x28) and uint8 labels; `import numpy as np` added; `shuffle=False` added to
#   fit (an unseeded shuffle) and `seeded_weights(model)` (defined at the top: seeded NumPy weights) after `get_model()`,
#   so that unseeded random initial weights do not decide the printed losses; `model.fit(...)` -> `_ = model.fit(...)`
#   (its History repr prints an address)
import numpy as np

def seeded_weights(model):  # added: seeded NumPy initial weights in place of Keras' unseeded random ones
    rng = np.random.default_rng(0)
    model.set_weights([rng.uniform(-0.05, 0.05, w.shape).astype("float32") for w in model.get_weights()])
# %%
import minitape as tf
from minitape import keras
# %%
def get_model():
    model = keras.Sequential()
    model.add(keras.layers.Dense(1, input_dim=784))
    model.compile(
        optimizer=keras.optimizers.RMSprop(learning_rate=0.1),
        loss="mean_squared_error",
        metrics=["mean_absolute_error"],
    )
    return model
# %%
(x_train, y_train), (x_test, y_test) = (np.random.default_rng(0).integers(0, 256, (1000, 28, 28), dtype=np.uint8), np.random.default_rng(1).integers(0, 10, 1000, dtype=np.uint8)), (np.random.default_rng(2).integers(0, 256, (1000, 28, 28), dtype=np.uint8), np.random.default_rng(3).integers(0, 10, 1000, dtype=np.uint8))
x_train = x_train.reshape(-1, 784).astype("float32") / 255.0
x_test = x_test.reshape(-1, 784).astype("float32") / 255.0

# Limit the data to 1000 samples
x_train = x_train[:1000]
y_train = y_train[:1000]
x_test = x_test[:1000]
y_test = y_test[:1000]
# %%
class LossAndErrorPrintingCallback(keras.callbacks.Callback):
    def on_train_batch_end(self, batch, logs=None):
        print(
            "Up to batch {}, the average loss is {:7.2f}.".format(batch, logs["loss"])
        )

    def on_test_batch_end(self, batch, logs=None):
        print(
            "Up to batch {}, the average loss is {:7.2f}.".format(batch, logs["loss"])
        )

    def on_epoch_end(self, epoch, logs=None):
        print(
            "The average loss for epoch {} is {:7.2f} "
            "and mean absolute error is {:7.2f}.".format(
                epoch, logs["loss"], logs["mean_absolute_error"]
            )
        )


model = get_model()
seeded_weights(model)
_ = model.fit(
    x_train,
    y_train,
    batch_size=128,
    epochs=2,
    verbose=0,
    shuffle=False,
    callbacks=[LossAndErrorPrintingCallback()],
)

res = model.evaluate(
    x_test,
    y_test,
    batch_size=128,
    verbose=0,
    callbacks=[LossAndErrorPrintingCallback()],
)
