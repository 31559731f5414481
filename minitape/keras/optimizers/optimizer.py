"""The optimiser base class: Keras 3's step, in the order Keras 3 takes it.

``apply(grads, variables)`` (or ``apply_gradients(zip(grads, variables))``) does, for one step:

1. drop the pairs whose gradient is None (with Keras' warning);
2. clip the gradients (``clipnorm``, ``clipvalue`` or ``global_clipnorm``);
3. decay the weights (``weight_decay``): ``w -= w · weight_decay · lr``;
4. ``update_step(gradient, variable, learning_rate)`` for each variable: the rule a subclass writes;
5. the moving average of the weights (``use_ema``), then each weight's ``constraint``;
6. ``iterations += 1``.

The learning rate is read once per step, before it, from a variable, a schedule called
with ``iterations``, or a callable called with no argument.  A subclass names its per-weight
state in ``slot_names`` (built, zeros unless ``slot_initial_values`` says otherwise, on the
first step) and its own hyperparameters in ``config_names`` (for ``get_config``).

>>> import minitape as tf
>>> w = tf.Variable(1.0)
>>> opt = tf.keras.optimizers.SGD(learning_rate=0.1)
>>> with tf.GradientTape() as tape:
...     loss = w * w
>>> _ = opt.apply_gradients(zip(tape.gradient(loss, [w]), [w]))
>>> w.numpy()                    # 1 - 0.1 * 2
np.float32(0.8)
"""
from __future__ import annotations

import warnings
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from minitape import ops
from minitape.core import dtypes
from minitape.core.tensor import Tensor, Variable, convert_to_tensor
from minitape.dialect import train
from minitape.keras.naming import unique_name
from minitape.keras.optimizers.regularizing import MovingAverage, WeightDecay
from minitape.keras.optimizers.schedules import LearningRateSchedule, deserialize, serialize
from minitape.keras.variables import KerasVariable


def hyperparameter(optimizer: str, argument: str, value: Any) -> float:
    """``value`` as a Python float; anything but a real number is Keras' ValueError, naming the argument.

    >>> from minitape.keras.optimizers.optimizer import hyperparameter
    >>> hyperparameter("SGD", "momentum", 0.9)
    0.9
    >>> hyperparameter("SGD", "momentum", None)
    Traceback (most recent call last):
    ...
    ValueError: SGD: argument `momentum` should be a float, got None (NoneType).
    """
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        raise ValueError(f"{optimizer}: argument `{argument}` should be a float, got {value!r} "
                         f"({type(value).__name__}).")
    return float(value)


def _check_learning_rate(learning_rate: Any) -> None:
    # As Keras 3: a Python float (an int is refused too), a schedule, or a callable.
    if not (isinstance(learning_rate, float | LearningRateSchedule) or callable(learning_rate)):
        raise ValueError(f"Argument `learning_rate` should be float, or an instance of LearningRateSchedule, or a "
                         f"callable (that takes in the current iteration value and returns the corresponding "
                         f"learning rate value). Received instead: learning_rate={learning_rate}")


