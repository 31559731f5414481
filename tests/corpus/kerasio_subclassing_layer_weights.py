# Source: https://keras.io/guides/making_new_layers_and_models_via_subclassing/ (keras-team/keras-io,
#   guides/making_new_layers_and_models_via_subclassing.py, in its 2022 TensorFlow-era copy Md557/keras-io at 98dedbd; the
#   Keras 3 text was not at hand), "The Layer class", "Layers can have non-trainable weights"
# Changed: `import tensorflow as tf` -> `import minitape as tf`, `from tensorflow(.keras) import ...` -> `from minitape(.keras)
#   import ...`; cells split where the guide's text blocks split them; `print(y)` of the random-initialised layers ->
#   `print(y.shape)`; the cell `assert linear_layer.weights == [linear_layer.w, linear_layer.b]` left out (Keras 3 does
#   not track a layer's `tf.Variable` attributes, so the guide's own assert fails under TF 2.21)
# %%
import minitape as tf
from minitape import keras
# %%
class Linear(keras.layers.Layer):
    def __init__(self, units=32, input_dim=32):
        super(Linear, self).__init__()
        w_init = tf.random_normal_initializer()
        self.w = tf.Variable(
            initial_value=w_init(shape=(input_dim, units), dtype="float32"),
            trainable=True,
        )
        b_init = tf.zeros_initializer()
        self.b = tf.Variable(
            initial_value=b_init(shape=(units,), dtype="float32"), trainable=True
        )

    def call(self, inputs):
        return tf.matmul(inputs, self.w) + self.b


"""
You would use a layer by calling it on some tensor input(s), much like a Python
function.
"""

x = tf.ones((2, 2))
linear_layer = Linear(4, 2)
y = linear_layer(x)
print(y.shape)
# %%
class Linear(keras.layers.Layer):
    def __init__(self, units=32, input_dim=32):
        super(Linear, self).__init__()
        self.w = self.add_weight(
            shape=(input_dim, units), initializer="random_normal", trainable=True
        )
        self.b = self.add_weight(shape=(units,), initializer="zeros", trainable=True)

    def call(self, inputs):
        return tf.matmul(inputs, self.w) + self.b


x = tf.ones((2, 2))
linear_layer = Linear(4, 2)
y = linear_layer(x)
print(y.shape)
# %%
class ComputeSum(keras.layers.Layer):
    def __init__(self, input_dim):
        super(ComputeSum, self).__init__()
        self.total = tf.Variable(initial_value=tf.zeros((input_dim,)), trainable=False)

    def call(self, inputs):
        self.total.assign_add(tf.reduce_sum(inputs, axis=0))
        return self.total


x = tf.ones((2, 2))
my_sum = ComputeSum(2)
y = my_sum(x)
print(y.numpy())
y = my_sum(x)
print(y.numpy())

"""
It's part of `layer.weights`, but it gets categorized as a non-trainable weight:
"""

print("weights:", len(my_sum.weights))
print("non-trainable weights:", len(my_sum.non_trainable_weights))

# It's not included in the trainable weights:
print("trainable_weights:", my_sum.trainable_weights)
