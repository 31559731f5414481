# Source: https://github.com/https-deeplearning-ai/tensorflow-1-public/blob/main/C1/W2/ungraded_labs/C1_W2_Lab_2_callbacks.ipynb
#   (https-deeplearning-ai/tensorflow-1-public, C1/W2/ungraded_labs/C1_W2_Lab_2_callbacks.ipynb), "Ungraded Lab: Using
#   Callbacks to Control Training"
# Changed: `import tensorflow as tf` -> `import minitape as tf`; `fmnist = tf.keras.datasets.fashion_mnist` and its `load_data()`
#   (a download) -> seeded NumPy uint8 images (1000 train, 200 test) and uint8 labels with Fashion MNIST's shapes;
#   `verbose=0` and `shuffle=False` added to fit and `model.fit(...)` -> `history = model.fit(...)` with an added
#   `history.epoch` line; `seeded_weights(model)` after the model is built (seeded NumPy weights)
import numpy as np

def seeded_weights(model):  # added: seeded NumPy initial weights in place of Keras' unseeded random ones
    rng = np.random.default_rng(0)
    model.set_weights([rng.uniform(-0.05, 0.05, w.shape).astype("float32") for w in model.get_weights()])
# %%
import minitape as tf

# Load the dataset
(x_train, y_train), (x_test, y_test) = (np.random.default_rng(0).integers(0, 256, (1000, 28, 28), dtype=np.uint8), np.random.default_rng(1).integers(0, 10, 1000, dtype=np.uint8)), (np.random.default_rng(2).integers(0, 256, (200, 28, 28), dtype=np.uint8), np.random.default_rng(3).integers(0, 10, 200, dtype=np.uint8))

# Normalize the pixel values
x_train, x_test = x_train / 255.0, x_test / 255.0
# %%
class myCallback(tf.keras.callbacks.Callback):
    def on_epoch_end(self, epoch, logs=None):
        '''
        Halts the training when the loss falls below 0.4

        Args:
            epoch (integer) - index of epoch (required but unused in the function definition below)
            logs (dict) - metric results from the training epoch
        '''

        # Check the loss
        if logs['loss'] < 0.4:

            # Stop if threshold is met
            print("\nLoss is lower than 0.4 so cancelling training!")
            self.model.stop_training = True
# %%
# Define the model
model = tf.keras.models.Sequential([
    tf.keras.Input(shape=(28,28)),
    tf.keras.layers.Flatten(),
    tf.keras.layers.Dense(512, activation=tf.nn.relu),
    tf.keras.layers.Dense(10, activation=tf.nn.softmax)
])
seeded_weights(model)

# Compile the model
model.compile(optimizer=tf.optimizers.Adam(),
              loss='sparse_categorical_crossentropy',
              metrics=['accuracy'])
# %%
# Train the model with a callback
history = model.fit(x_train, y_train, epochs=10, callbacks=[myCallback()], verbose=0, shuffle=False)
history.epoch
