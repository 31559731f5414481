# Source: https://github.com/fchollet/deep-learning-with-python-notebooks/blob/master/second_edition/chapter07_working-with-keras.ipynb
#   (fchollet/deep-learning-with-python-notebooks, second_edition/chapter07_working-with-keras.ipynb), "The EarlyStopping
#   and ModelCheckpoint callbacks"
# Changed: `import tensorflow as tf` -> `import minitape as tf`, `from tensorflow(.keras) import ...` -> `from minitape(.keras)
#   import ...`; imports of the chapter's first cell added; the model and data cell of "Using built-in training and
#   evaluation loops" first; `mnist.load_data()` (a download) -> seeded NumPy uint8 images (700 train, 100 test, 28x28)
#   and uint8 labels 0-9, and the reshapes' 60000/10000 -> 700/100, the validation split's 10000 -> 200; `verbose=0` added
#   to fit/evaluate/predict (progress-bar timings); `model.fit(...)` -> `history = model.fit(...)` (its repr prints an
#   address); an added last line shows the reloaded model's `summary()`
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
callbacks_list = [
    keras.callbacks.EarlyStopping(
        monitor="val_accuracy",
        patience=2,
    ),
    keras.callbacks.ModelCheckpoint(
        filepath="checkpoint_path.keras",
        monitor="val_loss",
        save_best_only=True,
    )
]
model = get_mnist_model()
model.compile(optimizer="rmsprop",
              loss="sparse_categorical_crossentropy",
              metrics=["accuracy"])
history = model.fit(train_images, train_labels,
          epochs=10,
          callbacks=callbacks_list,
          validation_data=(val_images, val_labels), verbose=0)
# %%
model = keras.models.load_model("checkpoint_path.keras")
model.summary()
