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


def embedding_lookup(params, ids, max_norm=None, name=None):
    """The rows of ``params`` that ``ids`` name: ``tf.gather(params, ids)``, each row clipped to L2 norm ``max_norm``.

    >>> import minitape as tf
    >>> table = tf.constant([[0.0, 0.0], [3.0, 4.0], [1.0, 1.0]])
    >>> tf.nn.embedding_lookup(table, [[1, 2], [0, 1]]).shape
    TensorShape([2, 2, 2])
    >>> tf.nn.embedding_lookup(table, [1], max_norm=1.0).numpy()
    array([[0.6, 0.8]], dtype=float32)
    """
    from minitape.core import errors
    from minitape.ops import clip_by_norm, gather
    if isinstance(params, (list, tuple)):
        if len(params) != 1:
            raise errors.UnimplementedError(
                None, None, f"embedding_lookup: `params` is a list of {len(params)} shards; minitape takes one "
                "table. Pass `tf.concat(params, axis=0)` when the shards split the table in order ('div').")
        params = params[0]
    rows = gather(params, ids, name=name)
    if max_norm is None:
        return rows
    return clip_by_norm(rows, max_norm, axes=list(range(len(rows.shape) - len(params.shape) + 1, len(rows.shape))))


__all__ += ["embedding_lookup"]
