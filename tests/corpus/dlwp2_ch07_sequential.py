# Source: https://github.com/fchollet/deep-learning-with-python-notebooks/blob/master/second_edition/chapter07_working-with-keras.ipynb
#   (fchollet/deep-learning-with-python-notebooks, second_edition/chapter07_working-with-keras.ipynb), "The Sequential
#   model"
# Changed: `import tensorflow as tf` -> `import minitape as tf`, `from tensorflow(.keras) import ...` -> `from minitape(.keras)
#   import ...`; `import tensorflow as tf` added; `model.weights` (random initial values) -> `[w.shape for w in
#   model.weights]`
import minitape as tf
# %%
from minitape import keras
from minitape.keras import layers

model = keras.Sequential([
    layers.Dense(64, activation="relu"),
    layers.Dense(10, activation="softmax")
])
# %%
model = keras.Sequential()
model.add(layers.Dense(64, activation="relu"))
model.add(layers.Dense(10, activation="softmax"))
# %%
model.build(input_shape=(None, 3))
[w.shape for w in model.weights]
# %%
model.summary()
# %%
model = keras.Sequential(name="my_example_model")
model.add(layers.Dense(64, activation="relu", name="my_first_layer"))
model.add(layers.Dense(10, activation="softmax", name="my_last_layer"))
model.build((None, 3))
model.summary()
# %%
model = keras.Sequential()
model.add(keras.Input(shape=(3,)))
model.add(layers.Dense(64, activation="relu"))
# %%
model.summary()
# %%
model.add(layers.Dense(10, activation="softmax"))
model.summary()
