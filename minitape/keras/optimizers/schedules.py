"""Learning-rate schedules: functions of the optimiser's step count that give the learning rate.

An optimiser made with a schedule as its ``learning_rate`` calls it with ``iterations``
(the number of steps already taken) before each step.  Each schedule returns a float32
scalar tensor and has Keras 3's arguments, errors and ``get_config``.

>>> import minitape as tf
>>> schedule = tf.keras.optimizers.schedules.ExponentialDecay(0.1, decay_steps=10, decay_rate=0.5)
>>> [round(float(schedule(step)), 4) for step in (0, 10, 20)]
[0.1, 0.05, 0.025]
>>> opt = tf.keras.optimizers.SGD(learning_rate=schedule)
>>> round(float(opt.learning_rate), 4)          # read at the current step
0.1
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from minitape.core import dtypes
from minitape.core.tensor import Tensor, constant


def _step(step: Any) -> float:
    """The step as a Python number: schedules are called with ints, tensors or the ``iterations`` variable."""
    return float(step.numpy()) if hasattr(step, "numpy") else float(step)


def _positive_steps(argument: str, value: Any) -> None:
    if value <= 0:
        raise ValueError(f"Argument `{argument}` must be > 0. Received: {argument}={value}")


class LearningRateSchedule:
    """The base class: a subclass writes ``__call__(step)``, returning the learning rate at ``step``.

    >>> import minitape as tf
    >>> class Halving(tf.keras.optimizers.schedules.LearningRateSchedule):
    ...     def __call__(self, step):
    ...         return 1.0 / 2 ** (step // 10)
    ...     def get_config(self):
    ...         return {}
    >>> Halving()(25)
    0.25
    """

    name = "LearningRateSchedule"

    def __call__(self, step: Any) -> Tensor:
        raise NotImplementedError(f"Learning rate schedule '{type(self).__name__}' must override "
                                  f"`__call__(self, step)`.")

    def get_config(self) -> dict[str, Any]:
        """The arguments that make this schedule again (a subclass must write it).

        >>> import minitape as tf
        >>> tf.keras.optimizers.schedules.InverseTimeDecay(1.0, 1, 0.5).get_config()["decay_rate"]
        0.5
        """
        raise NotImplementedError(f"Learning rate schedule '{type(self).__name__}' must override `get_config()` "
                                  f"in order to be serializable.")

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> LearningRateSchedule:
        """A new schedule from ``get_config``'s dict.

        >>> import minitape as tf
        >>> s = tf.keras.optimizers.schedules.PolynomialDecay(1.0, 10)
        >>> type(s).from_config(s.get_config()).decay_steps
        10
        """
        return cls(**config)

    def _value(self, rate: float) -> Tensor:
        return constant(rate, dtype=dtypes.float32)


class ExponentialDecay(LearningRateSchedule):
    """``initial_learning_rate · decay_rate ** (step / decay_steps)``; with ``staircase``, the exponent is floored.

    >>> import minitape as tf
    >>> s = tf.keras.optimizers.schedules.ExponentialDecay(1.0, 2, 0.5, staircase=True)
    >>> [float(s(step)) for step in range(5)]
    [1.0, 1.0, 0.5, 0.5, 0.25]
    """

    def __init__(self, initial_learning_rate: float, decay_steps: int, decay_rate: float, staircase: bool = False,
                 name: str = "ExponentialDecay") -> None:
        _positive_steps("decay_steps", decay_steps)
        self.initial_learning_rate, self.decay_steps, self.decay_rate = initial_learning_rate, decay_steps, decay_rate
        self.staircase, self.name = staircase, name

    def __call__(self, step: Any) -> Tensor:
        p = _step(step) / self.decay_steps
        return self._value(self.initial_learning_rate * self.decay_rate ** (math.floor(p) if self.staircase else p))

    def get_config(self) -> dict[str, Any]:
        """Keras' config.

        >>> import minitape as tf
        >>> sorted(tf.keras.optimizers.schedules.ExponentialDecay(1.0, 2, 0.5).get_config())
        ['decay_rate', 'decay_steps', 'initial_learning_rate', 'name', 'staircase']
        """
        return {"initial_learning_rate": self.initial_learning_rate, "decay_steps": self.decay_steps,
                "decay_rate": self.decay_rate, "staircase": self.staircase, "name": self.name}


class InverseTimeDecay(LearningRateSchedule):
    """``initial_learning_rate / (1 + decay_rate · step / decay_steps)``; with ``staircase``, the ratio is floored.

    >>> import minitape as tf
    >>> s = tf.keras.optimizers.schedules.InverseTimeDecay(1.0, decay_steps=1, decay_rate=0.5)
    >>> [float(s(step)) for step in range(3)]
    [1.0, 0.6666666865348816, 0.5]
    """

    def __init__(self, initial_learning_rate: float, decay_steps: int, decay_rate: float, staircase: bool = False,
                 name: str = "InverseTimeDecay") -> None:
        _positive_steps("decay_steps", decay_steps)
        self.initial_learning_rate, self.decay_steps, self.decay_rate = initial_learning_rate, decay_steps, decay_rate
        self.staircase, self.name = staircase, name

    def __call__(self, step: Any) -> Tensor:
        p = _step(step) / self.decay_steps
        p = math.floor(p) if self.staircase else p
        return self._value(self.initial_learning_rate / (1 + self.decay_rate * p))

    get_config = ExponentialDecay.get_config


class PiecewiseConstantDecay(LearningRateSchedule):
    """``values[0]`` up to and including ``boundaries[0]``, ``values[1]`` up to ``boundaries[1]``..., then the last.

    >>> import minitape as tf
    >>> s = tf.keras.optimizers.schedules.PiecewiseConstantDecay([2, 4], [1.0, 0.5, 0.1])
    >>> [round(float(s(step)), 2) for step in range(6)]
    [1.0, 1.0, 1.0, 0.5, 0.5, 0.1]
    """

    def __init__(self, boundaries: Sequence[float], values: Sequence[float], name: str = "PiecewiseConstant") -> None:
        if len(boundaries) != len(values) - 1:
            raise ValueError(f"The length of boundaries should be 1 less than the length of values. Received: "
                             f"boundaries={boundaries} of length {len(boundaries)}, and values={values} of length "
                             f"{len(values)}.")
        self.boundaries, self.values, self.name = boundaries, values, name

    def __call__(self, step: Any) -> Tensor:
        step = _step(step)
        index = next((i for i, boundary in enumerate(self.boundaries) if step <= boundary), len(self.boundaries))
        return self._value(self.values[index])

    def get_config(self) -> dict[str, Any]:
        """Keras' config.

        >>> import minitape as tf
        >>> tf.keras.optimizers.schedules.PiecewiseConstantDecay([1], [1.0, 0.5]).get_config()
        {'boundaries': [1], 'values': [1.0, 0.5], 'name': 'PiecewiseConstant'}
        """
        return {"boundaries": self.boundaries, "values": self.values, "name": self.name}


class PolynomialDecay(LearningRateSchedule):
    """From ``initial_learning_rate`` to ``end_learning_rate`` in ``decay_steps``, along
    ``(1 - step/decay_steps)**power``.

    With ``cycle=True`` the decay restarts, each time over the next multiple of ``decay_steps``.

    >>> import minitape as tf
    >>> s = tf.keras.optimizers.schedules.PolynomialDecay(1.0, decay_steps=4, end_learning_rate=0.0)
    >>> [float(s(step)) for step in (0, 2, 4, 8)]
    [1.0, 0.5, 0.0, 0.0]
    """

    def __init__(self, initial_learning_rate: float, decay_steps: int, end_learning_rate: float = 0.0001,
                 power: float = 1.0, cycle: bool = False, name: str = "PolynomialDecay") -> None:
        _positive_steps("decay_steps", decay_steps)
        self.initial_learning_rate, self.decay_steps, self.end_learning_rate = (initial_learning_rate, decay_steps,
                                                                                end_learning_rate)
        self.power, self.cycle, self.name = power, cycle, name

    def __call__(self, step: Any) -> Tensor:
        step, decay_steps = _step(step), float(self.decay_steps)
        if self.cycle:                 # the first multiple of decay_steps at or past the step (1 at step 0)
            decay_steps *= max(math.ceil(step / decay_steps), 1)
        else:
            step = min(step, decay_steps)
        fraction_left = 1 - step / decay_steps
        return self._value((self.initial_learning_rate - self.end_learning_rate) * fraction_left ** self.power
                           + self.end_learning_rate)

    def get_config(self) -> dict[str, Any]:
        """Keras' config.

        >>> import minitape as tf
        >>> sorted(tf.keras.optimizers.schedules.PolynomialDecay(1.0, 4).get_config())
        ['cycle', 'decay_steps', 'end_learning_rate', 'initial_learning_rate', 'name', 'power']
        """
        return {"initial_learning_rate": self.initial_learning_rate, "decay_steps": self.decay_steps,
                "end_learning_rate": self.end_learning_rate, "power": self.power, "cycle": self.cycle,
                "name": self.name}


def _cosine(fraction: float, alpha: float) -> float:
    """Half a cosine from 1 down to ``alpha`` as ``fraction`` goes from 0 to 1."""
    return (1 - alpha) * 0.5 * (1 + math.cos(math.pi * fraction)) + alpha


class CosineDecay(LearningRateSchedule):
    """Half a cosine from the rate down to ``alpha`` times it in ``decay_steps``, then flat.

    With ``warmup_target``, the rate first rises linearly from ``initial_learning_rate`` to
    ``warmup_target`` in ``warmup_steps``, and the cosine then starts from ``warmup_target``.

    >>> import minitape as tf
    >>> s = tf.keras.optimizers.schedules.CosineDecay(0.0, decay_steps=4, warmup_target=1.0, warmup_steps=2)
    >>> [round(float(s(step)), 3) for step in range(7)]
    [0.0, 0.5, 1.0, 0.854, 0.5, 0.146, 0.0]
    """

    def __init__(self, initial_learning_rate: float, decay_steps: int, alpha: float = 0.0, name: str = "CosineDecay",
                 warmup_target: float | None = None, warmup_steps: int = 0) -> None:
        _positive_steps("decay_steps", decay_steps)
        self.initial_learning_rate, self.decay_steps, self.alpha, self.name = (initial_learning_rate, decay_steps,
                                                                               alpha, name)
        self.warmup_target, self.warmup_steps = warmup_target, warmup_steps

    def __call__(self, step: Any) -> Tensor:
        step = _step(step)
        if self.warmup_target is None:
            return self._value(self.initial_learning_rate * _cosine(min(step, self.decay_steps) / self.decay_steps,
                                                                    self.alpha))
        step = min(step, self.decay_steps + self.warmup_steps)
        if step < self.warmup_steps:
            rise = self.warmup_target - self.initial_learning_rate
            return self._value(rise * step / self.warmup_steps + self.initial_learning_rate)
        return self._value(self.warmup_target * _cosine((step - self.warmup_steps) / self.decay_steps, self.alpha))

    def get_config(self) -> dict[str, Any]:
        """Keras' config.

        >>> import minitape as tf
        >>> sorted(tf.keras.optimizers.schedules.CosineDecay(1.0, 4).get_config())
        ['alpha', 'decay_steps', 'initial_learning_rate', 'name', 'warmup_steps', 'warmup_target']
        """
        return {"initial_learning_rate": self.initial_learning_rate, "decay_steps": self.decay_steps,
                "alpha": self.alpha, "name": self.name, "warmup_target": self.warmup_target,
                "warmup_steps": self.warmup_steps}


class CosineDecayRestarts(LearningRateSchedule):
    """Cosine decay with warm restarts (SGDR): period ``i`` lasts ``first_decay_steps · t_mul**i`` steps and starts
    from ``initial_learning_rate · m_mul**i``.

    >>> import minitape as tf
    >>> s = tf.keras.optimizers.schedules.CosineDecayRestarts(1.0, first_decay_steps=2, t_mul=1.0, m_mul=0.5)
    >>> [round(float(s(step)), 3) for step in range(5)]
    [1.0, 0.5, 0.5, 0.25, 0.25]
    """

    def __init__(self, initial_learning_rate: float, first_decay_steps: int, t_mul: float = 2.0, m_mul: float = 1.0,
                 alpha: float = 0.0, name: str = "SGDRDecay") -> None:
        self.initial_learning_rate, self.first_decay_steps, self.alpha, self.name = (initial_learning_rate,
                                                                                     first_decay_steps, alpha, name)
        self._t_mul, self._m_mul = t_mul, m_mul

    def __call__(self, step: Any) -> Tensor:
        fraction = _step(step) / self.first_decay_steps
        if self._t_mul == 1.0:
            restart = math.floor(fraction)
            fraction -= restart
        else:                          # the periods grow geometrically: find which one the step falls in
            restart = math.floor(math.log(1 - fraction * (1 - self._t_mul)) / math.log(self._t_mul))
            done = (1 - self._t_mul ** restart) / (1 - self._t_mul)
            fraction = (fraction - done) / self._t_mul ** restart
        decayed = (1 - self.alpha) * self._m_mul ** restart * 0.5 * (1 + math.cos(math.pi * fraction)) + self.alpha
        return self._value(self.initial_learning_rate * decayed)

    def get_config(self) -> dict[str, Any]:
        """Keras' config.

        >>> import minitape as tf
        >>> sorted(tf.keras.optimizers.schedules.CosineDecayRestarts(1.0, 4).get_config())
        ['alpha', 'first_decay_steps', 'initial_learning_rate', 'm_mul', 'name', 't_mul']
        """
        return {"initial_learning_rate": self.initial_learning_rate, "first_decay_steps": self.first_decay_steps,
                "t_mul": self._t_mul, "m_mul": self._m_mul, "alpha": self.alpha, "name": self.name}


_SCHEDULES = {cls.__name__: cls for cls in (ExponentialDecay, InverseTimeDecay, PiecewiseConstantDecay,
                                            PolynomialDecay, CosineDecay, CosineDecayRestarts)}


def serialize(schedule: LearningRateSchedule) -> dict[str, Any]:
    """Keras' ``{"class_name", "config"}`` dict for a schedule (what an optimiser's ``get_config`` holds).

    >>> import minitape as tf
    >>> tf.keras.optimizers.schedules.serialize(tf.keras.optimizers.schedules.PolynomialDecay(1.0, 4))["class_name"]
    'PolynomialDecay'
    """
    return {"module": "keras.optimizers.schedules", "class_name": type(schedule).__name__,
            "config": schedule.get_config(), "registered_name": None}


def deserialize(config: dict[str, Any]) -> LearningRateSchedule:
    """The schedule ``serialize`` described.

    >>> import minitape as tf
    >>> s = tf.keras.optimizers.schedules
    >>> s.deserialize(s.serialize(s.CosineDecay(1.0, 4))).decay_steps
    4
    """
    if config.get("class_name") not in _SCHEDULES:
        raise ValueError(f"Could not interpret learning rate schedule {config!r}: the class_name should be one of "
                         f"{', '.join(sorted(_SCHEDULES))}.")
    return _SCHEDULES[config["class_name"]].from_config(config["config"])


__all__ = ["LearningRateSchedule", *_SCHEDULES, "serialize", "deserialize"]
