"""Gradient descent and the rules that divide the gradient by a running size of it: SGD, RMSprop, Adagrad,
Adadelta and Ftrl, each written as Keras 3 writes its ``update_step``.

Each takes Keras' base arguments too (``weight_decay``, ``clipnorm``, ``clipvalue``,
``global_clipnorm``, ``use_ema``, ``name``...: see ``Optimizer``).

>>> import minitape as tf
>>> w = tf.Variable(1.0)
>>> opt = tf.keras.optimizers.Adagrad(learning_rate=0.1)
>>> _ = opt.apply_gradients([(tf.constant(2.0), w)])
>>> round(float(w.numpy()), 4)            # 1 - 0.1 · 2 / sqrt(0.1 + 2²)
0.9012
"""
from __future__ import annotations

from typing import Any

from minitape import ops
from minitape.core.tensor import Tensor, Variable
from minitape.keras.optimizers.optimizer import Optimizer, hyperparameter


class SGD(Optimizer):
    """Gradient descent, with Keras' momentum: ``m = momentum·m − lr·g;  w += m``.

    With ``nesterov=True``: ``w += momentum·m − lr·g``.

    >>> import minitape as tf
    >>> w = tf.Variable(1.0)
    >>> opt = tf.keras.optimizers.SGD(learning_rate=0.1, momentum=0.9)
    >>> for _ in range(2):
    ...     _ = opt.apply_gradients([(tf.constant(1.0), w)])
    >>> round(float(w.numpy()), 4)          # m = -0.1, then 0.9·(-0.1) - 0.1 = -0.19
    0.71
    """

    config_names = ("momentum", "nesterov")

    def __init__(self, learning_rate: Any = 0.01, momentum: float = 0.0, nesterov: bool = False,
                 **kwargs: Any) -> None:
        super().__init__(learning_rate, **kwargs)
        if not isinstance(momentum, float) or not 0 <= momentum <= 1:
            raise ValueError("`momentum` must be a float between [0, 1].")
        self.momentum, self.nesterov = momentum, nesterov
        self.slot_names = ("momentum",) if momentum != 0 else ()

    def update_step(self, gradient: Tensor, variable: Variable, learning_rate: Tensor) -> None:
        """One SGD step for ``variable``.

        >>> import minitape as tf
        >>> w = tf.Variable(1.0)
        >>> tf.keras.optimizers.SGD().update_step(tf.constant(2.0), w, tf.constant(0.1))
        >>> w.numpy()
        np.float32(0.8)
        """
        if self.momentum == 0:
            variable.assign_sub(gradient * learning_rate)
            return
        m = self.slots(variable)["momentum"]
        m.assign(m * self.momentum - gradient * learning_rate)
        variable.assign_add(m * self.momentum - gradient * learning_rate if self.nesterov else m)


class RMSprop(Optimizer):
    """RMSprop, Keras' default for ``compile``: ``v = ρ·v + (1 − ρ)·g²;  w −= lr·g / sqrt(v + ε)``.

    ``centered=True`` divides by the variance, ``v − ḡ²``, with ``ḡ`` the running mean of
    the gradient; ``momentum > 0`` accumulates the increments, ``m = momentum·m + increment``.

    >>> import minitape as tf
    >>> w = tf.Variable(1.0)
    >>> _ = tf.keras.optimizers.RMSprop(learning_rate=0.1).apply_gradients([(tf.constant(2.0), w)])
    >>> round(float(w.numpy()), 4)                 # 1 - 0.1 · 2 / sqrt(0.1 · 4)
    0.6838
    """

    config_names = ("rho", "momentum", "epsilon", "centered")
    slot_groups = (("velocity",), ("momentum",), ("average_gradient",))

    def __init__(self, learning_rate: Any = 0.001, rho: float = 0.9, momentum: float = 0.0, epsilon: float = 1e-7,
                 centered: bool = False, **kwargs: Any) -> None:
        super().__init__(learning_rate, **kwargs)
        self.rho, self.momentum, self.epsilon = (hyperparameter("RMSprop", name, value) for name, value in
                                                 (("rho", rho), ("momentum", momentum), ("epsilon", epsilon)))
        self.centered = centered
        self.slot_names = ("velocity", *(("momentum",) if momentum > 0 else ()),
                           *(("average_gradient",) if centered else ()))

    def update_step(self, gradient: Tensor, variable: Variable, learning_rate: Tensor) -> None:
        """One RMSprop step for ``variable``.

        >>> import minitape as tf
        >>> w, opt = tf.Variable(1.0), tf.keras.optimizers.RMSprop()
        >>> opt.build([w])
        >>> opt.update_step(tf.constant(2.0), w, tf.constant(0.1))
        >>> round(float(opt.slots(w)["velocity"].numpy()), 4)
        0.4
        """
        slots, rho = self.slots(variable), self.rho
        velocity = slots["velocity"]
        velocity.assign(rho * velocity + (1 - rho) * ops.square(gradient))
        if self.centered:
            average = slots["average_gradient"]
            average.assign(rho * average + (1 - rho) * gradient)
            denominator = velocity - ops.square(average) + self.epsilon
        else:
            denominator = velocity + self.epsilon
        increment = learning_rate * gradient / ops.sqrt(denominator)
        if self.momentum > 0:
            slots["momentum"].assign(self.momentum * slots["momentum"] + increment)
            increment = slots["momentum"]
        variable.assign_sub(increment)


