"""``tf.nn``: activations, softmax, cross-entropy, dropout; convolution, pooling and normalization.

A namespace, as TensorFlow's is: every name here is a row of the op table
([`minitape.ops`][minitape.ops]) under the name ``tf.nn`` gives it.

>>> import minitape as tf
>>> tf.nn.softmax_cross_entropy_with_logits(labels=[[0.0, 1.0]], logits=[[1.0, 2.0]]).numpy()
array([0.31326166], dtype=float32)
"""
from minitape.ops import (  # noqa: F401
    avg_pool2d, batch_normalization, conv2d, dropout, elu, gelu, leaky_relu, log_softmax, max_pool2d, moments, relu,
    relu6, selu, sigmoid, softmax, softmax_cross_entropy_with_logits, softplus,
    sparse_softmax_cross_entropy_with_logits, tanh,
)

__all__ = ["avg_pool2d", "batch_normalization", "conv2d", "dropout", "elu", "gelu", "leaky_relu", "log_softmax",
           "max_pool2d", "moments", "relu", "relu6", "selu", "sigmoid", "softmax", "softmax_cross_entropy_with_logits",
           "softplus", "sparse_softmax_cross_entropy_with_logits", "tanh"]
from minitape.ops import conv2d_transpose  # noqa: E402,F401
__all__ += ["conv2d_transpose"]
