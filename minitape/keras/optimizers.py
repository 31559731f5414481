"""Optimisers with Keras' update rules: each step reads gradients and assigns to variables.

>>> import minitape as tf
>>> w = tf.Variable(1.0)
>>> opt = tf.keras.optimizers.SGD(learning_rate=0.1)
>>> with tf.GradientTape() as tape:
...     loss = w * w
>>> opt.apply_gradients(zip(tape.gradient(loss, [w]), [w]))
>>> w.numpy()                    # 1 - 0.1 * 2
np.float32(0.8)
"""
from __future__ import annotations

import warnings
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from minitape.core import dtypes
from minitape import ops
from minitape.core.tensor import Tensor, Variable, convert_to_tensor


def hyperparameter(optimizer: str, argument: str, value: Any) -> float:
    """``value`` as a Python float; anything but a real number is Keras' ValueError, naming the argument.

    >>> from minitape.keras.optimizers import hyperparameter
    >>> hyperparameter("SGD", "learning_rate", 0.1)
    0.1
    >>> hyperparameter("SGD", "learning_rate", None)
    Traceback (most recent call last):
    ...
    ValueError: SGD: argument `learning_rate` should be a float, got None (NoneType).
    """
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        raise ValueError(f"{optimizer}: argument `{argument}` should be a float, got {value!r} "
                         f"({type(value).__name__}).")
    return float(value)


class Optimizer:
    """The base class: keeps per-variable slots and a step counter; subclasses write ``update``.

    >>> import minitape as tf
    >>> class SignSGD(tf.keras.optimizers.Optimizer):
    ...     def update(self, variable, grad, slots, step):
    ...         variable.assign_sub(self.learning_rate * tf.sign(grad))
    >>> w = tf.Variable([1.0, -1.0])
    >>> SignSGD(0.5).apply_gradients([(tf.constant([3.0, -0.1]), w)])
    >>> w.numpy()
    array([ 0.5, -0.5], dtype=float32)
    """

    def __init__(self, learning_rate: float) -> None:
        self.learning_rate = hyperparameter(type(self).__name__, "learning_rate", learning_rate)
        self.iterations = Variable(0, dtype=dtypes.int64, trainable=False, name="iteration")
        self._slots: dict[int, dict[str, Variable]] = {}

    def apply_gradients(self, grads_and_vars: Iterable[tuple[Any, Variable]]) -> None:
        """Apply ``(gradient, variable)`` pairs; pairs whose gradient is None are skipped, with a warning.

        Then each updated variable that has a ``constraint`` (a layer's ``kernel_constraint``...) is
        assigned ``constraint(variable)``.

        >>> import minitape as tf
        >>> w = tf.Variable(1.0)
        >>> opt = tf.keras.optimizers.SGD(learning_rate=0.1)
        >>> opt.apply_gradients([(tf.constant(2.0), w)])
        >>> w.numpy(), opt.iterations.numpy()
        (np.float32(0.8), np.int64(1))
        """
        pairs = list(grads_and_vars)
        for pair in pairs:
            if not (isinstance(pair, tuple | list) and len(pair) == 2):
                raise ValueError(f"apply_gradients takes (gradient, variable) pairs, e.g. zip(grads, variables); "
                                 f"got {pair!r}.")
        present = [(g, v) for g, v in pairs if g is not None]
        if pairs and not present:
            raise ValueError("No gradients provided for any variable.")
        if len(present) < len(pairs):
            missing = [v.name for g, v in pairs if g is None]
            warnings.warn(f"Gradients do not exist for variables {missing} when minimizing the loss. If using "
                          f"`model.compile()`, did you forget to provide a `loss` argument?", stacklevel=2)
        self._apply(present)

    def apply(self, grads: Sequence[Any], trainable_variables: Sequence[Variable]) -> None:
        """Apply ``grads[i]`` to ``trainable_variables[i]`` (Keras 3's spelling); the lists must match.

        >>> import minitape as tf
        >>> w, b = tf.Variable(1.0), tf.Variable(0.0)
        >>> tf.keras.optimizers.SGD(learning_rate=0.5).apply([tf.constant(1.0), tf.constant(-1.0)], [w, b])
        >>> w.numpy(), b.numpy()
        (np.float32(0.5), np.float32(0.5))
        """
        if len(grads) != len(trainable_variables):
            raise ValueError(f"apply: got {len(grads)} gradients for {len(trainable_variables)} variables; "
                             f"pass one gradient per variable, in the same order.")
        self.apply_gradients(zip(grads, trainable_variables))

    def _apply(self, pairs: list[tuple[Any, Variable]]) -> None:
        for g, v in pairs:
            if not isinstance(v, Variable):
                raise TypeError(f"apply_gradients: {v!r} is not a Variable; optimisers update variables.")
            g = convert_to_tensor(g)
            if g.shape != v.shape:
                raise ValueError(f"apply_gradients: gradient of shape {tuple(g.shape)} for variable '{v.name}' "
                                 f"of shape {tuple(v.shape)}.")
        self.iterations.assign_add(1)
        step = int(self.iterations.numpy())
        for g, v in pairs:
            self.update(v, ops.cast(g, v.dtype), self._slots_for(v), step)
        for _, v in pairs:        # as Keras 3: once every variable has moved, each is projected by its constraint
            if getattr(v, "constraint", None) is not None:
                v.assign(v.constraint(v))

    def _slots_for(self, variable: Variable) -> dict[str, Variable]:
        if variable._id not in self._slots:
            self._slots[variable._id] = {name: Variable(ops.zeros_like(variable), trainable=False, name=name)
                                         for name in self.slot_names}
        return self._slots[variable._id]

    slot_names: tuple[str, ...] = ()

    def update(self, variable: Variable, grad: Tensor, slots: dict[str, Variable], step: int) -> None:
        """One step for one variable, written by subclasses: ``slots`` maps ``slot_names`` to variables.

        ``step`` counts the calls of ``apply_gradients``, from 1.

        >>> import minitape as tf
        >>> tf.keras.optimizers.Optimizer(0.1).update(tf.Variable(1.0), tf.constant(1.0), {}, 1)
        Traceback (most recent call last):
        ...
        NotImplementedError
        """
        raise NotImplementedError


