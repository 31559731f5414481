"""What an optimiser does to the weights beside its gradient step: weight decay and a moving average.

``Optimizer`` inherits both.  Weight decay (``weight_decay=``) shrinks each weight before the
step, ``w -= w · weight_decay · lr``: decoupled from the gradient, as in AdamW.  The moving
average (``use_ema=True``) keeps ``average = m · average + (1 − m) · w`` after each step, and
``finalize_variable_values`` (which ``fit`` calls at the end) puts it into the weights.

>>> import minitape as tf
>>> w = tf.Variable(1.0)
>>> opt = tf.keras.optimizers.SGD(0.1, weight_decay=0.5)
>>> opt.apply([tf.constant(0.0)], [w])
>>> float(w.numpy())                   # 1 - 1 · 0.5 · 0.1
0.949999988079071
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from minitape import ops
from minitape.core.tensor import Variable


class WeightDecay:
    """Decoupled weight decay, as Keras 3 applies it (see the module's example).

    >>> import minitape as tf
    >>> issubclass(tf.keras.optimizers.Optimizer, tf.keras.optimizers.regularizing.WeightDecay)
    True
    """

    weight_decay: float | None
    learning_rate: Any
    _built_for: list
    _no_decay_ids: set[int]
    _no_decay_pattern: re.Pattern | None

    def exclude_from_weight_decay(self, var_list: Sequence[Variable] | None = None,
                                  var_names: Sequence[str] | None = None) -> None:
        """Keep these variables (or those whose name contains one of ``var_names``) out of weight decay.

        >>> import minitape as tf
        >>> w, b = tf.keras.Variable(1.0, name="kernel"), tf.keras.Variable(1.0, name="bias")
        >>> opt = tf.keras.optimizers.SGD(0.5, weight_decay=0.2)
        >>> opt.exclude_from_weight_decay(var_names=["bias"])
        >>> opt.apply([tf.constant(0.0), tf.constant(0.0)], [w, b])
        >>> float(w.numpy()), float(b.numpy())          # 1 - 1 · 0.2 · 0.5
        (0.8999999761581421, 1.0)
        """
        if self._built_for:
            raise ValueError("`exclude_from_weight_decay()` can only be configured before the optimizer is built.")
        self._no_decay_ids = {v._id for v in var_list or ()}
        self._no_decay_pattern = re.compile("|".join(set(var_names))) if var_names else None

    def _decays(self, variable: Variable) -> bool:
        if variable._id in self._no_decay_ids:
            return False
        return self._no_decay_pattern is None or self._no_decay_pattern.search(variable.name) is None

    def _apply_weight_decay(self, variables: list[Variable]) -> None:
        if self.weight_decay is None:
            return
        for variable in filter(self._decays, variables):
            rate = ops.cast(self.learning_rate, variable.dtype) * ops.cast(self.weight_decay, variable.dtype)
            variable.assign(variable - variable * rate)


class MovingAverage:
    """The exponential moving average of the weights (``use_ema``), as Keras 3 keeps it.

    >>> import minitape as tf
    >>> issubclass(tf.keras.optimizers.Optimizer, tf.keras.optimizers.regularizing.MovingAverage)
    True
    """

    use_ema: bool
    ema_momentum: float
    ema_overwrite_frequency: int | None
    iterations: Variable
    _averages: dict[int, Variable]
    _built_for: list

    def _update_averages(self) -> None:
        # As Keras 3: the first step copies the weights; after it, average = m · average + (1 − m) · weight.
        momentum = self.ema_momentum if int(self.iterations.numpy()) != 0 else 0.0
        for variable in self._built_for:
            average = self._averages[variable._id]
            average.assign(momentum * average + (1 - momentum) * variable)
        step = int(self.iterations.numpy()) + 1
        if self.ema_overwrite_frequency and step % self.ema_overwrite_frequency == 0:
            self.finalize_variable_values(self._built_for)

    def finalize_variable_values(self, var_list: Sequence[Variable]) -> None:
        """With ``use_ema``, set each variable to its moving average (``fit`` does it after the last epoch).

        >>> import minitape as tf
        >>> w, opt = tf.Variable(1.0), tf.keras.optimizers.SGD(0.5, use_ema=True, ema_momentum=0.5)
        >>> for _ in range(2):
        ...     opt.apply([tf.constant(1.0)], [w])
        >>> opt.finalize_variable_values([w]); float(w.numpy())       # 0.5 · 0.5 + 0.5 · 0.0
        0.25
        """
        if self.use_ema:
            for variable in var_list:
                if variable._id in self._averages:
                    variable.assign(self._averages[variable._id])
