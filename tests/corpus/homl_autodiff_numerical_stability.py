# Source: https://github.com/ageron/handson-ml3/blob/main/12_custom_models_and_training_with_tensorflow.ipynb (ageron/handson-ml3, 12_custom_models_and_training_with_tensorflow.ipynb), "Computing Gradients Using Autodiff" (numerical issues, tf.custom_gradient)
# Changed: `import tensorflow as tf` -> `import minitape as tf`; the first `my_softplus` (from "Other Custom
#   Functions") comes first; `w1` and `w2` of the section's earlier cells are not needed and left out
import minitape as tf
# %%
def my_softplus(z):
    return tf.math.log(1.0 + tf.exp(z))
# %%
x = tf.Variable(1e-50)
with tf.GradientTape() as tape:
    z = tf.sqrt(x)

tape.gradient(z, [x])
# %%
tf.math.log(tf.exp(tf.constant(30., dtype=tf.float32)) + 1.)
# %%
x = tf.Variable([1.0e30])
with tf.GradientTape() as tape:
    z = my_softplus(x)

tape.gradient(z, [x])
# %%
def my_softplus(z):
    return tf.math.log(1 + tf.exp(-tf.abs(z))) + tf.maximum(0., z)
# %%
@tf.custom_gradient
def my_softplus(z):
    def my_softplus_gradients(grads):  # grads = backprop'ed from upper layers
        return grads * (1 - 1 / (1 + tf.exp(z)))  # stable grads of softplus

    result = tf.math.log(1 + tf.exp(-tf.abs(z))) + tf.maximum(0., z)
    return result, my_softplus_gradients
# %%
# extra code – shows that the function is now stable, as well as its gradients
x = tf.Variable([1000.])
with tf.GradientTape() as tape:
    z = my_softplus(x)

z, tape.gradient(z, [x])
