# Source: https://d2l.ai/chapter_convolutional-neural-networks/channels.html (d2l-ai/d2l-en, chapter_convolutional-neural-networks/channels.md), "7.4.1 Multiple Input Channels" and "7.4.2 Multiple Output Channels", TensorFlow tab
# Changed: `import tensorflow as tf` -> `import minitape as tf`; d2lbook's `%%tab` cell magics dropped;
#   `from d2l import tensorflow as d2l` -> the `corr2d` the book saves to d2l in 7.2 (conv-layer.md, verbatim)
#   and a class `d2l` holding it and the two aliases used, as d2l/tensorflow.py defines them
#   (tensor = tf.constant, stack = tf.stack); the 1x1-convolution cells of 7.4.3 (random inputs) are left out
import minitape as tf


def corr2d(X, K):  #@save
    """Compute 2D cross-correlation."""
    h, w = K.shape
    Y = tf.Variable(tf.zeros((X.shape[0] - h + 1, X.shape[1] - w + 1)))
    for i in range(Y.shape[0]):
        for j in range(Y.shape[1]):
            Y[i, j].assign(tf.reduce_sum(
                X[i: i + h, j: j + w] * K))
    return Y


class d2l:
    corr2d = corr2d
    tensor = tf.constant
    stack = tf.stack
# %%
def corr2d_multi_in(X, K):
    # Iterate through the 0th dimension (channel) of K first, then add them up
    return tf.reduce_sum([d2l.corr2d(x, k) for x, k in zip(X, K)], axis=0)
# %%
X = d2l.tensor([[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]],
               [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]])
K = d2l.tensor([[[0.0, 1.0], [2.0, 3.0]], [[1.0, 2.0], [3.0, 4.0]]])

corr2d_multi_in(X, K)
# %%
def corr2d_multi_in_out(X, K):
    # Iterate through the 0th dimension of K, and each time, perform
    # cross-correlation operations with input X. All of the results are
    # stacked together
    return d2l.stack([corr2d_multi_in(X, k) for k in K], 0)
# %%
K = d2l.stack((K, K + 1, K + 2), 0)
K.shape
# %%
corr2d_multi_in_out(X, K)
