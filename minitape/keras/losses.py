"""``keras.losses``: every loss by class and by function, and the names ``compile`` and ``get`` know them by.

The classes average over the batch (see ``minitape.keras.loss``); the functions give one loss per
example.  A name in snake case (``"binary_crossentropy"``, ``"mae"``) is the function, a name in
camel case (``"BinaryCrossentropy"``) the class, as in Keras 3; ``compile`` wraps a function in a
``LossFunctionWrapper`` that keeps the name it was given.

>>> import minitape as tf
>>> tf.keras.losses.get("mae") is tf.keras.losses.mean_absolute_error
True
>>> tf.keras.losses.get("Huber").get_config()
{'name': 'huber_loss', 'reduction': 'sum_over_batch_size'}
>>> y = tf.constant([0.0, 1.0, 2.0, 3.0])          # labels (n,) against predictions (n, 1): row with row
>>> tf.keras.losses.MeanSquaredError()(y, tf.reshape(y + 0.5, (4, 1))).numpy()
np.float32(0.25)
"""
from __future__ import annotations

import inspect
from typing import Any

from minitape.keras.hinge_losses import CategoricalHinge, Hinge, SquaredHinge, categorical_hinge, hinge, squared_hinge
from minitape.keras.loss import Loss, LossFunctionWrapper, same_rank
from minitape.keras.naming import from_identifier
from minitape.keras.probabilistic_losses import (BinaryCrossentropy, BinaryFocalCrossentropy, CategoricalCrossentropy,
                                                 CategoricalFocalCrossentropy, KLDivergence, Poisson,
                                                 SparseCategoricalCrossentropy, binary_crossentropy,
                                                 binary_focal_crossentropy, categorical_crossentropy,
                                                 categorical_focal_crossentropy, kl_divergence, poisson,
                                                 sparse_categorical_crossentropy)
from minitape.keras.regression_losses import (CosineSimilarity, Dice, Huber, LogCosh, MeanAbsoluteError,
                                              MeanAbsolutePercentageError, MeanSquaredError,
                                              MeanSquaredLogarithmicError, Tversky, cosine_similarity, dice, huber,
                                              log_cosh, mae, mape, mean_absolute_error, mean_absolute_percentage_error,
                                              mean_squared_error, mean_squared_logarithmic_error, mse, msle, tversky)

CLASSES = (BinaryCrossentropy, BinaryFocalCrossentropy, CategoricalCrossentropy, CategoricalFocalCrossentropy,
           SparseCategoricalCrossentropy, KLDivergence, Poisson, MeanSquaredError, MeanAbsoluteError,
           MeanAbsolutePercentageError, MeanSquaredLogarithmicError, CosineSimilarity, Huber, LogCosh, Hinge,
           SquaredHinge, CategoricalHinge, Dice, Tversky)
FUNCTIONS = (binary_crossentropy, binary_focal_crossentropy, categorical_crossentropy, categorical_focal_crossentropy,
             sparse_categorical_crossentropy, kl_divergence, poisson, mean_squared_error, mean_absolute_error,
             mean_absolute_percentage_error, mean_squared_logarithmic_error, cosine_similarity, huber, log_cosh,
             hinge, squared_hinge, categorical_hinge, dice, tversky)
BY_NAME: dict[str, Any] = {**{cls.__name__: cls for cls in CLASSES}, **{fn.__name__: fn for fn in FUNCTIONS},
                           "bce": binary_crossentropy, "kld": kl_divergence, "mae": mae, "mse": mse, "mape": mape,
                           "msle": msle}
BY_NAME.update({alias.upper(): BY_NAME[alias] for alias in ("bce", "kld", "mae", "mse", "mape", "msle")})
kld = kullback_leibler_divergence = KLD = kl_divergence
logcosh = log_cosh
MAE, MAPE, MSE, MSLE = mae, mape, mse, msle


def get(identifier: Any) -> Any:
    """What ``identifier`` names, as Keras 3's ``losses.get``: a snake-case name gives the function, a class name
    (or ``{"class_name": ..., "config": ...}``) a new loss object; a loss object or function is kept.

    >>> import minitape as tf
    >>> type(tf.keras.losses.get("SparseCategoricalCrossentropy")).__name__
    'SparseCategoricalCrossentropy'
    >>> tf.keras.losses.get("binary_crossentropy").__name__
    'binary_crossentropy'
    """
    return from_identifier(identifier, BY_NAME, "Could not interpret loss identifier: {identifier}")


def compiled(identifier: Any) -> Loss:
    """The loss object ``compile(loss=identifier)`` trains with: a function (or the name of one) wrapped in a
    ``LossFunctionWrapper`` named as given, as Keras' ``get_loss`` does.

    >>> import minitape as tf
    >>> loss = tf.keras.losses.compiled("mse")
    >>> loss.name, loss([[0.0], [0.0]], [[1.0], [3.0]]).numpy()
    ('mse', np.float32(5.0))
    """
    loss = get(identifier)
    if isinstance(loss, Loss):
        return loss
    return LossFunctionWrapper(loss, name=identifier if isinstance(identifier, str) else None)


def serialize(loss: Any) -> Any:
    """Keras' description of a loss: ``{"module", "class_name", "config", "registered_name"}``; for a function,
    its name is the config.

    >>> import minitape as tf
    >>> tf.keras.losses.serialize(tf.keras.losses.Poisson())["config"]
    {'name': 'poisson', 'reduction': 'sum_over_batch_size'}
    """
    if inspect.isfunction(loss):
        return {"module": "builtins", "class_name": "function", "config": loss.__name__, "registered_name": "function"}
    return {"module": "keras.losses", "class_name": type(loss).__name__, "config": loss.get_config(),
            "registered_name": None}


def deserialize(config: Any, custom_objects: dict[str, Any] | None = None) -> Any:
    """The loss a ``serialize`` result describes (a name, or a dict with ``class_name`` and ``config``).

    >>> import minitape as tf
    >>> tf.keras.losses.deserialize(tf.keras.losses.serialize(tf.keras.losses.Hinge(name="margin"))).name
    'margin'
    """
    if isinstance(config, dict) and config.get("class_name") == "function":
        config = config["config"]
    return from_identifier(config, {**BY_NAME, **(custom_objects or {})},
                           "Could not interpret serialized loss: {identifier}")


__all__ = ["KLD", "Loss", "LossFunctionWrapper", "MAE", "MAPE", "MSE", "MSLE", "compiled", "deserialize", "get", "kld",
           "kullback_leibler_divergence", "logcosh", "mae", "mape", "mse", "msle", "same_rank", "serialize",
           *(cls.__name__ for cls in CLASSES), *(fn.__name__ for fn in FUNCTIONS)]
