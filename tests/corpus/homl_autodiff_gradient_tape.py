# Source: https://github.com/ageron/handson-ml3/blob/main/12_custom_models_and_training_with_tensorflow.ipynb (ageron/handson-ml3, 12_custom_models_and_training_with_tensorflow.ipynb), "Computing Gradients Using Autodiff"
# Changed: `import tensorflow as tf` -> `import minitape as tf`
import minitape as tf
# %%
def f(w1, w2):
    return 3 * w1 ** 2 + 2 * w1 * w2
# %%
w1, w2 = 5, 3
eps = 1e-6
(f(w1 + eps, w2) - f(w1, w2)) / eps
# %%
(f(w1, w2 + eps) - f(w1, w2)) / eps
# %%
w1, w2 = tf.Variable(5.), tf.Variable(3.)
with tf.GradientTape() as tape:
    z = f(w1, w2)

gradients = tape.gradient(z, [w1, w2])
# %%
gradients
# %%
with tf.GradientTape() as tape:
    z = f(w1, w2)

dz_dw1 = tape.gradient(z, w1)  # returns tensor 36.0
try:
    dz_dw2 = tape.gradient(z, w2)  # raises a RuntimeError!
except RuntimeError as ex:
    print(ex)
# %%
with tf.GradientTape(persistent=True) as tape:
    z = f(w1, w2)

dz_dw1 = tape.gradient(z, w1)  # returns tensor 36.0
dz_dw2 = tape.gradient(z, w2)  # returns tensor 10.0, works fine now!
del tape
# %%
dz_dw1, dz_dw2
