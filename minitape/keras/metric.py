"""``Metric``, the base class of Keras' metrics: state variables updated batch by batch, and a result.

A metric makes its state with ``add_weight`` (or ``add_variable``): non-trainable variables
at the path ``<metric name>/<variable name>``, listed in ``variables``.  ``update_state``
takes in a batch, ``result()`` reports, ``reset_state()`` puts every state variable back to
zeros, and calling the metric updates it and returns the result.  Metrics are never
differentiated: the built-in ones compute on the host, with NumPy.

>>> import minitape as tf
>>> class Total(tf.keras.metrics.Metric):
...     def __init__(self, **kwargs):
...         super().__init__(**kwargs)
...         self.total = self.add_weight(name="total", initializer="zeros")
...     def update_state(self, values):
...         self.total.assign_add(tf.reduce_sum(values))
...     def result(self):
...         return self.total.value
>>> total = Total(name="total_seen")
>>> total([1.0, 2.0])
<minitape.Tensor: shape=(), dtype=float32, numpy=3.0>
>>> total.variables
[<Variable path=total_seen/total, shape=(), dtype=float32, value=3.0>]
"""
from __future__ import annotations

from typing import Any

import numpy as np

from minitape.core import dtypes, random
from minitape.core.errors import UnimplementedError
from minitape.core.tensor import Tensor, constant
from minitape.keras import initializers
from minitape.keras.naming import unique_name
from minitape.keras.variables import KerasVariable


def host(value: Any) -> np.ndarray:
    """``value`` as a NumPy array, by TF's dtype rules: a tensor's or array's own, float32 for Python floats.

    >>> from minitape.keras.metric import host
    >>> host([1.0, 2.0]).dtype, host(np.arange(2)).dtype
    (dtype('float32'), dtype('int64'))
    """
    array = np.asarray(value.numpy()) if hasattr(value, "numpy") else (
        value if isinstance(value, np.ndarray | np.generic) else constant(value).numpy())
    if np.asarray(array).dtype.kind in "OSU":            # text: Keras 3's cast to the metric's dtype refuses it
        raise UnimplementedError(f"Cast string to float is not supported: a metric takes numbers, got {value!r}.")
    return array


