# Source: https://www.tensorflow.org/guide/intro_to_modules (tensorflow/docs, site/en/guide/intro_to_modules.ipynb), "The build step"
# Changed: `import tensorflow as tf` -> `import minitape as tf`; setup cell reduced to its `import tensorflow as tf` (its `import keras`, `from datetime import datetime` and `%load_ext tensorboard` are unused here);
#   `tf.random.normal([...])` -> `rng.standard_normal([...], dtype=np.float32)` (seeded NumPy draws; `import numpy as np` and `rng = np.random.default_rng(0)` added to the setup cell);
#   the section's last cell (calling the layer on 4 features) dropped: TF's message names its oneDNN kernel
#   (`__MklMatMul`) and carries terminal colour codes, so it differs from machine to machine
import numpy as np
import minitape as tf
rng = np.random.default_rng(0)
# %%
class FlexibleDense(tf.keras.layers.Layer):
  # Note the added `**kwargs`, as Keras supports many arguments
  def __init__(self, out_features, **kwargs):
    super().__init__(**kwargs)
    self.out_features = out_features

  def build(self, input_shape):  # Create the state of the layer (weights)
    self.w = tf.Variable(
      rng.standard_normal([input_shape[-1], self.out_features], dtype=np.float32), name='w')
    self.b = tf.Variable(tf.zeros([self.out_features]), name='b')

  def call(self, inputs):  # Defines the computation from inputs to outputs
    return tf.matmul(inputs, self.w) + self.b

# Create the instance of the layer
flexible_dense = FlexibleDense(out_features=3)
# %%
flexible_dense.variables
# %%
# Call it, with predictably random results
print("Model results:", flexible_dense(tf.constant([[2.0, 2.0, 2.0], [3.0, 3.0, 3.0]])))
# %%
flexible_dense.variables
