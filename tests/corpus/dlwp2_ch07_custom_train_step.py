# Source: https://github.com/fchollet/deep-learning-with-python-notebooks/blob/master/second_edition/chapter07_working-with-keras.ipynb
#   (fchollet/deep-learning-with-python-notebooks, second_edition/chapter07_working-with-keras.ipynb), "Leveraging fit()
#   with a custom training loop"
# Changed: `import tensorflow as tf` -> `import minitape as tf`, `from tensorflow(.keras) import ...` -> `from minitape(.keras)
#   import ...`; imports of the chapter's first cell added; the model and data cell of "Using built-in training and
#   evaluation loops" first; `mnist.load_data()` (a download) -> seeded NumPy uint8 images (700 train, 100 test, 28x28)
#   and uint8 labels 0-9, and the reshapes' 60000/10000 -> 700/100, the validation split's 10000 -> 200; `verbose=0` added
#   to fit/evaluate/predict (progress-bar timings); both `model.fit(train_images, train_labels, epochs=3)` -> `history =
#   model.fit(..., verbose=0)` and an added line shows `history.history.keys()` (the losses depend on unseeded initial
#   weights and dropout)
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
model.compile(optimizer="rmsprop",
              loss="sparse_categorical_crossentropy",
              metrics=["accuracy"])
model.fit(train_images, train_labels,
          epochs=3,
          validation_data=(val_images, val_labels), verbose=0)
test_metrics = model.evaluate(test_images, test_labels, verbose=0)
predictions = model.predict(test_images, verbose=0)
# %%
loss_fn = keras.losses.SparseCategoricalCrossentropy()
loss_tracker = keras.metrics.Mean(name="loss")

class CustomModel(keras.Model):
    def train_step(self, data):
        inputs, targets = data
        with tf.GradientTape() as tape:
            predictions = self(inputs, training=True)
            loss = loss_fn(targets, predictions)
        gradients = tape.gradient(loss, self.trainable_weights)
        self.optimizer.apply_gradients(zip(gradients, self.trainable_weights))

        loss_tracker.update_state(loss)
        return {"loss": loss_tracker.result()}

    @property
    def metrics(self):
        return [loss_tracker]
# %%
inputs = keras.Input(shape=(28 * 28,))
features = layers.Dense(512, activation="relu")(inputs)
features = layers.Dropout(0.5)(features)
outputs = layers.Dense(10, activation="softmax")(features)
model = CustomModel(inputs, outputs)

model.compile(optimizer=keras.optimizers.RMSprop())
history = model.fit(train_images, train_labels, epochs=3, verbose=0)
history.history.keys()
# %%
class CustomModel(keras.Model):
    def train_step(self, data):
        inputs, targets = data
        with tf.GradientTape() as tape:
            predictions = self(inputs, training=True)
            loss = self.compiled_loss(targets, predictions)
        gradients = tape.gradient(loss, self.trainable_weights)
        self.optimizer.apply_gradients(zip(gradients, self.trainable_weights))
        self.compiled_metrics.update_state(targets, predictions)
        return {m.name: m.result() for m in self.metrics}
# %%
inputs = keras.Input(shape=(28 * 28,))
features = layers.Dense(512, activation="relu")(inputs)
features = layers.Dropout(0.5)(features)
outputs = layers.Dense(10, activation="softmax")(features)
model = CustomModel(inputs, outputs)

model.compile(optimizer=keras.optimizers.RMSprop(),
              loss=keras.losses.SparseCategoricalCrossentropy(),
              metrics=[keras.metrics.SparseCategoricalAccuracy()])
history = model.fit(train_images, train_labels, epochs=3, verbose=0)
history.history.keys()
