# Source: https://github.com/fchollet/deep-learning-with-python-notebooks/blob/master/second_edition/chapter07_working-with-keras.ipynb
#   (fchollet/deep-learning-with-python-notebooks, second_edition/chapter07_working-with-keras.ipynb), "The Functional
#   API: A simple example"
# Changed: `import tensorflow as tf` -> `import minitape as tf`, `from tensorflow(.keras) import ...` -> `from minitape(.keras)
#   import ...`; `from tensorflow import keras`, `from tensorflow.keras import layers` (the chapter's first cell) and
#   `import tensorflow as tf` added
from minitape import keras
from minitape.keras import layers
import minitape as tf
# %%
inputs = keras.Input(shape=(3,), name="my_input")
features = layers.Dense(64, activation="relu")(inputs)
outputs = layers.Dense(10, activation="softmax")(features)
model = keras.Model(inputs=inputs, outputs=outputs)
# %%
inputs = keras.Input(shape=(3,), name="my_input")
# %%
inputs.shape
# %%
inputs.dtype
# %%
features = layers.Dense(64, activation="relu")(inputs)
# %%
features.shape
# %%
outputs = layers.Dense(10, activation="softmax")(features)
model = keras.Model(inputs=inputs, outputs=outputs)
# %%
model.summary()
