# Source: https://d2l.ai/chapter_convolutional-neural-networks/conv-layer.html (d2l-ai/d2l-en, chapter_convolutional-neural-networks/conv-layer.md), "7.2.1 The Cross-Correlation Operation" and "7.2.3 Object Edge Detection in Images", TensorFlow tab
# Changed: `import tensorflow as tf` -> `import minitape as tf`; d2lbook's `%%tab` cell magics dropped;
#   `from d2l import tensorflow as d2l` -> a class `d2l` holding the two aliases used, as d2l/tensorflow.py
#   defines them (tensor = tf.constant, transpose = tf.transpose); the `Conv2D` class cell of 7.2.2 (not called
#   before 7.2.4) is left out
import minitape as tf


class d2l:
    tensor = tf.constant
    transpose = tf.transpose
# %%
def corr2d(X, K):  #@save
    """Compute 2D cross-correlation."""
    h, w = K.shape
    Y = tf.Variable(tf.zeros((X.shape[0] - h + 1, X.shape[1] - w + 1)))
    for i in range(Y.shape[0]):
        for j in range(Y.shape[1]):
            Y[i, j].assign(tf.reduce_sum(
                X[i: i + h, j: j + w] * K))
    return Y
# %%
X = d2l.tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]])
K = d2l.tensor([[0.0, 1.0], [2.0, 3.0]])
corr2d(X, K)
# %%
X = tf.Variable(tf.ones((6, 8)))
X[:, 2:6].assign(tf.zeros(X[:, 2:6].shape))
X
# %%
K = d2l.tensor([[1.0, -1.0]])
# %%
Y = corr2d(X, K)
Y
# %%
corr2d(d2l.transpose(X), K)