class SGD(Optimizer):
    """Gradient descent, with Keras' momentum: ``m = momentum·m − lr·g;  w += m``.

    With ``nesterov=True``: ``w += momentum·m − lr·g``.

    >>> import minitape as tf
    >>> w = tf.Variable(1.0)
    >>> opt = tf.keras.optimizers.SGD(learning_rate=0.1, momentum=0.9)
    >>> for _ in range(2):
    ...     opt.apply_gradients([(tf.constant(1.0), w)])
    >>> round(float(w.numpy()), 4)          # m = -0.1, then 0.9·(-0.1) - 0.1 = -0.19
    0.71
    """

    slot_names = ("momentum",)

    def __init__(self, learning_rate: float = 0.01, momentum: float = 0.0, nesterov: bool = False) -> None:
        super().__init__(learning_rate)
        self.momentum, self.nesterov = hyperparameter("SGD", "momentum", momentum), bool(nesterov)
        if not 0 <= self.momentum <= 1:
            raise ValueError(f"SGD: momentum must be in [0, 1], got {momentum}.")

    def update(self, variable: Variable, grad: Tensor, slots: dict[str, Variable], step: int) -> None:
        """One SGD step for ``variable`` (``slots["momentum"]`` is its ``m``).

        >>> import minitape as tf
        >>> w = tf.Variable(1.0)
        >>> tf.keras.optimizers.SGD(learning_rate=0.1).update(w, tf.constant(2.0), {}, step=1)
        >>> w.numpy()
        np.float32(0.8)
        """
        if self.momentum == 0:
            variable.assign_sub(self.learning_rate * grad)
            return
        m = slots["momentum"]
        m.assign(self.momentum * m - self.learning_rate * grad)
        variable.assign_add(self.momentum * m - self.learning_rate * grad if self.nesterov else m)


