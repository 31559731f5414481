"""``Embedding``: integer ids looked up in a learned table, one row of ``output_dim`` numbers per id; ``Masking``.

>>> import minitape as tf
>>> embed = tf.keras.layers.Embedding(10, 4)
>>> embed(tf.constant([[1, 2, 3]])).shape
TensorShape([1, 3, 4])
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from minitape import ops
from minitape.core import dtypes
from minitape.core.tensor import Tensor
from minitape.keras import initializers
from minitape.keras.layers.core import Layer
from minitape.keras.ops.reductions import any as any_true


class Embedding(Layer):
    """A table ``embeddings`` of ``input_dim`` rows, each of ``output_dim``; ids in ``[0, input_dim)`` pick rows.

    The table starts uniform on ``±0.05`` (Keras 3's ``"uniform"``); its gradient adds up,
    per row, the gradients of the places that id was used.

    >>> import minitape as tf
    >>> embed = tf.keras.layers.Embedding(3, 2, embeddings_initializer="ones", name="words")
    >>> embed(tf.constant([0, 2])).numpy(), [v.path for v in embed.variables]
    (array([[1., 1.],
           [1., 1.]], dtype=float32), ['words/embeddings'])
    """

    casts_inputs = False                 # ids stay integers

    def __init__(self, input_dim: int, output_dim: int, embeddings_initializer: str | Callable = "uniform",
                 mask_zero: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        for name, value in (("input_dim", input_dim), ("output_dim", output_dim)):
            if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
                raise ValueError(f"`{name}` must be a positive integer. Received: {name}={value} "
                                 f"(of type {type(value).__name__}).")
        self.input_dim, self.output_dim = input_dim, output_dim
        self.embeddings_initializer = initializers.get(embeddings_initializer)
        self.mask_zero = self.supports_masking = bool(mask_zero)     # id 0 is padding: the layers after skip it

    def build(self, input_shape: Any = None) -> None:
        """Create ``embeddings``, ``(input_dim, output_dim)``.

        >>> import minitape as tf
        >>> embed = tf.keras.layers.Embedding(5, 3)
        >>> embed.build()
        >>> tuple(embed.embeddings.shape)
        (5, 3)
        """
        self.embeddings = self.add_weight(name="embeddings", shape=(self.input_dim, self.output_dim),
                                          initializer=self.embeddings_initializer)
        super().build(input_shape)

    def call(self, inputs: Any) -> Tensor:
        """The rows of ``embeddings`` that ``inputs`` name (other dtypes than int32/int64 are cast to int32).

        >>> import minitape as tf
        >>> embed = tf.keras.layers.Embedding(4, 1, embeddings_initializer="zeros")
        >>> embed.build()
        >>> embed.embeddings.assign([[0.0], [1.0], [2.0], [3.0]])
        <...>
        >>> embed.call(tf.constant([3.0, 1.7])).numpy()             # float ids are truncated, as Keras
        array([[3.],
               [1.]], dtype=float32)
        """
        ids = ops.as_operand(inputs)
        if ids.dtype not in (dtypes.int32, dtypes.int64):
            ids = ops.cast(ids, dtypes.int32)
        return ops.gather(self.embeddings, ids)

    def compute_mask(self, inputs: Any, previous_mask: Any = None) -> Tensor | None:
        """With ``mask_zero``, True where the id is not 0 (the padding id); otherwise None.

        >>> import minitape as tf
        >>> tf.keras.layers.Embedding(4, 2, mask_zero=True).compute_mask(tf.constant([[2, 0]])).numpy()
        array([[ True, False]])
        """
        if not self.mask_zero:
            return None
        return ops.not_equal(ops.as_operand(inputs), 0)


class Masking(Layer):
    """Marks as padding every time step whose features all equal ``mask_value``: such steps come out as zeros,
    and the layers after it (an ``LSTM``...) skip them, as Keras 3's ``Masking`` does.

    >>> import minitape as tf
    >>> steps = tf.keras.layers.Masking(0.0)(tf.constant([[[1.0, 2.0], [0.0, 0.0], [3.0, 0.0]]]))
    >>> tf.keras.masking.get_keras_mask(steps).numpy()
    array([[ True, False,  True]])
    """

    supports_masking = True

    def __init__(self, mask_value: float = 0.0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.mask_value = mask_value

    def call(self, inputs: Any) -> Tensor:
        """``inputs`` with the masked steps set to 0 (a step is kept if any feature differs from ``mask_value``).

        >>> import minitape as tf
        >>> tf.keras.layers.Masking(9.0).call(tf.constant([[[9.0, 9.0], [9.0, 4.0]]])).numpy()
        array([[[0., 0.],
                [9., 4.]]], dtype=float32)
        """
        inputs = ops.as_operand(inputs)
        return inputs * ops.cast(self.compute_mask(inputs)[..., None], inputs.dtype)

    def compute_mask(self, inputs: Any, previous_mask: Any = None) -> Tensor:
        """True at the steps where some feature is not ``mask_value`` (the last axis is the features).

        >>> import minitape as tf
        >>> tf.keras.layers.Masking().compute_mask(tf.constant([[[0.0], [5.0]]])).numpy()
        array([[False,  True]])
        """
        return any_true(ops.not_equal(ops.as_operand(inputs), self.mask_value), axis=-1)
