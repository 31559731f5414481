"""Adam and its relatives: Adam (``amsgrad``), AdamW, Adamax, Nadam, Lion and Adafactor, as Keras 3 writes them.

Each keeps running moments of the gradient and divides the first by (a root of) the second;
each also takes Keras' base arguments (``weight_decay``, ``clipnorm``..., see ``Optimizer``).

>>> import minitape as tf
>>> w = tf.Variable([1.0, -1.0])
>>> opt = tf.keras.optimizers.Nadam(learning_rate=0.1)
>>> _ = opt.apply_gradients([(tf.constant([0.5, -2.0]), w)])
>>> w.numpy().round(3)               # each weight moves by about lr, whatever the gradient's size
array([ 0.894, -0.894], dtype=float32)
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from minitape import ops
from minitape.core.tensor import Tensor, Variable
from minitape.keras.optimizers.optimizer import Optimizer, hyperparameter


class Adam(Optimizer):
    """Adam, as Keras writes it (epsilon added to ``sqrt(v)``, bias correction folded into the step)::

        alpha = lr · sqrt(1 − β₂ᵗ) / (1 − β₁ᵗ)
        m += (g − m)(1 − β₁);  v += (g² − v)(1 − β₂)
        w −= alpha · m / (sqrt(v) + ε)

    With ``amsgrad=True`` the step divides by the largest ``v`` seen so far instead.

    >>> import minitape as tf
    >>> w = tf.Variable(1.0)
    >>> _ = tf.keras.optimizers.Adam(learning_rate=0.1).apply_gradients([(tf.constant(5.0), w)])
    >>> round(float(w.numpy()), 4)          # the first step moves each weight by about lr
    0.9
    """

    config_names = ("beta_1", "beta_2", "epsilon", "amsgrad")

    def __init__(self, learning_rate: Any = 0.001, beta_1: float = 0.9, beta_2: float = 0.999, epsilon: float = 1e-7,
                 amsgrad: bool = False, **kwargs: Any) -> None:
        super().__init__(learning_rate, **kwargs)
        name = type(self).__name__
        self.beta_1, self.beta_2, self.epsilon = (hyperparameter(name, argument, value) for argument, value in
                                                  (("beta_1", beta_1), ("beta_2", beta_2), ("epsilon", epsilon)))
        self.amsgrad = amsgrad
        self._flat: tuple | None = None          # the fused update's last flat arrays (see ``_laid_out``)
        self.slot_names = ("momentum", "velocity", *(("velocity_hat",) if amsgrad else ()))
        self.slot_groups = (("momentum", "velocity"), ("velocity_hat",))

    def update_step(self, gradient: Tensor, variable: Variable, learning_rate: Tensor) -> None:
        """One Adam step for ``variable``.

        >>> import minitape as tf
        >>> w, opt = tf.Variable(1.0), tf.keras.optimizers.Adam()
        >>> opt.build([w])
        >>> opt.update_step(tf.constant(-2.0), w, tf.constant(0.1))
        >>> round(float(w.numpy()), 4), round(float(opt.slots(w)["momentum"].numpy()), 4)
        (1.1, -0.2)
        """
        slots = self.slots(variable)
        m, v = slots["momentum"], slots["velocity"]
        step = self.local_step(variable.dtype)
        alpha = learning_rate * ops.sqrt(1 - self.beta_2 ** step) / (1 - self.beta_1 ** step)
        m.assign_add((gradient - m) * (1 - self.beta_1))
        v.assign_add((ops.square(gradient) - v) * (1 - self.beta_2))
        if self.amsgrad:
            slots["velocity_hat"].assign(ops.maximum(slots["velocity_hat"], v))
            v = slots["velocity_hat"]
        variable.assign_sub(m * alpha / (ops.sqrt(v) + self.epsilon))

    # Just an optimization: update_step's rule for every variable at once, when all are NumPy arrays of one
    # dtype and update_step is Adam's own.  The weights, moments and gradients are laid end to end in fresh
    # flat arrays, the rule runs once over them in NumPy (the same arithmetic in the same order: the same
    # bits) with its temporaries written in place, and each variable and slot then holds a view of the new
    # arrays (nobody else holds them; no array a tensor was given is ever written to; a value read before a
    # later step keeps that step's whole flat array alive, not only its own part).  It saves an op per
    # operation and the NumPy calls per variable: on benchmarks/sequence.py's transformer (70 variables) it
    # takes apply_gradients from 2.7 to 1.3 ms and the whole step to 0.91× (CPU-time medians, fresh processes
    # alternating with the variable-by-variable NumPy update it replaces, 6 rounds, a busy machine).
    def _update_steps(self, grads: list[Tensor], variables: list[Variable], learning_rate: Tensor) -> None:
        holders = [(variable, *self.slots(variable).values()) for variable in variables]
        laid_out = self._laid_out(holders)
        if not self._fusable(grads, variables, holders, laid_out):
            return super()._update_steps(grads, variables, learning_rate)
        w, m, v = laid_out or (np.concatenate([h[k]._value.ravel() for h in holders]) for k in range(3))
        g = np.concatenate([t._value.ravel() for t in grads])
        step = self.local_step(variables[0].dtype)
        alpha = (ops.cast(learning_rate, variables[0].dtype) * ops.sqrt(1 - self.beta_2 ** step)
                 / (1 - self.beta_1 ** step))._value
        with np.errstate(all="ignore"):     # as every op runs: an inf or nan is a value, not a warning
            m_new = np.subtract(g, m)       # m + (g - m)(1 - β₁)
            m_new *= 1 - self.beta_1
            m_new += m
            v_new = np.square(g)            # v + (g² - v)(1 - β₂)
            v_new -= v
            v_new *= 1 - self.beta_2
            v_new += v
            denominator = np.sqrt(v_new)    # w - m·alpha / (sqrt(v) + ε)
            denominator += self.epsilon
            update = np.multiply(m_new, alpha)
            update /= denominator
            w_new = np.subtract(w, update, out=update)
        self._hold_parts(holders, (w_new, m_new, v_new))

    def _hold_parts(self, holders: list[tuple[Variable, ...]], flats: tuple[np.ndarray, ...]) -> None:
        """Each variable and slot (a row of ``holders``) takes its part of the new flat arrays, as a view."""
        parts, start = [], 0
        for row in holders:
            shape, end = row[0]._value.shape, start + row[0]._value.size
            for holder, flat in zip(row, flats):
                holder._value = flat[start:end].reshape(shape) if shape else flat[start]    # a scalar's NumPy scalar
                parts.append(holder._value)
            start = end
        self._flat = (holders, parts, flats)

    # Just an optimization, the fused update's again: while every variable and slot still holds its part of the
    # last step's flat arrays (nothing assigned them since), those arrays are the next step's, without laying
    # 210 arrays end to end again nor checking their dtypes: apply_gradients takes 0.87× the time, the step 0.99×
    # (benchmarks/sequence.py, CPU-time medians of 300 steps, 6 rounds of paired fresh processes).
    def _laid_out(self, holders: list[tuple[Variable, ...]]) -> tuple[np.ndarray, ...] | None:
        """The last step's flat weights, momenta and velocities, if ``holders`` all still hold their parts."""
        last = self._flat
        if last is None or len(last[1]) != 3 * len(holders):
            return None
        pairs = zip((h for row in holders for h in row), (h for row in last[0] for h in row), last[1])
        return last[2] if all(now is then and now._value is part for now, then, part in pairs) else None

    def _fusable(self, grads: list[Tensor], variables: list[Variable], holders: list[tuple[Variable, ...]],
                 laid_out: tuple | None) -> bool:
        """Whether ``_update_steps`` may update these variables at once (see there): the variables and slots
        ``laid_out`` last step are known to be of the one dtype."""
        if self.amsgrad or type(self).update_step is not Adam.update_step:
            return False
        if not isinstance(variables[0]._value, np.ndarray | np.generic):     # NumPy's alone: its dtypes compare
            return False
        dtype = variables[0]._value.dtype
        arrays = [t._value for t in grads] + ([] if laid_out else [t._value for row in holders for t in row])
        return (dtype in (np.float32, np.float64) and all(type(a) in (np.ndarray, dtype.type) and a.dtype == dtype
                                                          for a in arrays)
                and (laid_out is not None or (len({id(v) for v in variables}) == len(variables)
                                              and all(type(v).assign is Variable.assign for v in variables))))


