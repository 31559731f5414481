# Source: https://github.com/fchollet/deep-learning-with-python-notebooks/blob/master/chapter03_introduction-to-ml-frameworks.ipynb
#   (fchollet/deep-learning-with-python-notebooks, chapter03_introduction-to-ml-frameworks.ipynb, the 3rd edition),
#   "Introduction to Keras: Layers: The building blocks of deep learning"
# Changed: `import tensorflow as tf` -> `import minitape as tf`, `import keras`/`from keras import ...` -> `from minitape import
#   keras`/`from minitape.keras import ...`; the cell choosing the JAX backend left out (TF's Keras runs on TensorFlow);
#   `import minitape as tf` added
import minitape as tf
# %%
from minitape import keras

class SimpleDense(keras.Layer):
    def __init__(self, units, activation=None):
        super().__init__()
        self.units = units
        self.activation = activation

    def build(self, input_shape):
        batch_dim, input_dim = input_shape
        self.W = self.add_weight(
            shape=(input_dim, self.units), initializer="random_normal"
        )
        self.b = self.add_weight(shape=(self.units,), initializer="zeros")

    def call(self, inputs):
        y = keras.ops.matmul(inputs, self.W) + self.b
        if self.activation is not None:
            y = self.activation(y)
        return y
# %%
my_dense = SimpleDense(units=32, activation=keras.ops.relu)
input_tensor = keras.ops.ones(shape=(2, 784))
output_tensor = my_dense(input_tensor)
print(output_tensor.shape)
# %%
from minitape.keras import layers

layer = layers.Dense(32, activation="relu")
# %%
from minitape.keras import models
from minitape.keras import layers

model = models.Sequential(
    [
        layers.Dense(32, activation="relu"),
        layers.Dense(32),
    ]
)
# %%
model = keras.Sequential(
    [
        SimpleDense(32, activation="relu"),
        SimpleDense(64, activation="relu"),
        SimpleDense(32, activation="relu"),
        SimpleDense(10, activation="softmax"),
    ]
)
