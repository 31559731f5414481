# Source: https://keras.io/guides/sequential_model/ (keras-team/keras-io, guides/sequential_model.py, in its 2022 TensorFlow-era
#   copy Md557/keras-io at 98dedbd; the Keras 3 text was not at hand), "When to use a Sequential model" to "Specifying the
#   input shape in advance"
# Changed: `import tensorflow as tf` -> `import minitape as tf`, `from tensorflow(.keras) import ...` -> `from minitape(.keras)
#   import ...`; cells split where the guide's text blocks split them; `layer.weights` (random initial values) ->
#   `[w.shape for w in layer.weights]`; `model.layers` shown as `[layer.name for layer in model.layers]` (the reprs print
#   addresses)
# %%
import minitape as tf
from minitape import keras
from minitape.keras import layers
# %%
# Define Sequential model with 3 layers
model = keras.Sequential(
    [
        layers.Dense(2, activation="relu", name="layer1"),
        layers.Dense(3, activation="relu", name="layer2"),
        layers.Dense(4, name="layer3"),
    ]
)
# Call model on a test input
x = tf.ones((3, 3))
y = model(x)
# %%
# Create 3 layers
layer1 = layers.Dense(2, activation="relu", name="layer1")
layer2 = layers.Dense(3, activation="relu", name="layer2")
layer3 = layers.Dense(4, name="layer3")

# Call layers on a test input
x = tf.ones((3, 3))
y = layer3(layer2(layer1(x)))
# %%
model = keras.Sequential(
    [
        layers.Dense(2, activation="relu"),
        layers.Dense(3, activation="relu"),
        layers.Dense(4),
    ]
)
# %%
[layer.name for layer in model.layers]
# %%
model = keras.Sequential()
model.add(layers.Dense(2, activation="relu"))
model.add(layers.Dense(3, activation="relu"))
model.add(layers.Dense(4))
# %%
model.pop()
print(len(model.layers))  # 2
# %%
model = keras.Sequential(name="my_sequential")
model.add(layers.Dense(2, activation="relu", name="layer1"))
model.add(layers.Dense(3, activation="relu", name="layer2"))
model.add(layers.Dense(4, name="layer3"))
# %%
layer = layers.Dense(3)
[w.shape for w in layer.weights]  # Empty
# %%
# Call layer on a test input
x = tf.ones((1, 4))
y = layer(x)
[w.shape for w in layer.weights]  # Now it has weights, of shape (4, 3) and (3,)
