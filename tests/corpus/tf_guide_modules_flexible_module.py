# Source: https://www.tensorflow.org/guide/intro_to_modules (tensorflow/docs, site/en/guide/intro_to_modules.ipynb), "Waiting to create variables"
# Changed: `import tensorflow as tf` -> `import minitape as tf`; setup cell reduced to its `import tensorflow as tf` (its `import keras`, `from datetime import datetime` and `%load_ext tensorboard` are unused here);
#   `tf.random.normal([...])` -> `rng.standard_normal([...], dtype=np.float32)` (seeded NumPy draws; `import numpy as np` and `rng = np.random.default_rng(0)` added to the setup cell)
import numpy as np
import minitape as tf
rng = np.random.default_rng(0)
# %%
class FlexibleDenseModule(tf.Module):
  # Note: No need for `in_features`
  def __init__(self, out_features, name=None):
    super().__init__(name=name)
    self.is_built = False
    self.out_features = out_features

  def __call__(self, x):
    # Create variables on first call.
    if not self.is_built:
      self.w = tf.Variable(
        rng.standard_normal([x.shape[-1], self.out_features], dtype=np.float32), name='w')
      self.b = tf.Variable(tf.zeros([self.out_features]), name='b')
      self.is_built = True

    y = tf.matmul(x, self.w) + self.b
    return tf.nn.relu(y)
# %%
# Used in a module
class MySequentialModule(tf.Module):
  def __init__(self, name=None):
    super().__init__(name=name)

    self.dense_1 = FlexibleDenseModule(out_features=3)
    self.dense_2 = FlexibleDenseModule(out_features=2)

  def __call__(self, x):
    x = self.dense_1(x)
    return self.dense_2(x)

my_model = MySequentialModule(name="the_model")
print("Model results:", my_model(tf.constant([[2.0, 2.0, 2.0]])))
