"""Regression and distribution losses as metrics: running means of a loss function over the examples seen.

Each is a ``MeanMetricWrapper`` of the loss function of the same name; ``RootMeanSquaredError``
is the square root of the running mean of squared errors.

>>> import minitape as tf
>>> rmse = tf.keras.metrics.RootMeanSquaredError()
>>> rmse.update_state([[0.0], [0.0]], [[3.0], [4.0]])
>>> float(rmse.result())
3.535533905029297
"""
from __future__ import annotations

from typing import Any

from minitape import ops
from minitape.core.tensor import Tensor
from minitape.keras import losses
from minitape.keras.loss import same_rank
from minitape.keras.reduction_metrics import Mean, MeanMetricWrapper


def _wrapper(cls_name: str, fn: Any, doc: str, default: str | None = None,
             options: dict[str, Any] | None = None) -> type[MeanMetricWrapper]:
    """A ``MeanMetricWrapper`` class over ``fn``, its instances named ``default`` (``fn``'s name) unless told otherwise;
    ``options`` are the keyword arguments (with their defaults) passed on to ``fn`` and listed in the config."""
    default, options = default or fn.__name__, options or {}

    def __init__(self: MeanMetricWrapper, name: str = default, dtype: Any = None, **fn_kwargs: Any) -> None:
        MeanMetricWrapper.__init__(self, fn, name=name, dtype=dtype, **{**options, **fn_kwargs})

    def get_config(self: MeanMetricWrapper) -> dict[str, Any]:
        return {**Mean.get_config(self), **{key: self.fn_kwargs[key] for key in options}}

    get_config.__doc__ = f"""Name, dtype{"".join(", " + key for key in options)}, as Keras 3 lists them.

        >>> import minitape as tf
        >>> sorted(tf.keras.metrics.{cls_name}().get_config())
        {sorted(["name", "dtype", *options])}
        """
    return type(cls_name, (MeanMetricWrapper,), {"__init__": __init__, "__doc__": doc, "fn": staticmethod(fn),
                                                  "get_config": get_config, "__module__": __name__})


MeanAbsoluteError = _wrapper("MeanAbsoluteError", losses.mean_absolute_error,
                             """The mean absolute error.

    >>> import minitape as tf
    >>> float(tf.keras.metrics.MeanAbsoluteError()([[0.0], [0.0]], [[1.0], [-3.0]]))
    2.0
    """)
MeanAbsolutePercentageError = _wrapper("MeanAbsolutePercentageError", losses.mean_absolute_percentage_error,
                                       """The mean absolute percentage error.

    >>> import minitape as tf
    >>> tf.keras.metrics.MeanAbsolutePercentageError().name
    'mean_absolute_percentage_error'
    """)
MeanSquaredLogarithmicError = _wrapper("MeanSquaredLogarithmicError", losses.mean_squared_logarithmic_error,
                                       """The mean squared logarithmic error.

    >>> import minitape as tf
    >>> tf.keras.metrics.MeanSquaredLogarithmicError().name
    'mean_squared_logarithmic_error'
    """)
LogCoshError = _wrapper("LogCoshError", losses.log_cosh,
                        """The mean log-cosh error.

    >>> import minitape as tf
    >>> tf.keras.metrics.LogCoshError().name
    'logcosh'
    """, "logcosh")
KLDivergence = _wrapper("KLDivergence", losses.kl_divergence,
                        """The mean Kullback-Leibler divergence.

    >>> import minitape as tf
    >>> tf.keras.metrics.KLDivergence().name
    'kl_divergence'
    """)
Poisson = _wrapper("Poisson", losses.poisson,
                   """The mean Poisson loss.

    >>> import minitape as tf
    >>> tf.keras.metrics.Poisson().name
    'poisson'
    """)
Hinge = _wrapper("Hinge", losses.hinge,
                 """The mean hinge loss.

    >>> import minitape as tf
    >>> float(tf.keras.metrics.Hinge()([[0.0, 1.0]], [[0.3, 0.8]]))
    0.75
    """)