class Adagrad(Optimizer):
    """Adagrad: ``a += g²;  w −= lr·g / sqrt(a + ε)``, with ``a`` starting at ``initial_accumulator_value``.

    >>> import minitape as tf
    >>> w = tf.Variable(1.0)
    >>> opt = tf.keras.optimizers.Adagrad(learning_rate=1.0, initial_accumulator_value=0.0)
    >>> for g in (3.0, 4.0):
    ...     _ = opt.apply_gradients([(tf.constant(g), w)])
    >>> round(float(w.numpy()), 4)             # 1 - 3/3 - 4/5
    -0.8
    """

    config_names = ("initial_accumulator_value", "epsilon")
    slot_names = ("accumulator",)

    def __init__(self, learning_rate: Any = 0.001, initial_accumulator_value: float = 0.1, epsilon: float = 1e-7,
                 **kwargs: Any) -> None:
        super().__init__(learning_rate, **kwargs)
        self.initial_accumulator_value = hyperparameter("Adagrad", "initial_accumulator_value",
                                                        initial_accumulator_value)
        self.epsilon = hyperparameter("Adagrad", "epsilon", epsilon)
        self.slot_initial_values = {"accumulator": self.initial_accumulator_value}

    def update_step(self, gradient: Tensor, variable: Variable, learning_rate: Tensor) -> None:
        """One Adagrad step for ``variable``.

        >>> import minitape as tf
        >>> w, opt = tf.Variable(1.0), tf.keras.optimizers.Adagrad(initial_accumulator_value=0.0)
        >>> opt.build([w])
        >>> opt.update_step(tf.constant(2.0), w, tf.constant(0.5))
        >>> float(w.numpy())
        0.5
        """
        accumulator = self.slots(variable)["accumulator"]
        accumulator.assign_add(ops.square(gradient))
        variable.assign_sub(learning_rate * gradient / ops.sqrt(accumulator + self.epsilon))


class Adadelta(Optimizer):
    """Adadelta: a step sized by the running RMS of past steps over that of the gradients, times ``lr``.

    ``a = ρ·a + (1 − ρ)·g²;  Δ = −sqrt(d + ε)/sqrt(a + ε)·g;  d = ρ·d + (1 − ρ)·Δ²;  w += lr·Δ``

    >>> import minitape as tf
    >>> w = tf.Variable(1.0)
    >>> _ = tf.keras.optimizers.Adadelta(learning_rate=1.0).apply_gradients([(tf.constant(1.0), w)])
    >>> round(float(w.numpy()), 6)             # 1 - sqrt(1e-7) / sqrt(0.05 + 1e-7)
    0.998586
    """

    config_names = ("rho", "epsilon")
    slot_names = ("accumulated_grad", "accumulated_delta_var")

    def __init__(self, learning_rate: Any = 0.001, rho: float = 0.95, epsilon: float = 1e-7, **kwargs: Any) -> None:
        super().__init__(learning_rate, **kwargs)
        self.rho, self.epsilon = hyperparameter("Adadelta", "rho", rho), hyperparameter("Adadelta", "epsilon", epsilon)

    def update_step(self, gradient: Tensor, variable: Variable, learning_rate: Tensor) -> None:
        """One Adadelta step for ``variable``.

        >>> import minitape as tf
        >>> w, opt = tf.Variable(1.0), tf.keras.optimizers.Adadelta(rho=0.0, epsilon=1.0)
        >>> opt.build([w])
        >>> opt.update_step(tf.constant(3.0), w, tf.constant(1.0))     # 1 - sqrt(1) / sqrt(9 + 1) · 3
        >>> round(float(w.numpy()), 4)
        0.0513
        """
        slots, rho = self.slots(variable), self.rho
        grads, deltas = slots["accumulated_grad"], slots["accumulated_delta_var"]
        grads.assign(rho * grads + (1 - rho) * ops.square(gradient))
        delta = -ops.sqrt(deltas + self.epsilon) * gradient / ops.sqrt(grads + self.epsilon)
        deltas.assign(rho * deltas + (1 - rho) * ops.square(delta))
        variable.assign_add(learning_rate * delta)


