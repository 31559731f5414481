# Source: https://github.com/fchollet/deep-learning-with-python-notebooks/blob/master/chapter07_deep-dive-keras.ipynb
#   (fchollet/deep-learning-with-python-notebooks, chapter07_deep-dive-keras.ipynb, the 3rd edition), "Leveraging fit()
#   with a custom training loop", TensorFlow backend
# Changed: `import tensorflow as tf` -> `import minitape as tf`, `import keras`/`from keras import ...` -> `from minitape import
#   keras`/`from minitape.keras import ...`; the `%%backend tensorflow` cell magics dropped; the model and data cell of
#   "Using built-in training and evaluation loops" first; `mnist.load_data()` (a download) -> seeded NumPy uint8 images
#   (700 train, 100 test) and uint8 labels, the reshapes' 60000/10000 -> 700/100 and the validation split's 10000 -> 200;
#   `verbose=0` added to fit/evaluate/predict (progress-bar timings); the last `model.fit(...)` -> `history =
#   model.fit(..., verbose=0)` and an added line shows `history.history.keys()` (the losses depend on random initial
#   weights and dropout); `import numpy as np` and `import minitape as tf` added
import numpy as np
import minitape as tf
from minitape import keras
from minitape.keras import layers
# %%

def get_mnist_model():
    inputs = keras.Input(shape=(28 * 28,))
    features = layers.Dense(512, activation="relu")(inputs)
    features = layers.Dropout(0.5)(features)
    outputs = layers.Dense(10, activation="softmax")(features)
    model = keras.Model(inputs, outputs)
    return model

(images, labels), (test_images, test_labels) = (np.random.default_rng(0).integers(0, 256, (700, 28, 28), dtype=np.uint8), np.random.default_rng(1).integers(0, 10, 700, dtype=np.uint8)), (np.random.default_rng(2).integers(0, 256, (100, 28, 28), dtype=np.uint8), np.random.default_rng(3).integers(0, 10, 100, dtype=np.uint8))
images = images.reshape((700, 28 * 28)).astype("float32") / 255
test_images = test_images.reshape((100, 28 * 28)).astype("float32") / 255
train_images, val_images = images[200:], images[:200]
train_labels, val_labels = labels[200:], labels[:200]

model = get_mnist_model()
model.compile(
    optimizer="adam",
    loss="sparse_categorical_crossentropy",
    metrics=["accuracy"],
)
model.fit(
    train_images,
    train_labels,
    epochs=3,
    validation_data=(val_images, val_labels),
    verbose=0,
)
test_metrics = model.evaluate(test_images, test_labels, verbose=0)
predictions = model.predict(test_images, verbose=0)
# %%
from minitape import keras
from minitape.keras import layers

loss_fn = keras.losses.SparseCategoricalCrossentropy()
loss_tracker = keras.metrics.Mean(name="loss")

class CustomModel(keras.Model):
    def train_step(self, data):
        inputs, targets = data
        with tf.GradientTape() as tape:
            predictions = self(inputs, training=True)
            loss = loss_fn(targets, predictions)
        gradients = tape.gradient(loss, self.trainable_weights)
        self.optimizer.apply(gradients, self.trainable_weights)

        loss_tracker.update_state(loss)
        return {"loss": loss_tracker.result()}

    @property
    def metrics(self):
        return [loss_tracker]
# %%
def get_custom_model():
    inputs = keras.Input(shape=(28 * 28,))
    features = layers.Dense(512, activation="relu")(inputs)
    features = layers.Dropout(0.5)(features)
    outputs = layers.Dense(10, activation="softmax")(features)
    model = CustomModel(inputs, outputs)
    model.compile(optimizer=keras.optimizers.Adam())
    return model
# %%
model = get_custom_model()
history = model.fit(train_images, train_labels, epochs=3, verbose=0)
history.history.keys()
