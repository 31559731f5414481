# Source: https://github.com/fchollet/deep-learning-with-python-notebooks/blob/master/second_edition/chapter04_getting-started-with-neural-networks.ipynb
#   (fchollet/deep-learning-with-python-notebooks, second_edition/chapter04_getting-started-with-neural-networks.ipynb),
#   "Classifying movie reviews: A binary classification example"
# Changed: `import tensorflow as tf` -> `import minitape as tf`, `from tensorflow(.keras) import ...` -> `from minitape(.keras)
#   import ...`; `imdb.load_data(num_words=10000)` (a download) -> seeded NumPy word-index lists (600 train, 200 test,
#   indices below 10000, 20 to 69 words) and 0/1 labels; the validation split's 10000 -> 200; the decoding cell (a
#   download) and plotting cells left out; `verbose=0` added to fit/evaluate/predict (progress-bar timings),
#   `shuffle=False` to fit (an unseeded shuffle); the second `model.fit(...)` -> `_ = model.fit(...)` (its repr prints an
#   address); `seeded_weights(model)` (defined at the top: seeded NumPy uniform(-0.05, 0.05) weights) called once the
#   model has weights, with `model.build(...)` first where the model is built lazily, so that TF's and minitape's unseeded
#   random initial weights do not decide the printed values
import numpy as np

def seeded_weights(model):  # added: seeded NumPy initial weights in place of Keras' unseeded random ones
    rng = np.random.default_rng(0)
    model.set_weights([rng.uniform(-0.05, 0.05, w.shape).astype("float32") for w in model.get_weights()])
import minitape as tf
# %%
(train_data, train_labels), (test_data, test_labels) = ([list(np.random.default_rng(i).integers(1, 10000, 20 + i % 50)) for i in range(600)], np.random.default_rng(600).integers(0, 2, 600)), ([list(np.random.default_rng(1000 + i).integers(1, 10000, 20 + i % 50)) for i in range(200)], np.random.default_rng(601).integers(0, 2, 200))
# %%
train_labels[0]
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
x_train[0]
# %%
y_train = np.asarray(train_labels).astype("float32")
y_test = np.asarray(test_labels).astype("float32")
# %%
from minitape import keras
from minitape.keras import layers

model = keras.Sequential([
    layers.Dense(16, activation="relu"),
    layers.Dense(16, activation="relu"),
    layers.Dense(1, activation="sigmoid")
])
model.build((None, 10000))
seeded_weights(model)
# %%
model.compile(optimizer="rmsprop",
              loss="binary_crossentropy",
              metrics=["accuracy"])
# %%
x_val = x_train[:200]
partial_x_train = x_train[200:]
y_val = y_train[:200]
partial_y_train = y_train[200:]
# %%
history = model.fit(partial_x_train,
                    partial_y_train,
                    epochs=20,
                    batch_size=512,
                    validation_data=(x_val, y_val), verbose=0, shuffle=False)
# %%
history_dict = history.history
history_dict.keys()
# %%
model = keras.Sequential([
    layers.Dense(16, activation="relu"),
    layers.Dense(16, activation="relu"),
    layers.Dense(1, activation="sigmoid")
])
model.build((None, 10000))
seeded_weights(model)
model.compile(optimizer="rmsprop",
              loss="binary_crossentropy",
              metrics=["accuracy"])
_ = model.fit(x_train, y_train, epochs=4, batch_size=512, verbose=0, shuffle=False)
results = model.evaluate(x_test, y_test, verbose=0)
# %%
results
# %%
model.predict(x_test, verbose=0)