SquaredHinge = _wrapper("SquaredHinge", losses.squared_hinge,
                        """The mean squared hinge loss.

    >>> import minitape as tf
    >>> tf.keras.metrics.SquaredHinge().name
    'squared_hinge'
    """)
CategoricalHinge = _wrapper("CategoricalHinge", losses.categorical_hinge,
                            """The mean categorical hinge loss.

    >>> import minitape as tf
    >>> tf.keras.metrics.CategoricalHinge().name
    'categorical_hinge'
    """)
BinaryCrossentropy = _wrapper("BinaryCrossentropy", losses.binary_crossentropy,
                              """The mean binary cross-entropy
    (``from_logits``, ``label_smoothing``, ``axis`` as the loss's).

    >>> import minitape as tf
    >>> tf.keras.metrics.BinaryCrossentropy(from_logits=True).fn_kwargs
    {'from_logits': True, 'label_smoothing': 0}
    """, options={"from_logits": False, "label_smoothing": 0})
CategoricalCrossentropy = _wrapper("CategoricalCrossentropy", losses.categorical_crossentropy,
                                   """The mean categorical cross-entropy.

    >>> import minitape as tf
    >>> tf.keras.metrics.CategoricalCrossentropy().name
    'categorical_crossentropy'
    """, options={"from_logits": False, "label_smoothing": 0, "axis": -1})
SparseCategoricalCrossentropy = _wrapper("SparseCategoricalCrossentropy", losses.sparse_categorical_crossentropy,
                                         """The mean sparse categorical cross-entropy.

    >>> import minitape as tf
    >>> tf.keras.metrics.SparseCategoricalCrossentropy().name
    'sparse_categorical_crossentropy'
    """, options={"from_logits": False, "ignore_class": None, "axis": -1})


def cosine_similarity(y_true: Any, y_pred: Any, axis: int = -1) -> Tensor:
    """The cosine of the angle between ``y_true`` and ``y_pred`` (the loss's sign flipped).

    >>> import minitape as tf
    >>> from minitape.keras.regression_metrics import cosine_similarity
    >>> cosine_similarity([[1.0, 1.0]], [[1.0, 1.0]]).numpy()
    array([0.99999994], dtype=float32)
    """
    return -losses.cosine_similarity(y_true, y_pred, axis=axis)


CosineSimilarity = _wrapper("CosineSimilarity", cosine_similarity,
                            """The mean cosine similarity along ``axis``.

    >>> import minitape as tf
    >>> tf.keras.metrics.CosineSimilarity(axis=-1).fn_kwargs
    {'axis': -1}
    """)


class RootMeanSquaredError(Mean):
    """The square root of the mean squared error over every entry seen (see the module's example).

    >>> import minitape as tf
    >>> tf.keras.metrics.RootMeanSquaredError().name
    'root_mean_squared_error'
    """

    def __init__(self, name: str = "root_mean_squared_error", dtype: Any = None) -> None:
        super().__init__(name=name, dtype=dtype)

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> None:
        """Add the squared errors of one batch.

        >>> import minitape as tf
        >>> rmse = tf.keras.metrics.RootMeanSquaredError()
        >>> rmse.update_state([1.0, 2.0], [1.0, 4.0]); float(rmse.result())
        1.4142135381698608
        """
        y_pred = ops.cast(ops.as_operand(y_pred), self.dtype)
        y_true, y_pred = same_rank(ops.cast(ops.as_operand(y_true), self.dtype), y_pred)
        super().update_state(ops.square(y_pred - y_true), sample_weight=sample_weight)

    def result(self) -> Tensor:
        """``sqrt(total / count)``.

        >>> import minitape as tf
        >>> float(tf.keras.metrics.RootMeanSquaredError().result())
        0.0
        """
        return ops.sqrt(super().result())
