# Source: https://github.com/fchollet/deep-learning-with-python-notebooks/blob/master/second_edition/chapter03_introduction-to-keras-and-tf.ipynb
#   (fchollet/deep-learning-with-python-notebooks, second_edition/chapter03_introduction-to-keras-and-tf.ipynb), "An
#   end-to-end example: A linear classifier in pure TensorFlow"
# Changed: `import tensorflow as tf` -> `import minitape as tf`, `from tensorflow(.keras) import ...` -> `from minitape(.keras)
#   import ...`; `np.random.multivariate_normal(` -> `np.random.default_rng(0)/(1).multivariate_normal(` (seeded);
#   `tf.random.uniform(shape=(input_dim, output_dim))` -> `np.random.default_rng(2).uniform(size=(input_dim,
#   output_dim)).astype("float32")`; the plotting cells left out; `import numpy as np` (from an earlier cell) added
import numpy as np
import minitape as tf
# %%
num_samples_per_class = 1000
negative_samples = np.random.default_rng(0).multivariate_normal(
    mean=[0, 3],
    cov=[[1, 0.5],[0.5, 1]],
    size=num_samples_per_class)
positive_samples = np.random.default_rng(1).multivariate_normal(
    mean=[3, 0],
    cov=[[1, 0.5],[0.5, 1]],
    size=num_samples_per_class)
# %%
inputs = np.vstack((negative_samples, positive_samples)).astype(np.float32)
# %%
targets = np.vstack((np.zeros((num_samples_per_class, 1), dtype="float32"),
                     np.ones((num_samples_per_class, 1), dtype="float32")))
# %%
input_dim = 2
output_dim = 1
W = tf.Variable(initial_value=np.random.default_rng(2).uniform(size=(input_dim, output_dim)).astype("float32"))
b = tf.Variable(initial_value=tf.zeros(shape=(output_dim,)))
# %%
def model(inputs):
    return tf.matmul(inputs, W) + b
# %%
def square_loss(targets, predictions):
    per_sample_losses = tf.square(targets - predictions)
    return tf.reduce_mean(per_sample_losses)
# %%
learning_rate = 0.1

def training_step(inputs, targets):
    with tf.GradientTape() as tape:
        predictions = model(inputs)
        loss = square_loss(targets, predictions)
    grad_loss_wrt_W, grad_loss_wrt_b = tape.gradient(loss, [W, b])
    W.assign_sub(grad_loss_wrt_W * learning_rate)
    b.assign_sub(grad_loss_wrt_b * learning_rate)
    return loss
# %%
for step in range(40):
    loss = training_step(inputs, targets)
    print(f"Loss at step {step}: {loss:.4f}")
