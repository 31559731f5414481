"""compile's ``loss`` for a model of one output or several, as Keras 3's ``CompileLoss`` reads it.

``loss`` may be one loss (used for every output), a list or tuple with one entry per
output, or a dict keyed by output name (a functional model's output layer names);
``None`` leaves an output without a loss.  ``loss_weights`` has the same shape (or is
one float) and scales each output's loss before they are summed.  With more than one
loss, each output's unweighted loss is also followed by a ``Mean`` named
``<output>_loss``, the ``out1_loss`` entries ``fit`` logs beside the total ``loss`` (a mean over
batches, as TF 2.21 reports it, where the total is a mean over examples).

>>> import minitape as tf
>>> from minitape.keras.compile_loss import CompileLoss
>>> loss = CompileLoss(["mse", "mae"], loss_weights=[1.0, 0.5], output_names=["a", "b"])
>>> float(loss([tf.ones((2, 1)), tf.ones((2, 1))], [tf.zeros((2, 1)), 3 * tf.ones((2, 1))]))
2.0
>>> [(m.name, float(m.result())) for m in loss.metrics]
[('a_loss', 1.0), ('b_loss', 2.0)]
"""
from __future__ import annotations

import functools
import inspect
import operator
from typing import Any, NamedTuple

from minitape import ops
from minitape.core.tensor import Tensor
from minitape.keras import losses
from minitape.keras.reduction_metrics import Mean


class _Entry(NamedTuple):
    key: Any            # where the output sits in y_pred: an index, a dict key, or None (a single output)
    loss: losses.Loss
    weight: float | None
    name: str


def _is_structure(value: Any) -> bool:
    return isinstance(value, list | tuple | dict)


def _leaves(value: Any) -> list[Any]:
    """One level of a structure, as Keras' tree flattens it (a dict by sorted key); a leaf is itself."""
    if isinstance(value, dict):
        return [value[key] for key in sorted(value)]
    return list(value) if isinstance(value, list | tuple) else [value]


def _stars(value: Any) -> Any:
    """The structure with each leaf shown as ``'*'``."""
    if isinstance(value, dict):
        return {key: _stars(item) for key, item in value.items()}
    return type(value)(_stars(item) for item in value) if isinstance(value, list | tuple) else "*"