class AdamW(Adam):
    """Adam with decoupled weight decay (Loshchilov & Hutter): ``weight_decay`` defaults to 0.004 and is required.

    >>> import minitape as tf
    >>> w = tf.Variable(1.0)
    >>> _ = tf.keras.optimizers.AdamW(learning_rate=0.1, weight_decay=0.5).apply_gradients([(tf.constant(0.0), w)])
    >>> round(float(w.numpy()), 4)          # decayed by 1 · 0.5 · 0.1, and a zero gradient moves it no further
    0.95
    """

    def __init__(self, learning_rate: Any = 0.001, weight_decay: float = 0.004, beta_1: float = 0.9,
                 beta_2: float = 0.999, epsilon: float = 1e-7, amsgrad: bool = False, **kwargs: Any) -> None:
        super().__init__(learning_rate, beta_1, beta_2, epsilon, amsgrad, weight_decay=weight_decay, **kwargs)
        if self.weight_decay is None:
            raise ValueError("Argument `weight_decay` must be a float. Received: weight_decay=None")


class Adamax(Optimizer):
    """Adam with the infinity norm: ``m += (g − m)(1 − β₁);  u = max(β₂·u, |g|);  w −= lr·m / ((1 − β₁ᵗ)(u + ε))``.

    >>> import minitape as tf
    >>> w = tf.Variable(1.0)
    >>> _ = tf.keras.optimizers.Adamax(learning_rate=0.1).apply_gradients([(tf.constant(3.0), w)])
    >>> round(float(w.numpy()), 4)
    0.9
    """

    config_names = ("beta_1", "beta_2", "epsilon")
    slot_names = ("momentum", "norm")

    def __init__(self, learning_rate: Any = 0.001, beta_1: float = 0.9, beta_2: float = 0.999, epsilon: float = 1e-7,
                 **kwargs: Any) -> None:
        super().__init__(learning_rate, **kwargs)
        self.beta_1, self.beta_2, self.epsilon = (hyperparameter("Adamax", argument, value) for argument, value in
                                                  (("beta_1", beta_1), ("beta_2", beta_2), ("epsilon", epsilon)))

    def update_step(self, gradient: Tensor, variable: Variable, learning_rate: Tensor) -> None:
        """One Adamax step for ``variable``.

        >>> import minitape as tf
        >>> w, opt = tf.Variable(1.0), tf.keras.optimizers.Adamax()
        >>> opt.build([w])
        >>> opt.update_step(tf.constant(-4.0), w, tf.constant(0.1))
        >>> round(float(opt.slots(w)["norm"].numpy()), 4)
        4.0
        """
        slots, step = self.slots(variable), self.local_step(variable.dtype)
        m, u = slots["momentum"], slots["norm"]
        m.assign_add((gradient - m) * (1 - self.beta_1))
        u.assign(ops.maximum(self.beta_2 * u, ops.abs(gradient)))
        variable.assign_sub(learning_rate * m / ((1 - self.beta_1 ** step) * (u + self.epsilon)))


