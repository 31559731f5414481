# Source: https://d2l.ai/chapter_linear-classification/softmax-regression-scratch.html (d2l-ai/d2l-en, chapter_linear-classification/softmax-regression-scratch.md), "4.4.1 The Softmax" and "4.4.3 The Cross-Entropy Loss", TensorFlow tab
# Changed: `import tensorflow as tf` -> `import minitape as tf`; d2lbook's `%%tab` cell magics dropped;
#   `from d2l import tensorflow as d2l` -> a class `d2l` holding the four aliases used, as d2l/tensorflow.py
#   defines them (tensor = tf.constant, reduce_sum = tf.reduce_sum, exp = tf.exp, rand = tf.random.uniform);
#   `d2l.rand((2, 5))` -> `d2l.tensor(np.random.default_rng(0).uniform(size=(2, 5)), dtype=tf.float32)` (seeded
#   NumPy draw, so the printed values agree), with `import numpy as np` added for it; the model and training
#   cells of 4.4.2 (d2l.Classifier, Fashion-MNIST) are left out
import numpy as np

import minitape as tf


class d2l:
    tensor = tf.constant
    reduce_sum = tf.reduce_sum
    exp = tf.exp
    rand = tf.random.uniform
# %%
X = d2l.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
d2l.reduce_sum(X, 0, keepdims=True), d2l.reduce_sum(X, 1, keepdims=True)
# %%
def softmax(X):
    X_exp = d2l.exp(X)
    partition = d2l.reduce_sum(X_exp, 1, keepdims=True)
    return X_exp / partition  # The broadcasting mechanism is applied here
# %%
X = d2l.tensor(np.random.default_rng(0).uniform(size=(2, 5)), dtype=tf.float32)
X_prob = softmax(X)
X_prob, d2l.reduce_sum(X_prob, 1)
# %%
y_hat = tf.constant([[0.1, 0.3, 0.6], [0.3, 0.2, 0.5]])
y = tf.constant([0, 2])
tf.boolean_mask(y_hat, tf.one_hot(y, depth=y_hat.shape[-1]))
# %%
def cross_entropy(y_hat, y):
    return -tf.reduce_mean(tf.math.log(tf.boolean_mask(
        y_hat, tf.one_hot(y, depth=y_hat.shape[-1]))))

cross_entropy(y_hat, y)
