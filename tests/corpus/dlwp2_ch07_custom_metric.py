# Source: https://github.com/fchollet/deep-learning-with-python-notebooks/blob/master/second_edition/chapter07_working-with-keras.ipynb
#   (fchollet/deep-learning-with-python-notebooks, second_edition/chapter07_working-with-keras.ipynb), "Using built-in
#   training and evaluation loops" and "Writing your own metrics"
# Changed: `import tensorflow as tf` -> `import minitape as tf`, `from tensorflow(.keras) import ...` -> `from minitape(.keras)
#   import ...`; imports of the chapter's first cell added; `mnist.load_data()` (a download) -> seeded NumPy uint8 images
#   (700 train, 100 test, 28x28) and uint8 labels 0-9, and the reshapes' 60000/10000 -> 700/100, the validation split's
#   10000 -> 200; `verbose=0` added to fit/evaluate/predict (progress-bar timings); an added last line shows
#   `test_metrics`' length (its values depend on unseeded initial weights and dropout)
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
import minitape as tf

class RootMeanSquaredError(keras.metrics.Metric):

    def __init__(self, name="rmse", **kwargs):
        super().__init__(name=name, **kwargs)
        self.mse_sum = self.add_weight(name="mse_sum", initializer="zeros")
        self.total_samples = self.add_weight(
            name="total_samples", initializer="zeros", dtype="int32")

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true = tf.one_hot(y_true, depth=tf.shape(y_pred)[1])
        mse = tf.reduce_sum(tf.square(y_true - y_pred))
        self.mse_sum.assign_add(mse)
        num_samples = tf.shape(y_pred)[0]
        self.total_samples.assign_add(num_samples)

    def result(self):
        return tf.sqrt(self.mse_sum / tf.cast(self.total_samples, tf.float32))

    def reset_state(self):
        self.mse_sum.assign(0.)
        self.total_samples.assign(0)
# %%
model = get_mnist_model()
model.compile(optimizer="rmsprop",
              loss="sparse_categorical_crossentropy",
              metrics=["accuracy", RootMeanSquaredError()])
model.fit(train_images, train_labels,
          epochs=3,
          validation_data=(val_images, val_labels), verbose=0)
test_metrics = model.evaluate(test_images, test_labels, verbose=0)
len(test_metrics)