class Nadam(Adam):
    """Adam with Nesterov momentum (Dozat), with Keras' momentum schedule ``μₜ = β₁(1 − ½·0.96ᵗ)``.

    >>> import minitape as tf
    >>> w = tf.Variable(1.0)
    >>> _ = tf.keras.optimizers.Nadam(learning_rate=0.1).apply_gradients([(tf.constant(3.0), w)])
    >>> round(float(w.numpy()), 4)          # Nesterov's look-ahead: a little more than lr
    0.8937
    """

    config_names = ("beta_1", "beta_2", "epsilon")

    def __init__(self, learning_rate: Any = 0.001, beta_1: float = 0.9, beta_2: float = 0.999, epsilon: float = 1e-7,
                 **kwargs: Any) -> None:
        super().__init__(learning_rate, beta_1, beta_2, epsilon, **kwargs)
        # The product of the momentum schedule μ₁···μₜ, advanced once per step; a variable, as in Keras.
        self._u_product = self._own_variable(np.float32(1.0), "variable")
        self._step_variables.append(self._u_product)

    def _mu(self, step: Tensor) -> Tensor:
        return self.beta_1 * (1.0 - 0.5 * ops.pow(0.96, step))

    def _before_updates(self) -> None:
        self._u_product.assign(self._u_product * self._mu(self.local_step()))

    def update_step(self, gradient: Tensor, variable: Variable, learning_rate: Tensor) -> None:
        """One Nadam step for ``variable`` (``apply`` has advanced the momentum schedule's product first).

        >>> import minitape as tf
        >>> w, opt = tf.Variable(1.0), tf.keras.optimizers.Nadam()
        >>> opt.build([w])
        >>> opt._before_updates(); opt.update_step(tf.constant(2.0), w, tf.constant(0.1))
        >>> round(float(w.numpy()), 4)
        0.8937
        """
        step = self.local_step(variable.dtype)
        mu, mu_next = self._mu(step), self._mu(step + 1)
        product = ops.cast(self._u_product, variable.dtype)
        slots = self.slots(variable)
        m, v = slots["momentum"], slots["velocity"]
        m.assign_add((gradient - m) * (1 - self.beta_1))
        v.assign_add((ops.square(gradient) - v) * (1 - self.beta_2))
        m_hat = mu_next * m / (1 - product * mu_next) + (1 - mu) * gradient / (1 - product)
        v_hat = v / (1 - self.beta_2 ** step)
        variable.assign_sub(m_hat * learning_rate / (ops.sqrt(v_hat) + self.epsilon))