def _as_tuple(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def _missing_path(path: tuple) -> KeyError:
    return KeyError(f"The path: {path} in the `loss` argument, can't be found in either the model's output "
                    f"(`y_pred`) or in the labels (`y_true`).")


class CompileLoss:
    """The total loss ``sum(weight_i * loss_i(y_true_i, y_pred_i))`` over a model's outputs, built on the first
    batch (when the outputs' structure is known); ``metrics`` follow each output's loss when there are several.

    >>> import minitape as tf
    >>> from minitape.keras.compile_loss import CompileLoss
    >>> loss = CompileLoss({"b": "mse", "a": "mae"}, output_names=["a", "b"])
    >>> float(loss({"a": tf.zeros((1, 1)), "b": tf.zeros((1, 1))}, [tf.ones((1, 1)), 2 * tf.ones((1, 1))]))
    5.0
    """

    def __init__(self, loss: Any, loss_weights: Any = None, output_names: list[str] | None = None) -> None:
        if loss_weights and not isinstance(loss_weights, list | tuple | dict | float):
            raise ValueError(f"Expected `loss_weights` argument to be a float (single output case) or a list, tuple, "
                             f"or dict (multiple output case). Received instead: loss_weights={loss_weights} of type "
                             f"{type(loss_weights)}")
        self._user_loss, self._user_loss_weights, self.output_names = loss, loss_weights, output_names
        self.metrics: list[Mean] = []
        self.entries: list[_Entry] | None = None

    @property
    def built(self) -> bool:
        """Whether the first batch has fixed which loss goes with which output.

        >>> import minitape as tf
        >>> from minitape.keras.compile_loss import CompileLoss
        >>> loss = CompileLoss("mse")
        >>> before = loss.built
        >>> _ = loss(tf.zeros((1, 1)), tf.ones((1, 1)))
        >>> before, loss.built
        (False, True)
        """
        return self.entries is not None

    def __call__(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> Tensor | None:
        """The weighted sum of the outputs' losses (``None`` when no output has one); updates ``metrics``."""
        y_true = self._align(y_true, y_pred)
        if self.entries is None:
            self.build(y_true, y_pred)
        values = []
        for k, entry in enumerate(self.entries):
            y_t, y_p = _pick(y_true, entry.key), _pick(y_pred, entry.key)
            weights = _pick(sample_weight, entry.key) if _is_structure(sample_weight) else sample_weight
            value = weighted_loss(entry.loss, y_t, y_p, weights)
            if self.metrics:
                # The unweighted loss of each output, each batch counting once: Keras weighs it by the static
                # batch size, which TF 2.21's traced step does not know (a mean over batches, not examples).
                self.metrics[k].update_state(value)
            values.append(value if entry.weight is None else value * entry.weight)
        return functools.reduce(operator.add, values) if values else None

    def build(self, y_true: Any, y_pred: Any) -> None:
        """Pair each output with its loss and weight, as Keras 3 does on the first batch.

        >>> import minitape as tf
        >>> from minitape.keras.compile_loss import CompileLoss
        >>> loss = CompileLoss("mse", output_names=["a", "b"])
        >>> loss.build([tf.zeros((1, 1))] * 2, [tf.zeros((1, 1))] * 2)
        >>> [(entry.key, entry.name) for entry in loss.entries], [m.name for m in loss.metrics]
        ([(0, 'a'), (1, 'b')], ['a_loss', 'b_loss'])
        """
        loss, weights = self._user_loss, self._user_loss_weights
        if self.output_names and isinstance(loss, dict) and not isinstance(y_pred, dict):
            if set(self.output_names) != set(loss):
                raise ValueError(f"Expected keys {self.output_names} in loss dict, but found "
                                 f"loss.keys()={list(loss.keys())}")
            loss = [loss[name] for name in self.output_names]
            if isinstance(weights, dict):
                weights = [weights[name] for name in self.output_names]
        weights = _pair_weights(loss, weights)
        if not _is_structure(loss):                      # one loss (and weight) for every output
            loss = _broadcast(loss, y_pred)
            weights = None if weights is None else _broadcast(weights, y_pred)
        self.entries = []
        for key in _keys(loss, y_pred, y_true):
            if loss[key] is not None:
                resolved = losses.compiled(loss[key])
                self.entries.append(_Entry(key, resolved, None if weights is None else weights[key],
                                           self._name(key, resolved)))
        if not _is_structure(y_pred):
            self.entries = [entry._replace(key=None) for entry in self.entries]
        if len(self.entries) > 1:
            self.metrics = [Mean(name=f"{entry.name}_loss") for entry in self.entries]

    def _name(self, key: Any, loss: losses.Loss) -> str:
        """An output's name in the logs: its dict key, the model's output name, else the loss's name."""
        if isinstance(key, str):
            return key
        return self.output_names[key] if self.output_names and key < len(self.output_names) else loss.name

    def _align(self, y_true: Any, y_pred: Any) -> Any:
        """``y_true`` in ``y_pred``'s structure: a dict by output name, a lone target for a lone output."""
        if not _is_structure(y_pred):
            return y_true
        if isinstance(y_pred, list | tuple) and isinstance(y_true, dict) and self.output_names \
                and set(self.output_names) == set(y_true):
            return [y_true[name] for name in self.output_names]
        if not _is_structure(y_true) and len(y_pred) == 1:
            return [y_true]
        if _is_structure(y_true) and isinstance(y_pred, dict) == isinstance(y_true, dict) \
                and len(y_true) == len(y_pred):
            return y_true
        given = [position for position, item in enumerate(_leaves(self._user_loss)) if item is not None]
        if isinstance(self._user_loss, list | tuple) and len(given) == len(_leaves(y_true)):
            scattered = [None] * len(self._user_loss)           # targets for the outputs that have a loss
            for position, target in zip(given, _leaves(y_true)):
                scattered[position] = target
            return scattered
        if not _is_structure(y_true):
            return y_true                       # one target for several outputs: `build` names the missing path
        # Keras' data adapters give targets as tuples, so its message shows them so
        raise ValueError(f"y_true and y_pred have different structures.\ny_true: {_stars(_as_tuple(y_true))}\n"
                         f"y_pred: {_stars(y_pred)}\n")


def _pair_weights(loss: Any, weights: Any) -> Any:
    """``loss_weights`` in the structure of ``loss`` (a list of weights may go with a dict of losses)."""
    if weights is None or _same_shape(loss, weights):
        return weights
    flat_losses, flat_weights = _leaves(loss), _leaves(weights)
    if len(flat_losses) != len(flat_weights):
        raise ValueError(f"`loss_weights` must match the number of losses, got {len(flat_losses)} losses and "
                         f"{len(flat_weights)} weights.")
    return dict(zip(sorted(loss), flat_weights)) if isinstance(loss, dict) else flat_weights


def _same_shape(a: Any, b: Any) -> bool:
    if isinstance(a, dict) or isinstance(b, dict):
        return isinstance(a, dict) and isinstance(b, dict) and set(a) == set(b)
    if _is_structure(a) or _is_structure(b):
        return _is_structure(a) and _is_structure(b) and len(a) == len(b)
    return True


def _broadcast(value: Any, y_pred: Any) -> Any:
    """One value for each output of ``y_pred``, in its structure (a lone output: a list of one)."""
    if isinstance(y_pred, dict):
        return {key: value for key in y_pred}
    return [value] * (len(y_pred) if isinstance(y_pred, list | tuple) else 1)


def _keys(loss: Any, y_pred: Any, y_true: Any) -> list[Any]:
    """The keys of ``loss`` (indices or names), each checked to be an output and a target, as Keras checks paths."""
    keys = list(loss) if isinstance(loss, dict) else list(range(len(loss)))
    if not _is_structure(y_pred):                           # a lone output: a list of one loss, or a dict of one
        if len(keys) != 1:
            raise _missing_path((keys[-1],))
        return keys
    for key in keys:
        if loss[key] is not None and not (_has(y_pred, key) and _has(y_true, key)):
            raise _missing_path((key,))
    return keys


def _has(structure: Any, key: Any) -> bool:
    if isinstance(structure, dict):
        return key in structure
    return isinstance(structure, list | tuple) and isinstance(key, int) and key < len(structure)


def _pick(structure: Any, key: Any) -> Any:
    return structure if key is None else structure[key]


def weighted_loss(loss: Any, y: Any, y_pred: Tensor, sample_weight: Any) -> Tensor:
    """A compiled loss, weighted per example as Keras does: ``sum(loss_i * w_i) / n`` over the batch.

    >>> import minitape as tf
    >>> from minitape.keras.compile_loss import weighted_loss
    >>> float(weighted_loss(tf.keras.losses.compiled("mse"), [[1.0], [1.0]], tf.zeros((2, 1)), [1.0, 0.0]))
    0.5
    """
    if sample_weight is None:
        return loss(y, y_pred)
    if "sample_weight" in inspect.signature(loss.__call__).parameters:
        return loss(y, y_pred, sample_weight=sample_weight)
    per_example = loss.call(ops.as_operand(y), ops.as_operand(y_pred))
    weights = ops.cast(ops.as_operand(sample_weight), per_example.dtype)
    weights = ops.reshape(weights, ops.shape(per_example)) if weights.shape.rank else weights
    return ops.reduce_sum(per_example * weights) / ops.cast(ops.size(per_example), per_example.dtype)
