# Source: https://www.tensorflow.org/guide/tensor (tensorflow/docs, site/en/guide/tensor.ipynb), "Basics" (math on tensors)
# Changed: `import tensorflow as tf` -> `import minitape as tf`
import minitape as tf
import numpy as np
# %%
a = tf.constant([[1, 2],
                 [3, 4]])
b = tf.constant([[1, 1],
                 [1, 1]]) # Could have also said `tf.ones([2,2], dtype=tf.int32)`

print(tf.add(a, b), "\n")
print(tf.multiply(a, b), "\n")
print(tf.matmul(a, b), "\n")
# %%
print(a + b, "\n") # element-wise addition
print(a * b, "\n") # element-wise multiplication
print(a @ b, "\n") # matrix multiplication
# %%
c = tf.constant([[4.0, 5.0], [10.0, 1.0]])

# Find the largest value
print(tf.reduce_max(c))
# Find the index of the largest value
print(tf.math.argmax(c))
# Compute the softmax
print(tf.nn.softmax(c))
# %%
tf.convert_to_tensor([1,2,3])
# %%
tf.reduce_max([1,2,3])
# %%
tf.reduce_max(np.array([1,2,3]))
