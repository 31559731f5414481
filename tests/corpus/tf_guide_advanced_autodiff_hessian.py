# Source: https://www.tensorflow.org/guide/advanced_autodiff (tensorflow/docs, site/en/guide/advanced_autodiff.ipynb), "Example: Hessian"
# Changed: `import tensorflow as tf` -> `import minitape as tf`; setup cell's matplotlib lines dropped (no plot here); the two plotting cells (`imshow_zero_center`) dropped;
#   `tf.random.normal([7, 5])` -> `tf.constant(np.random.default_rng(0).standard_normal([7, 5]), dtype=tf.float32)` (seeded NumPy draw; `import numpy as np` added)
import numpy as np

import minitape as tf
# %%
x = tf.constant(np.random.default_rng(0).standard_normal([7, 5]), dtype=tf.float32)
layer1 = tf.keras.layers.Dense(8, activation=tf.nn.relu)
layer2 = tf.keras.layers.Dense(6, activation=tf.nn.relu)

with tf.GradientTape() as t2:
  with tf.GradientTape() as t1:
    x = layer1(x)
    x = layer2(x)
    loss = tf.reduce_mean(x**2)

  g = t1.gradient(loss, layer1.kernel)

h = t2.jacobian(g, layer1.kernel)
# %%
print(f'layer.kernel.shape: {layer1.kernel.shape}')
print(f'h.shape: {h.shape}')
# %%
n_params = tf.reduce_prod(layer1.kernel.shape)

g_vec = tf.reshape(g, [n_params, 1])
h_mat = tf.reshape(h, [n_params, n_params])
# %%
eps = 1e-3
eye_eps = tf.eye(h_mat.shape[0])*eps
# %%
# X(k+1) = X(k) - (∇²f(X(k)))^-1 @ ∇f(X(k))
# h_mat = ∇²f(X(k))
# g_vec = ∇f(X(k))
update = tf.linalg.solve(h_mat + eye_eps, g_vec)

# Reshape the update and apply it to the variable.
_ = layer1.kernel.assign_sub(tf.reshape(update, layer1.kernel.shape))