class Ftrl(Optimizer):
    """FTRL-proximal ("follow the regularised leader"), with its L1, L2 and L2-shrinkage strengths, as Keras 3.

    >>> import minitape as tf
    >>> w = tf.Variable(1.0)
    >>> _ = tf.keras.optimizers.Ftrl(learning_rate=0.1).apply_gradients([(tf.constant(1.0), w)])
    >>> round(float(w.numpy()), 4)
    0.6031
    """

    config_names = ("learning_rate_power", "initial_accumulator_value", "l1_regularization_strength",
                    "l2_regularization_strength", "l2_shrinkage_regularization_strength", "beta")
    slot_names = ("accumulator", "linear")

    def __init__(self, learning_rate: Any = 0.001, learning_rate_power: float = -0.5,
                 initial_accumulator_value: float = 0.1, l1_regularization_strength: float = 0.0,
                 l2_regularization_strength: float = 0.0, l2_shrinkage_regularization_strength: float = 0.0,
                 beta: float = 0.0, **kwargs: Any) -> None:
        super().__init__(learning_rate, **kwargs)
        for name, value in (("initial_accumulator_value", initial_accumulator_value),
                            ("l1_regularization_strength", l1_regularization_strength),
                            ("l2_regularization_strength", l2_regularization_strength),
                            ("l2_shrinkage_regularization_strength", l2_shrinkage_regularization_strength)):
            if value < 0.0:
                raise ValueError(f"`{name}` needs to be positive or zero. Received: {name}={value}.")
            setattr(self, name, value)
        if learning_rate_power > 0.0:
            raise ValueError(f"`learning_rate_power` needs to be negative or zero. Received: "
                             f"learning_rate_power={learning_rate_power}.")
        self.learning_rate_power, self.beta = learning_rate_power, beta
        self.slot_initial_values = {"accumulator": initial_accumulator_value}

    def update_step(self, gradient: Tensor, variable: Variable, learning_rate: Tensor) -> None:
        """One FTRL step for ``variable``: the weight is the closed-form minimiser of the regularised leader.

        >>> import minitape as tf
        >>> w, opt = tf.Variable(1.0), tf.keras.optimizers.Ftrl(l1_regularization_strength=10.0)
        >>> opt.build([w])
        >>> opt.update_step(tf.constant(1.0), w, tf.constant(0.1))
        >>> float(w.numpy())                  # a strong L1 pulls it to exactly 0
        0.0
        """
        slots, power = self.slots(variable), -self.learning_rate_power
        accumulator, linear = slots["accumulator"], slots["linear"]
        l2 = self.l2_regularization_strength + self.beta / (2.0 * learning_rate)
        shrunk_gradient = gradient + 2 * self.l2_shrinkage_regularization_strength * variable
        new_accumulator = accumulator + ops.square(gradient)
        sigma = (ops.pow(new_accumulator, power) - ops.pow(accumulator, power)) / learning_rate
        linear.assign_add(shrunk_gradient - sigma * variable)
        quadratic = ops.pow(new_accumulator, power) / learning_rate + 2 * l2
        l1 = self.l1_regularization_strength
        variable.assign((ops.clip_by_value(linear, -l1, l1) - linear) / quadratic)
        accumulator.assign(new_accumulator)
