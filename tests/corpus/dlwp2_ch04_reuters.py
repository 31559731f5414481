# Source: https://github.com/fchollet/deep-learning-with-python-notebooks/blob/master/second_edition/chapter04_getting-started-with-neural-networks.ipynb
#   (fchollet/deep-learning-with-python-notebooks, second_edition/chapter04_getting-started-with-neural-networks.ipynb),
#   "Classifying newswires: A multiclass classification example"
# Changed: `import tensorflow as tf` -> `import minitape as tf`, `from tensorflow(.keras) import ...` -> `from minitape(.keras)
#   import ...`; `reuters.load_data(num_words=10000)` (a download) -> seeded NumPy word-index lists (1500 train, 300 test)
#   and labels 0-45; the decoding cell (a download), the plotting cells and the shuffled-labels baseline (unseeded
#   `np.random.shuffle`) left out; `vectorize_sequences` and the `keras`/`layers` imports (from the IMDB section) added;
#   `verbose=0` added to fit/evaluate/predict, `shuffle=False` to fit; the second `model.fit(...)` -> `_ =
#   model.fit(...)`; `seeded_weights(model)` (defined at the top: seeded NumPy uniform(-0.05, 0.05) weights) called once
#   the model has weights, with `model.build(...)` first where the model is built lazily, so that TF's and minitape's
#   unseeded random initial weights do not decide the printed values
import numpy as np

def seeded_weights(model):  # added: seeded NumPy initial weights in place of Keras' unseeded random ones
    rng = np.random.default_rng(0)
    model.set_weights([rng.uniform(-0.05, 0.05, w.shape).astype("float32") for w in model.get_weights()])
import minitape as tf
from minitape import keras
from minitape.keras import layers
# %%
(train_data, train_labels), (test_data, test_labels) = ([list(np.random.default_rng(i).integers(1, 10000, 20 + i % 50)) for i in range(1500)], np.random.default_rng(1500).integers(0, 46, 1500)), ([list(np.random.default_rng(2000 + i).integers(1, 10000, 20 + i % 50)) for i in range(300)], np.random.default_rng(1501).integers(0, 46, 300))
# %%
len(train_data)
# %%
len(test_data)
# %%
train_labels[10]
# %%
import numpy as np
def vectorize_sequences(sequences, dimension=10000):
    results = np.zeros((len(sequences), dimension))
    for i, sequence in enumerate(sequences):
        for j in sequence:
            results[i, j] = 1.
    return results
x_train = vectorize_sequences(train_data)
x_test = vectorize_sequences(test_data)
# %%
def to_one_hot(labels, dimension=46):
    results = np.zeros((len(labels), dimension))
    for i, label in enumerate(labels):
        results[i, label] = 1.
    return results
y_train = to_one_hot(train_labels)
y_test = to_one_hot(test_labels)
# %%
from minitape.keras.utils import to_categorical
y_train = to_categorical(train_labels)
y_test = to_categorical(test_labels)
# %%
model = keras.Sequential([
    layers.Dense(64, activation="relu"),
    layers.Dense(64, activation="relu"),
    layers.Dense(46, activation="softmax")
])
model.build((None, 10000))
seeded_weights(model)
# %%
model.compile(optimizer="rmsprop",
              loss="categorical_crossentropy",
              metrics=["accuracy"])
# %%
x_val = x_train[:1000]
partial_x_train = x_train[1000:]
y_val = y_train[:1000]
partial_y_train = y_train[1000:]
# %%
history = model.fit(partial_x_train,
                    partial_y_train,
                    epochs=20,
                    batch_size=512,
                    validation_data=(x_val, y_val), verbose=0, shuffle=False)
# %%
model = keras.Sequential([
  layers.Dense(64, activation="relu"),
  layers.Dense(64, activation="relu"),
  layers.Dense(46, activation="softmax")
])
model.build((None, 10000))
seeded_weights(model)
model.compile(optimizer="rmsprop",
              loss="categorical_crossentropy",
              metrics=["accuracy"])
_ = model.fit(x_train,
          y_train,
          epochs=9,
          batch_size=512, verbose=0, shuffle=False)
results = model.evaluate(x_test, y_test, verbose=0)
# %%
results
# %%
predictions = model.predict(x_test, verbose=0)
# %%
predictions[0].shape
# %%
np.sum(predictions[0])
# %%
np.argmax(predictions[0])
