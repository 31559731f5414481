# Source: https://www.tensorflow.org/guide/intro_to_modules (tensorflow/docs, site/en/guide/intro_to_modules.ipynb), "Building Modules"
# Changed: `import tensorflow as tf` -> `import minitape as tf`; setup cell reduced to its `import tensorflow as tf` (its `import keras`, `from datetime import datetime` and `%load_ext tensorboard` are unused here);
#   `tf.random.normal([...])` -> `rng.standard_normal([...], dtype=np.float32)` (seeded NumPy draws; `import numpy as np` and `rng = np.random.default_rng(0)` added to the setup cell); the cell printing `my_model.submodules` dropped (it prints object addresses)
import numpy as np
import minitape as tf
rng = np.random.default_rng(0)
# %%
class Dense(tf.Module):
  def __init__(self, in_features, out_features, name=None):
    super().__init__(name=name)
    self.w = tf.Variable(
      rng.standard_normal([in_features, out_features], dtype=np.float32), name='w')
    self.b = tf.Variable(tf.zeros([out_features]), name='b')
  def __call__(self, x):
    y = tf.matmul(x, self.w) + self.b
    return tf.nn.relu(y)
# %%
class SequentialModule(tf.Module):
  def __init__(self, name=None):
    super().__init__(name=name)

    self.dense_1 = Dense(in_features=3, out_features=3)
    self.dense_2 = Dense(in_features=3, out_features=2)

  def __call__(self, x):
    x = self.dense_1(x)
    return self.dense_2(x)

# You have made a model!
my_model = SequentialModule(name="the_model")

# Call it, with random results
print("Model results:", my_model(tf.constant([[2.0, 2.0, 2.0]])))
# %%
for var in my_model.variables:
  print(var, "\n")
