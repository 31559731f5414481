# Source: https://github.com/fchollet/deep-learning-with-python-notebooks/blob/master/second_edition/chapter02_mathematical-building-blocks.ipynb
#   (fchollet/deep-learning-with-python-notebooks, second_edition/chapter02_mathematical-building-blocks.ipynb), "A first
#   look at a neural network"
# Changed: `import tensorflow as tf` -> `import minitape as tf`, `from tensorflow(.keras) import ...` -> `from minitape(.keras)
#   import ...`; `mnist.load_data()` (a download) -> seeded NumPy uint8 images (600 train, 100 test, 28x28) and uint8
#   labels 0-9, and the reshapes' 60000/10000 -> 600/100; `verbose=0` added to fit/predict/evaluate (Keras' progress bar
#   prints timings) and `shuffle=False` to fit (an unseeded shuffle); `model.fit(...)` -> `history = model.fit(...)` (the
#   History's repr prints its address); `seeded_weights(model)` (defined at the top: seeded NumPy uniform(-0.05, 0.05)
#   weights) called once the model has weights, with `model.build(...)` first where the model is built lazily, so that
#   TF's and minitape's unseeded random initial weights do not decide the printed values
import numpy as np

def seeded_weights(model):  # added: seeded NumPy initial weights in place of Keras' unseeded random ones
    rng = np.random.default_rng(0)
    model.set_weights([rng.uniform(-0.05, 0.05, w.shape).astype("float32") for w in model.get_weights()])
import minitape as tf
# %%
(train_images, train_labels), (test_images, test_labels) = (np.random.default_rng(0).integers(0, 256, (600, 28, 28), dtype=np.uint8), np.random.default_rng(1).integers(0, 10, 600, dtype=np.uint8)), (np.random.default_rng(2).integers(0, 256, (100, 28, 28), dtype=np.uint8), np.random.default_rng(3).integers(0, 10, 100, dtype=np.uint8))
# %%
train_images.shape
# %%
len(train_labels)
# %%
train_labels
# %%
test_images.shape
# %%
len(test_labels)
# %%
test_labels
# %%
from minitape import keras
from minitape.keras import layers
model = keras.Sequential([
    layers.Dense(512, activation="relu"),
    layers.Dense(10, activation="softmax")
])
# %%
model.compile(optimizer="rmsprop",
              loss="sparse_categorical_crossentropy",
              metrics=["accuracy"])
model.build((None, 28 * 28))
seeded_weights(model)
# %%
train_images = train_images.reshape((600, 28 * 28))
train_images = train_images.astype("float32") / 255
test_images = test_images.reshape((100, 28 * 28))
test_images = test_images.astype("float32") / 255
# %%
history = model.fit(train_images, train_labels, epochs=5, batch_size=128, verbose=0, shuffle=False)
# %%
test_digits = test_images[0:10]
predictions = model.predict(test_digits, verbose=0)
predictions[0]
# %%
predictions[0].argmax()
# %%
predictions[0][7]
# %%
test_labels[0]
# %%
test_loss, test_acc = model.evaluate(test_images, test_labels, verbose=0)
print(f"test_acc: {test_acc}")