class Lion(Optimizer):
    """Lion (Chen et al. 2023): the sign of an interpolated momentum, ``w −= lr·sign(β₁·m + (1 − β₁)·g)``,
    then ``m = β₂·m + (1 − β₂)·g``.

    >>> import minitape as tf
    >>> w = tf.Variable([1.0, 1.0])
    >>> _ = tf.keras.optimizers.Lion(learning_rate=0.1).apply_gradients([(tf.constant([0.01, -5.0]), w)])
    >>> w.numpy()
    array([0.9, 1.1], dtype=float32)
    """

    config_names = ("beta_1", "beta_2")
    slot_names = ("momentum",)

    def __init__(self, learning_rate: Any = 0.001, beta_1: float = 0.9, beta_2: float = 0.99, **kwargs: Any) -> None:
        super().__init__(learning_rate, **kwargs)
        self.beta_1, self.beta_2 = hyperparameter("Lion", "beta_1", beta_1), hyperparameter("Lion", "beta_2", beta_2)
        if not 0 < self.beta_1 <= 1:
            raise ValueError(f"Argument `beta_1` must be in the [0, 1] range. Otherwise, the optimizer degenerates "
                             f"to SignSGD. Received: beta_1={beta_1}.")

    def update_step(self, gradient: Tensor, variable: Variable, learning_rate: Tensor) -> None:
        """One Lion step for ``variable``.

        >>> import minitape as tf
        >>> w, opt = tf.Variable(1.0), tf.keras.optimizers.Lion()
        >>> opt.build([w])
        >>> opt.update_step(tf.constant(-3.0), w, tf.constant(0.5))
        >>> float(w.numpy())
        1.5
        """
        m = self.slots(variable)["momentum"]
        variable.assign_sub(learning_rate * ops.sign(m * self.beta_1 + gradient * (1.0 - self.beta_1)))
        m.assign(m * self.beta_2 + gradient * (1.0 - self.beta_2))


