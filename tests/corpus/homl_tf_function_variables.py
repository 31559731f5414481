# Source: https://github.com/ageron/handson-ml3/blob/main/12_custom_models_and_training_with_tensorflow.ipynb (ageron/handson-ml3, 12_custom_models_and_training_with_tensorflow.ipynb), "TensorFlow Functions" / "Handling Variables and Other Resources in TF Functions"
# Changed: `import tensorflow as tf` -> `import minitape as tf`; the two cells that show
#   `function_def.signature.input_arg[0]` (a graph's protocol buffer) are left out
import minitape as tf
# %%
counter = tf.Variable(0)

@tf.function
def increment(counter, c=1):
    return counter.assign_add(c)

increment(counter)  # counter is now equal to 1
increment(counter)  # counter is now equal to 2
# %%
counter = tf.Variable(0)

@tf.function
def increment(c=1):
    return counter.assign_add(c)
# %%
increment()
increment()
# %%
class Counter:
    def __init__(self):
        self.counter = tf.Variable(0)

    @tf.function
    def increment(self, c=1):
        return self.counter.assign_add(c)
# %%
c = Counter()
c.increment()
c.increment()
