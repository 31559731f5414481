# Source: https://www.tensorflow.org/guide/intro_to_modules (tensorflow/docs, site/en/guide/intro_to_modules.ipynb), "Building Modules"
# Changed: `import tensorflow as tf` -> `import minitape as tf`; setup cell reduced to its `import tensorflow as tf` (its `import keras`, `from datetime import datetime` and `%load_ext tensorboard` are unused here)
import minitape as tf
# %%
class SimpleModule(tf.Module):
  def __init__(self, name=None):
    super().__init__(name=name)
    self.a_variable = tf.Variable(5.0, name="train_me")
    self.non_trainable_variable = tf.Variable(5.0, trainable=False, name="do_not_train_me")
  def __call__(self, x):
    return self.a_variable * x + self.non_trainable_variable

simple_module = SimpleModule(name="simple")

simple_module(tf.constant(5.0))
# %%
# All trainable variables
print("trainable variables:", simple_module.trainable_variables)
# Every variable
print("all variables:", simple_module.variables)