class Adafactor(Optimizer):
    """Adafactor (Shazeer & Stern 2018): for a matrix, the second moment kept as a row and a column factor.

    The step is relative to the weight's RMS (at least ``epsilon_2``), and the update's own RMS
    is clipped to ``clip_threshold``.

    >>> import minitape as tf
    >>> w = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    >>> _ = tf.keras.optimizers.Adafactor(learning_rate=0.1).apply_gradients([(tf.ones((2, 2)), w)])
    >>> w.numpy().round(4)              # each moves by lr · RMS(w) = 0.1 · 2.7386
    array([[0.7261, 1.7261],
           [2.7261, 3.7261]], dtype=float32)
    """

    config_names = ("beta_2_decay", "epsilon_1", "epsilon_2", "clip_threshold", "relative_step")

    def __init__(self, learning_rate: Any = 0.001, beta_2_decay: float = -0.8, epsilon_1: float = 1e-30,
                 epsilon_2: float = 1e-3, clip_threshold: float = 1.0, relative_step: bool = True,
                 **kwargs: Any) -> None:
        super().__init__(learning_rate, **kwargs)
        self.beta_2_decay, self.epsilon_1, self.epsilon_2 = beta_2_decay, epsilon_1, epsilon_2
        self.clip_threshold, self.relative_step = clip_threshold, relative_step

    def build(self, var_list: Sequence[Variable]) -> None:
        """The factors: a row and a column per matrix (scalars, unused, for a vector), and a full ``v``.

        >>> import minitape as tf
        >>> w, opt = tf.keras.Variable(tf.ones((2, 3)), name="w"), tf.keras.optimizers.Adafactor()
        >>> opt.build([w])
        >>> [tuple(slot.shape) for slot in opt.slots(w).values()]
        [(2,), (3,), (2, 3)]
        """
        for variable in var_list:
            if variable._id in self._slots:
                continue
            super().build([variable])
            shape = tuple(variable.shape)
            factored = len(shape) >= 2
            slots = self._slots[variable._id]
            for name, factor_shape in (("r", shape[:-1]), ("c", shape[:-2] + shape[-1:])):
                slots[name] = self._own_variable(ops.zeros(factor_shape if factored else (), variable.dtype),
                                                 f"{variable.name}_{name}")
            slots["v"] = self.add_variable_from_reference(variable, "velocity")

    def update_step(self, gradient: Tensor, variable: Variable, learning_rate: Tensor) -> None:
        """One Adafactor step for ``variable``.

        >>> import minitape as tf
        >>> w, opt = tf.Variable([3.0, 4.0]), tf.keras.optimizers.Adafactor()
        >>> opt.build([w])
        >>> opt.update_step(tf.constant([1.0, 1.0]), w, tf.constant(1.0))
        >>> w.numpy().round(4)                # moved by RMS(w) = 3.5355
        array([-0.5355,  0.4645], dtype=float32)
        """
        step = self.local_step(variable.dtype)
        if not callable(self._learning_rate) and self.relative_step:
            learning_rate = ops.minimum(learning_rate, 1 / ops.sqrt(step))
        slots = self.slots(variable)
        r, c, v = slots["r"], slots["c"], slots["v"]
        rho = ops.minimum(learning_rate, 1 / ops.sqrt(step))
        alpha = ops.maximum(self.epsilon_2, _rms(variable)) * rho
        squared = ops.square(gradient) + self.epsilon_1
        beta_2 = 1 - ops.pow(step, self.beta_2_decay)
        if len(variable.shape) >= 2:
            r.assign(beta_2 * r + (1 - beta_2) * ops.reduce_mean(squared, axis=-1))
            c.assign(beta_2 * c + (1 - beta_2) * ops.reduce_mean(squared, axis=-2))
            row = r / ops.reduce_mean(r, axis=-1, keepdims=True)
            v.assign(ops.expand_dims(row, -1) * ops.expand_dims(c, -2))
        else:
            v.assign(beta_2 * v + (1 - beta_2) * squared)
        update = gradient / ops.sqrt(v)
        update = update / ops.maximum(1.0, _rms(update) / self.clip_threshold)
        variable.assign_sub(alpha * update)


def _rms(x: Tensor) -> Tensor:
    return ops.sqrt(ops.reduce_mean(ops.square(x)))
