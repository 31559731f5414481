# Source: https://www.tensorflow.org/tutorials/quickstart/beginner (tensorflow/docs,
#   site/en/tutorials/quickstart/beginner.ipynb), "TensorFlow 2 quickstart for beginners"
# Changed: `import tensorflow as tf` -> `import minitape as tf`; `mnist = tf.keras.datasets.mnist` and its `load_data()` (a
#   download) -> seeded NumPy uint8 images (1000 train, 200 test) and uint8 labels; `import numpy as np` added;
#   `seeded_weights(model)` (seeded NumPy weights) after the model is built; `verbose=0` added to fit (and
#   `model.fit(...)` -> `_ = model.fit(...)`, its repr prints an address), evaluate's `verbose=2` -> `verbose=0` (timings)
#   and its result shown as its length (the values depend on the Dropout layer's random masks); the probability model's
#   output shown as its shape (same reason)
# xfail: `tf.__version__` is minitape's own "0.1.0" where TF prints "2.21.0"; and the untrained model's logits differ from TF's
#   by about 6e-7 relative (a 784-term float32 dot product summed in another order), past the comparison's 4-ulp tolerance
import numpy as np

def seeded_weights(model):  # added: seeded NumPy initial weights in place of Keras' unseeded random ones
    rng = np.random.default_rng(0)
    model.set_weights([rng.uniform(-0.05, 0.05, w.shape).astype("float32") for w in model.get_weights()])
# %%
import minitape as tf
print("TensorFlow version:", tf.__version__)
# %%
(x_train, y_train), (x_test, y_test) = (np.random.default_rng(0).integers(0, 256, (1000, 28, 28), dtype=np.uint8), np.random.default_rng(1).integers(0, 10, 1000, dtype=np.uint8)), (np.random.default_rng(2).integers(0, 256, (200, 28, 28), dtype=np.uint8), np.random.default_rng(3).integers(0, 10, 200, dtype=np.uint8))
x_train, x_test = x_train / 255.0, x_test / 255.0
# %%
model = tf.keras.models.Sequential([
  tf.keras.layers.Flatten(input_shape=(28, 28)),
  tf.keras.layers.Dense(128, activation='relu'),
  tf.keras.layers.Dropout(0.2),
  tf.keras.layers.Dense(10)
])
seeded_weights(model)
# %%
predictions = model(x_train[:1]).numpy()
predictions
# %%
tf.nn.softmax(predictions).numpy()
# %%
loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
# %%
loss_fn(y_train[:1], predictions).numpy()
# %%
model.compile(optimizer='adam',
              loss=loss_fn,
              metrics=['accuracy'])
# %%
_ = model.fit(x_train, y_train, epochs=5, verbose=0)
# %%
len(model.evaluate(x_test,  y_test, verbose=0))
# %%
probability_model = tf.keras.Sequential([
  model,
  tf.keras.layers.Softmax()
])
# %%
probability_model(x_test[:5]).shape