class Metric:
    """The base class: a named running value with ``update_state``, ``result`` and ``reset_state``;
    calling a metric updates it and returns the result.  Without a ``name``, a metric is named after
    its class, numbered as Keras numbers them (``precision``, ``precision_1``...).

    As in Keras 3, making a metric does not call ``reset_state``: ``__init__`` makes the state.

    >>> import minitape as tf
    >>> class Largest(tf.keras.metrics.Metric):
    ...     def __init__(self, **kwargs):
    ...         super().__init__(**kwargs)
    ...         self.reset_state()
    ...     def reset_state(self):
    ...         self.value = float("-inf")
    ...     def update_state(self, values):
    ...         self.value = max(self.value, float(tf.reduce_max(values)))
    ...     def result(self):
    ...         return tf.constant(self.value)
    >>> largest = Largest(name="largest")
    >>> largest.update_state([1.0, 5.0]); largest.update_state([3.0])
    >>> largest.name, float(largest.result()), float(largest([7.0]))
    ('largest', 5.0, 7.0)
    """

    def __init__(self, name: str | None = None, dtype: Any = None) -> None:
        self.name = name or unique_name(type(self))
        self.dtype = dtypes.as_dtype(dtype or dtypes.float32).name      # a string, as Keras 3 keeps it
        self._variables: list[KerasVariable] = []

    def add_variable(self, shape: Any, initializer: Any, dtype: Any = None, aggregation: str = "sum",
                     name: str | None = None) -> KerasVariable:
        """A non-trainable state variable at the path ``<metric>/<name>``, made by ``initializer``
        (float32 unless ``dtype`` says otherwise).  ``aggregation`` is accepted for Keras' sake.

        >>> import minitape as tf
        >>> tf.keras.metrics.Metric(name="hits").add_variable((), "zeros", name="total")
        <Variable path=hits/total, shape=(), dtype=float32, value=0.0>
        """
        if initializer is None:
            raise ValueError(f"Attempt to convert a value (None) with an unsupported type (<class 'NoneType'>) to a "
                             f"Tensor: metric '{self.name}' needs an initializer for its variable '{name}', "
                             f"e.g. add_weight(name='{name}', initializer='zeros').")
        with random.global_source():
            value = initializers.get(initializer)(tuple(shape), dtypes.as_dtype(dtype or dtypes.float32))
        variable = KerasVariable(value, trainable=False, name=name or "variable",
                                 path=f"{self.name}/{name or 'variable'}")
        self._variables.append(variable)
        return variable

    def add_weight(self, shape: Any = (), initializer: Any = None, dtype: Any = None,
                   name: str | None = None) -> KerasVariable:
        """Keras 3's other spelling of ``add_variable``: a scalar by default; ``initializer`` must be given.

        >>> import minitape as tf
        >>> tf.keras.metrics.Metric(name="seen").add_weight(name="count", initializer="ones", shape=(2,))
        <Variable path=seen/count, shape=(2,), dtype=float32, value=[1. 1.]>
        """
        return self.add_variable(shape, initializer, dtype=dtype, name=name)

    @property
    def variables(self) -> list[KerasVariable]:
        """The state variables, in the order they were made.

        >>> import minitape as tf
        >>> [v.name for v in tf.keras.metrics.Mean().variables]
        ['total', 'count']
        """
        return list(getattr(self, "_variables", ()))

    def reset_state(self) -> None:
        """Forget everything seen (every state variable back to zeros): what ``fit`` does at each epoch's start.

        >>> import minitape as tf
        >>> mean = tf.keras.metrics.Mean()
        >>> mean.update_state([4.0]); mean.reset_state()
        >>> float(mean.result()), float(mean.count)
        (0.0, 0.0)
        """
        for variable in self.variables:
            variable.assign(np.zeros(variable.shape, variable.dtype.as_numpy_dtype_))

    def update_state(self, *args: Any, **kwargs: Any) -> None:
        """Take in one batch; written by subclasses.

        >>> import minitape as tf
        >>> tf.keras.metrics.Metric().update_state([1.0])
        Traceback (most recent call last):
        ...
        NotImplementedError
        """
        raise NotImplementedError

    def result(self) -> Tensor:
        """The value so far; written by subclasses.

        >>> import minitape as tf
        >>> tf.keras.metrics.Metric().result()
        Traceback (most recent call last):
        ...
        NotImplementedError
        """
        raise NotImplementedError

    def __call__(self, *args: Any, **kwargs: Any) -> Tensor:
        self.update_state(*args, **kwargs)
        return self.result()

    def stateless_update_state(self, metric_variables: list[Any], *args: Any, **kwargs: Any) -> list[Tensor]:
        """Keras 3's functional form of ``update_state``: the state after taking in a batch, starting from
        ``metric_variables`` (one value per variable), as new tensors; the metric's own variables are left as
        they were.

        >>> import minitape as tf
        >>> mean = tf.keras.metrics.Mean()
        >>> state = mean.stateless_update_state(mean.variables, [1.0, 2.0])
        >>> [float(v) for v in state], float(mean.stateless_result(state)), float(mean.count)
        ([3.0, 2.0], 1.5, 0.0)
        """
        return self._statelessly(lambda: self.update_state(*args, **kwargs), metric_variables)[0]

    def stateless_result(self, metric_variables: list[Any]) -> Tensor:
        """What ``result()`` would be were the metric's variables ``metric_variables`` (see
        ``stateless_update_state``).

        >>> import minitape as tf
        >>> float(tf.keras.metrics.Mean().stateless_result([tf.constant(6.0), tf.constant(4.0)]))
        1.5
        """
        return self._statelessly(self.result, metric_variables)[1]

    def stateless_reset_state(self) -> list[Tensor]:
        """The state ``reset_state()`` would leave, as new tensors; the metric itself is left as it was.

        >>> import minitape as tf
        >>> mean = tf.keras.metrics.Mean()
        >>> mean.update_state([4.0])
        >>> [float(v) for v in mean.stateless_reset_state()], float(mean.result())
        ([0.0, 0.0], 4.0)
        """
        return self._statelessly(self.reset_state)[0]

    def _statelessly(self, step: Any, values: list[Any] | None = None) -> tuple[list[Tensor], Any]:
        """Run ``step`` with the variables holding ``values`` (if given); the values it leaves, and what it
        returns.  The variables are put back as they were, whatever happens."""
        variables = self.variables
        if values is not None and len(values) != len(variables):
            raise ValueError(f"Argument `metric_variables` must be a list of tensors corresponding 1:1 to "
                             f"{type(self).__name__}().variables. Received list with length {len(values)}, but "
                             f"expected {len(variables)} variables.")
        saved = [variable.numpy() for variable in variables]
        try:
            for variable, value in zip(variables, values or ()):
                variable.assign(value)
            answer = step()
            return [constant(variable.numpy()) for variable in variables], answer
        finally:
            for variable, value in zip(variables, saved):
                variable.assign(value)

    def get_config(self) -> dict[str, Any]:
        """The name and dtype, as Keras 3 reports them.

        >>> import minitape as tf
        >>> tf.keras.metrics.SparseCategoricalAccuracy().get_config()
        {'name': 'sparse_categorical_accuracy', 'dtype': 'float32'}
        """
        return {"name": self.name, "dtype": self.dtype}

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> Metric:
        """The metric ``get_config`` describes.

        >>> import minitape as tf
        >>> tf.keras.metrics.Precision.from_config({"name": "p", "thresholds": 0.7}).thresholds
        [0.7]
        """
        return cls(**config)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} name={self.name}>"
