# Source: https://keras.io/guides/sequential_model/ (keras-team/keras-io, guides/sequential_model.py, in its 2022 TensorFlow-era
#   copy Md557/keras-io at 98dedbd; the Keras 3 text was not at hand), "Specifying the input shape in advance"
# Changed: `import tensorflow as tf` -> `import minitape as tf`, `from tensorflow(.keras) import ...` -> `from minitape(.keras)
#   import ...`; cells split where the guide's text blocks split them; `model.layers` shown as `[layer.name for layer in
#   model.layers]` (the reprs print addresses)
# %%
import minitape as tf
from minitape import keras
from minitape.keras import layers
# %%
model = keras.Sequential(
    [
        layers.Dense(2, activation="relu"),
        layers.Dense(3, activation="relu"),
        layers.Dense(4),
    ]
)  # No weights at this stage!

# At this point, you can't do this:
# model.weights

# You also can't do this:
# model.summary()

# Call the model on a test input
x = tf.ones((1, 4))
y = model(x)
print("Number of weights after calling the model:", len(model.weights))  # 6

"""
Once a model is "built", you can call its `summary()` method to display its
contents:
"""

model.summary()
# %%
model = keras.Sequential()
model.add(keras.Input(shape=(4,)))
model.add(layers.Dense(2, activation="relu"))

model.summary()
# %%
[layer.name for layer in model.layers]
# %%
model = keras.Sequential()
model.add(layers.Dense(2, activation="relu", input_shape=(4,)))

model.summary()