class Optimizer(WeightDecay, MovingAverage):
    """The base class.  A subclass declares ``slot_names`` and writes ``update_step``.

    >>> import minitape as tf
    >>> class SignSGD(tf.keras.optimizers.Optimizer):
    ...     def update_step(self, gradient, variable, learning_rate):
    ...         variable.assign_sub(learning_rate * tf.sign(gradient))
    >>> w = tf.Variable([1.0, -1.0])
    >>> _ = SignSGD(0.5).apply_gradients([(tf.constant([3.0, -0.1]), w)])
    >>> w.numpy()
    array([ 0.5, -0.5], dtype=float32)
    """

    slot_names: tuple[str, ...] = ()
    #: Keras lists some slots weight by weight, others after all of those (Adam's ``velocity_hat``): the groups
    #: that ``variables`` lists in turn; None lists each weight's slots together.
    slot_groups: tuple[tuple[str, ...], ...] | None = None
    slot_initial_values: dict[str, float] = {}
    config_names: tuple[str, ...] = ()

    def __init__(self, learning_rate: Any, weight_decay: float | None = None, clipnorm: float | None = None,
                 clipvalue: float | None = None, global_clipnorm: float | None = None, use_ema: bool = False,
                 ema_momentum: float = 0.99, ema_overwrite_frequency: int | None = None,
                 loss_scale_factor: float | None = None, gradient_accumulation_steps: int | None = None,
                 name: str | None = None, **kwargs: Any) -> None:
        if kwargs.pop("decay", None) is not None:
            warnings.warn("Argument `decay` is no longer supported and will be ignored.", stacklevel=2)
        if kwargs:
            raise ValueError(f"Argument(s) not recognized: {kwargs}")
        if gradient_accumulation_steps is not None:
            raise ValueError(f"gradient_accumulation_steps={gradient_accumulation_steps}: minitape's optimisers do "
                             f"not accumulate gradients; leave it None, or add the gradients up in your loop.")
        if sum(a is not None for a in (clipnorm, clipvalue, global_clipnorm)) > 1:
            raise ValueError(f"Only one of `clipnorm`, `clipvalue` and `global_clipnorm` can be set. Received: "
                             f"clipnorm={clipnorm}, clipvalue={clipvalue}, global_clipnorm={global_clipnorm}")
        if use_ema and not 0 <= ema_momentum <= 1:
            raise ValueError(f"`ema_momentum` must be in the range [0, 1]. Received: ema_momentum={ema_momentum}")
        _check_learning_rate(learning_rate)
        self.name = name or unique_name(type(self))
        self.weight_decay, self.clipnorm, self.clipvalue, self.global_clipnorm = (weight_decay, clipnorm, clipvalue,
                                                                                  global_clipnorm)
        self.use_ema, self.ema_momentum, self.ema_overwrite_frequency = use_ema, ema_momentum, ema_overwrite_frequency
        self.loss_scale_factor, self.gradient_accumulation_steps = loss_scale_factor, None
        self.iterations = self._own_variable(np.int64(0), "iteration")
        self._learning_rate: Any = (self._own_variable(np.float32(learning_rate), "learning_rate")
                                    if isinstance(learning_rate, float) else learning_rate)
        self._slots: dict[int, dict[str, Variable]] = {}
        self._averages: dict[int, Variable] = {}
        self._step_variables: list[Variable] = []      # state kept per step, not per weight (Nadam's)
        self._built_for: list[Variable] = []
        self._no_decay_ids: set[int] = set()
        self._no_decay_pattern: re.Pattern | None = None

    def _own_variable(self, value: Any, name: str) -> KerasVariable:
        return KerasVariable(value, trainable=False, name=name, path=f"{self.name}/{name}")

    # -- the learning rate ---------------------------------------------------------------------------------------

    @property
    def learning_rate(self) -> Any:
        """The learning rate now: the variable (a float32 ``Variable``), or the schedule's value at ``iterations``.

        Assign a float to change it (not when it is a schedule), or a schedule or callable to replace it.

        >>> import minitape as tf
        >>> opt = tf.keras.optimizers.Adam(0.01, name="adam")
        >>> opt.learning_rate = 0.5
        >>> opt.learning_rate
        <Variable path=adam/learning_rate, shape=(), dtype=float32, value=0.5>
        """
        if isinstance(self._learning_rate, LearningRateSchedule):
            return self._learning_rate(self.iterations)
        if callable(self._learning_rate):
            return self._learning_rate()
        return self._learning_rate

    @learning_rate.setter
    def learning_rate(self, learning_rate: Any) -> None:
        if isinstance(learning_rate, LearningRateSchedule) or callable(learning_rate):
            self._learning_rate = learning_rate
        elif isinstance(self._learning_rate, LearningRateSchedule):
            raise TypeError("This optimizer was created with a `LearningRateSchedule` object as its `learning_rate` "
                            "constructor argument, hence its learning rate is not settable. If you need the learning "
                            "rate to be settable, you should instantiate the optimizer with a float `learning_rate` "
                            "argument.")
        elif isinstance(self._learning_rate, Variable):
            self._learning_rate.assign(learning_rate)
        else:
            self._learning_rate = self._own_variable(np.float32(learning_rate), "learning_rate")

    @property
    def variables(self) -> list[Variable]:
        """The optimiser's state: ``iterations``, the learning-rate variable, then each weight's slots.

        >>> import minitape as tf
        >>> opt = tf.keras.optimizers.SGD(0.1, momentum=0.9, name="sgd")
        >>> opt.apply([tf.constant([1.0])], [tf.keras.Variable([0.0], name="w")])
        >>> [v.path for v in opt.variables]
        ['sgd/iteration', 'sgd/learning_rate', 'sgd/w_momentum']
        """
        own = [self.iterations, *([self._learning_rate] if isinstance(self._learning_rate, Variable) else [])]
        groups = self.slot_groups or (self.slot_names,)
        slots = [slots[name] for group in groups for slots in self._slots.values() for name in group if name in slots]
        return own + slots + [*self._averages.values()] + self._step_variables

    # -- building the per-weight state ---------------------------------------------------------------------------

    def build(self, var_list: Sequence[Variable]) -> None:
        """Make each variable's slots (and its moving average with ``use_ema``); the first step calls it.

        >>> import minitape as tf
        >>> opt = tf.keras.optimizers.Adam(name="adam")
        >>> opt.build([tf.keras.Variable([1.0, 2.0], name="w")])
        >>> [v.path for v in opt.variables[2:]]
        ['adam/w_momentum', 'adam/w_velocity']
        """
        for variable in var_list:
            if variable._id in self._slots:
                continue
            self._built_for.append(variable)
            initial = self.slot_initial_values
            self._slots[variable._id] = {name: self.add_variable_from_reference(variable, name, initial.get(name, 0.0))
                                         for name in self.slot_names}
            if self.use_ema:
                self._averages[variable._id] = self.add_variable_from_reference(variable, "average", None)
        train.restore_deferred(self)         # values a tf.train.Checkpoint read before these slots existed

    def add_variable_from_reference(self, reference_variable: Variable, name: str,
                                    initial_value: float | None = 0.0) -> KerasVariable:
        """A state variable shaped like ``reference_variable``, named after its path as Keras names it.

        ``initial_value=None`` starts it as a copy of the reference.

        >>> import minitape as tf
        >>> opt = tf.keras.optimizers.SGD(name="sgd")
        >>> opt.add_variable_from_reference(tf.keras.Variable([1.0, 2.0], name="w"), "momentum")
        <Variable path=sgd/w_momentum, shape=(2,), dtype=float32, value=[0. 0.]>
        """
        prefix = getattr(reference_variable, "path", None) or str(reference_variable.name).replace(":", "_")
        value = (convert_to_tensor(reference_variable) if initial_value is None
                 else ops.fill(reference_variable.shape, ops.cast(initial_value, reference_variable.dtype)))
        return self._own_variable(value, f"{prefix.replace('/', '_')}_{name}")

    def slots(self, variable: Variable) -> dict[str, Variable]:
        """``variable``'s state, by slot name (what ``update_step`` reads and assigns).

        >>> import minitape as tf
        >>> w, opt = tf.Variable([1.0]), tf.keras.optimizers.RMSprop()
        >>> opt.build([w])
        >>> list(opt.slots(w))
        ['velocity']
        """
        return self._slots[variable._id]

    # -- one step ------------------------------------------------------------------------------------------------

    def apply_gradients(self, grads_and_vars: Iterable[tuple[Any, Variable]]) -> Variable:
        """Apply ``(gradient, variable)`` pairs; returns ``iterations``, as Keras 3 does.

        >>> import minitape as tf
        >>> w = tf.Variable(1.0)
        >>> opt = tf.keras.optimizers.SGD(learning_rate=0.1, name="sgd")
        >>> opt.apply_gradients([(tf.constant(2.0), w)])
        <Variable path=sgd/iteration, shape=(), dtype=int64, value=1>
        >>> w.numpy()
        np.float32(0.8)
        """
        pairs = list(grads_and_vars)
        for pair in pairs:
            if not (isinstance(pair, tuple | list) and len(pair) == 2):
                raise ValueError(f"apply_gradients takes (gradient, variable) pairs, e.g. zip(grads, variables); "
                                 f"got {pair!r}.")
        self.apply([g for g, _ in pairs], [v for _, v in pairs])
        return self.iterations

    def apply(self, grads: Sequence[Any], trainable_variables: Sequence[Variable] | None = None) -> None:
        """Apply ``grads[i]`` to ``trainable_variables[i]`` (Keras 3's spelling of ``apply_gradients``).

        >>> import minitape as tf
        >>> w, b = tf.Variable(1.0), tf.Variable(0.0)
        >>> tf.keras.optimizers.SGD(learning_rate=0.5).apply([tf.constant(1.0), tf.constant(-1.0)], [w, b])
        >>> w.numpy(), b.numpy()
        (np.float32(0.5), np.float32(0.5))
        """
        grads = list(grads)
        if not grads:
            return
        if trainable_variables is None:
            if not self._built_for:
                raise ValueError("When passing `grads` without `variables`, the optimizer must already be built on a "
                                 "list of variables. Call `optimizer.build(trainable_variables)` first. ")
            trainable_variables = self._built_for
        variables = list(trainable_variables)
        if len(grads) != len(variables):
            raise ValueError(f"apply: got {len(grads)} gradients for {len(variables)} variables; pass one gradient "
                             f"per variable, in the same order.")
        for variable in variables:
            if not isinstance(variable, Variable):
                raise TypeError(f"apply_gradients: {variable!r} is not a Variable; optimisers update variables.")
        if not self._built_for:
            self.build(variables)
        for variable in variables:
            if variable._id not in self._slots:
                raise ValueError(f"Unknown variable: {variable}. This optimizer can only be called for the variables "
                                 f"it was originally built with. When working with a new set of variables, you "
                                 f"should recreate a new optimizer instance.")
        grads, variables = self._present(grads, variables)
        if self.loss_scale_factor is not None:
            grads = [g / self.loss_scale_factor for g in grads]
        grads = self._clip(grads)
        self._apply_weight_decay(variables)
        learning_rate = self.learning_rate
        self._before_updates()
        self._update_steps(grads, variables, learning_rate)
        if self.use_ema:
            self._update_averages()
        for variable in variables:       # as Keras 3: once every variable has moved, each is projected
            if getattr(variable, "constraint", None) is not None:
                variable.assign(variable.constraint(variable))
        self.iterations.assign_add(1)

    def _before_updates(self) -> None:
        """Once per step, before the variables' updates (Nadam advances its momentum schedule here)."""

    def _update_steps(self, grads: list[Tensor], variables: list[Variable], learning_rate: Tensor) -> None:
        """``update_step`` for each pair, the learning rate cast to each variable's dtype (Adam fuses them)."""
        for grad, variable in zip(grads, variables):
            self.update_step(grad, variable, ops.cast(learning_rate, variable.dtype))

    def _present(self, grads: list[Any], variables: list[Variable]) -> tuple[list[Tensor], list[Variable]]:
        """The pairs with a gradient, as tensors of their variable's dtype; Keras' warning names the others."""
        missing = [getattr(v, "path", v.name) for g, v in zip(grads, variables) if g is None]
        if len(missing) == len(grads):
            raise ValueError("No gradients provided for any variable.")
        if missing:
            warnings.warn(f"Gradients do not exist for variables {missing} when minimizing the loss. If using "
                          f"`model.compile()`, did you forget to provide a `loss` argument?", stacklevel=3)
        kept = [(convert_to_tensor(g), v) for g, v in zip(grads, variables) if g is not None]
        for g, v in kept:
            if g._value.shape != v._value.shape:       # the arrays' shapes: no TensorShape made per variable
                raise ValueError(f"apply_gradients: gradient of shape {tuple(g.shape)} for variable '{v.name}' "
                                 f"of shape {tuple(v.shape)}.")
        return [g if g._value.dtype == v._value.dtype else ops.cast(g, v.dtype) for g, v in kept], [v for _, v in kept]

    def _clip(self, grads: list[Tensor]) -> list[Tensor]:
        # As Keras 3: clipnorm clips each gradient by its own norm, global_clipnorm all by their joint norm.
        if self.clipnorm and self.clipnorm > 0:
            return [ops.clip_by_norm(g, self.clipnorm) for g in grads]
        if self.global_clipnorm and self.global_clipnorm > 0:
            return ops.clip_by_global_norm(grads, self.global_clipnorm)[0]
        if self.clipvalue and self.clipvalue > 0:
            return [ops.clip_by_value(g, -self.clipvalue, self.clipvalue) for g in grads]
        return grads

    def update_step(self, gradient: Tensor, variable: Variable, learning_rate: Tensor) -> None:
        """One step for one variable, written by each subclass (``learning_rate`` is in the variable's dtype).

        >>> import minitape as tf
        >>> tf.keras.optimizers.Optimizer(0.1).update_step(tf.constant(1.0), tf.Variable(1.0), tf.constant(0.1))
        Traceback (most recent call last):
        ...
        NotImplementedError: Optimizer has no update_step: a subclass writes it.
        """
        raise NotImplementedError(f"{type(self).__name__} has no update_step: a subclass writes it.")

    def local_step(self, dtype: Any = dtypes.float32) -> Tensor:
        """The number of the step being taken, from 1 (``iterations + 1``), as Keras' rules use it.

        >>> import minitape as tf
        >>> float(tf.keras.optimizers.Adam().local_step())
        1.0
        """
        return ops.cast(self.iterations + 1, dtype)

    # -- configuration -------------------------------------------------------------------------------------------

    def get_config(self) -> dict[str, Any]:
        """The arguments that make this optimiser again, Keras 3's keys (the learning rate as a float or schedule).

        >>> import minitape as tf
        >>> config = tf.keras.optimizers.SGD(0.5, momentum=0.9, name="sgd").get_config()
        >>> config["learning_rate"], config["momentum"], config["clipnorm"]
        (0.5, 0.9, None)
        """
        rate = self._learning_rate
        config = {"name": self.name,
                  "learning_rate": serialize(rate) if isinstance(rate, LearningRateSchedule)
                  else float(rate.numpy()) if isinstance(rate, Variable) else rate,
                  "weight_decay": self.weight_decay, "clipnorm": self.clipnorm, "global_clipnorm": self.global_clipnorm,
                  "clipvalue": self.clipvalue, "use_ema": self.use_ema, "ema_momentum": self.ema_momentum,
                  "ema_overwrite_frequency": self.ema_overwrite_frequency, "loss_scale_factor": self.loss_scale_factor,
                  "gradient_accumulation_steps": self.gradient_accumulation_steps}
        return config | {name: getattr(self, name) for name in self.config_names}

    @classmethod
    def from_config(cls, config: dict[str, Any], custom_objects: dict | None = None) -> Optimizer:
        """A new optimiser (without its state) from ``get_config``'s dict.

        >>> import minitape as tf
        >>> opt = tf.keras.optimizers.Adam.from_config(tf.keras.optimizers.Adam(0.25, amsgrad=True).get_config())
        >>> float(opt.learning_rate.numpy()), opt.amsgrad
        (0.25, True)
        """
        config = dict(config)
        if isinstance(config.get("learning_rate"), dict):
            config["learning_rate"] = deserialize(config["learning_rate"])
        return cls(**config)

