# Source: https://github.com/aymericdamien/TensorFlow-Examples/blob/master/tensorflow_v2/notebooks/1_Introduction/helloworld.ipynb
#   (aymericdamien/TensorFlow-Examples, tensorflow_v2/notebooks/1_Introduction/helloworld.ipynb), "Hello World"
# Changed: `import tensorflow as tf` -> `import minitape as tf`
# %%
import minitape as tf
# %%
# Create a Tensor.
hello = tf.constant("hello world")
print(hello)
# %%
# To access a Tensor value, call numpy().
print(hello.numpy())