class Adam(Optimizer):
    """Adam, as Keras writes it (epsilon added to ``sqrt(v)``, bias correction folded into the step)::

        alpha = lr · sqrt(1 − β₂ᵗ) / (1 − β₁ᵗ)
        m += (g − m)(1 − β₁);  v += (g² − v)(1 − β₂)
        w −= alpha · m / (sqrt(v) + ε)

    >>> import minitape as tf
    >>> w = tf.Variable(1.0)
    >>> tf.keras.optimizers.Adam(learning_rate=0.1).apply_gradients([(tf.constant(5.0), w)])
    >>> round(float(w.numpy()), 4)          # the first step moves each weight by about lr
    0.9
    """

    slot_names = ("m", "v")

    def __init__(self, learning_rate: float = 0.001, beta_1: float = 0.9, beta_2: float = 0.999,
                 epsilon: float = 1e-7) -> None:
        super().__init__(learning_rate)
        self.beta_1, self.beta_2, self.epsilon = (hyperparameter("Adam", name, value) for name, value in
                                                  (("beta_1", beta_1), ("beta_2", beta_2), ("epsilon", epsilon)))

    def update(self, variable: Variable, grad: Tensor, slots: dict[str, Variable], step: int) -> None:
        """One Adam step for ``variable``, whose moment estimates are ``slots["m"]`` and ``slots["v"]``.

        >>> import minitape as tf
        >>> w, slots = tf.Variable(1.0), {"m": tf.Variable(0.0), "v": tf.Variable(0.0)}
        >>> tf.keras.optimizers.Adam(learning_rate=0.1).update(w, tf.constant(-2.0), slots, step=1)
        >>> round(float(w.numpy()), 4), round(float(slots["m"].numpy()), 4)
        (1.1, -0.2)
        """
        alpha = self.learning_rate * (1 - self.beta_2**step) ** 0.5 / (1 - self.beta_1**step)
        m, v = slots["m"], slots["v"]
        m.assign_add((grad - m) * (1 - self.beta_1))
        v.assign_add((grad * grad - v) * (1 - self.beta_2))
        variable.assign_sub(m * alpha / (ops.sqrt(v) + self.epsilon))


class RMSprop(Optimizer):
    """RMSprop, as Keras writes it (Keras' default optimiser for ``compile``)::

        v = rho · v + (1 − rho) · g²;   w −= lr · g / sqrt(v + ε)

    >>> import minitape as tf
    >>> w = tf.Variable(1.0)
    >>> tf.keras.optimizers.RMSprop(learning_rate=0.1).apply_gradients([(tf.constant(2.0), w)])
    >>> round(float(w.numpy()), 4)                 # 1 - 0.1 · 2 / sqrt(0.1 · 4)
    0.6838
    """

    slot_names = ("velocity",)

    def __init__(self, learning_rate: float = 0.001, rho: float = 0.9, epsilon: float = 1e-7) -> None:
        super().__init__(learning_rate)
        self.rho, self.epsilon = float(rho), float(epsilon)

    def update(self, variable: Variable, grad: Tensor, slots: dict[str, Variable], step: int) -> None:
        """One RMSprop step for ``variable``, whose running mean of squared gradients is ``slots["velocity"]``.

        >>> import minitape as tf
        >>> w, slots = tf.Variable(1.0), {"velocity": tf.Variable(0.0)}
        >>> tf.keras.optimizers.RMSprop(learning_rate=0.1).update(w, tf.constant(2.0), slots, step=1)
        >>> round(float(slots["velocity"].numpy()), 4)
        0.4
        """
        velocity = slots["velocity"]
        velocity.assign(self.rho * velocity + (1 - self.rho) * ops.square(grad))
        variable.assign_sub(self.learning_rate * grad / ops.sqrt(velocity + self.epsilon))


_BY_NAME = {"adam": Adam, "sgd": SGD, "rmsprop": RMSprop}


def get(identifier: str | Optimizer) -> Optimizer:
    """An optimiser: a new one with Keras' defaults for a name (``"adam"``, ``"sgd"``, ``"rmsprop"``), or itself.

    >>> import minitape as tf
    >>> tf.keras.optimizers.get("adam").learning_rate
    0.001
    """
    if isinstance(identifier, Optimizer):
        return identifier
    if isinstance(identifier, str) and identifier.lower() in _BY_NAME:
        return _BY_NAME[identifier.lower()]()
    raise ValueError(f"Could not interpret optimizer identifier: {identifier!r}. Give an optimizer object or one "
                     f"of {', '.join(sorted(_BY_NAME))}.")
