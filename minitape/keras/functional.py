"""The graph of a functional model: the layer calls between its inputs and its outputs, and their replay.

``nodes_between(inputs, outputs)`` walks back from the outputs' KerasTensors, through the
``Node`` that made each, to the inputs; it returns the nodes met, in the order they were
made (a node is always made after those it depends on, so that order can run).
``replay(nodes, inputs, values)`` runs them on real tensors: each layer called on what
its node recorded, KerasTensors replaced by the values computed for them.

>>> import minitape as tf
>>> from minitape.keras.functional import nodes_between, replay
>>> x = tf.keras.Input(shape=(2,))
>>> h = tf.keras.layers.Lambda(lambda t: 2 * t, name="double")(x)
>>> y = tf.keras.layers.Lambda(lambda t: t + 1, name="plus_one")(h)
>>> nodes = nodes_between([x], [y])
>>> [node.layer.name for node in nodes][1:]         # after the Input's own node
['double', 'plus_one']
>>> replay(nodes, [x], [tf.constant([[1.0, 2.0]])])[y].numpy()
array([[3., 5.]], dtype=float32)
"""
from __future__ import annotations

from typing import Any

from minitape import ops
from minitape.core import nest
from minitape.keras.keras_tensor import KerasTensor, Node


def check_tensors(structure: Any, role: str) -> list[KerasTensor]:
    """The KerasTensors of ``structure`` (the model's ``inputs`` or ``outputs``), each checked to be one.

    >>> from minitape.keras.functional import check_tensors
    >>> check_tensors([1.0], "inputs")
    Traceback (most recent call last):
    ...
    ValueError: All `inputs` of a functional Model must be KerasTensors (from `tf.keras.Input` and the layers called on it); received 1.0 (of type float).
    """
    flat = nest.flatten(structure)
    for x in flat:
        if not isinstance(x, KerasTensor):
            raise ValueError(f"All `{role}` of a functional Model must be KerasTensors (from `tf.keras.Input` and the "
                             f"layers called on it); received {x!r} (of type {type(x).__name__}).")
    return flat


def nodes_between(inputs: list[KerasTensor], outputs: list[KerasTensor]) -> list[Node]:
    """The nodes that compute ``outputs`` from ``inputs`` (the inputs' own nodes included), in Keras' order:
    deepest first (a node's depth is its longest path to an output), then in the order they were made.
    Every node comes after those it reads.  An output that needs an ``Input`` not among ``inputs`` is a ValueError.

    >>> import minitape as tf
    >>> from minitape.keras.functional import nodes_between
    >>> a, b = tf.keras.Input(shape=(1,), name="a"), tf.keras.Input(shape=(1,), name="b")
    >>> nodes_between([a], [tf.keras.layers.Add()([a, b])])
    Traceback (most recent call last):
    ...
    ValueError: Graph disconnected: the output needs the input 'b', which is not among the model's `inputs` (['a']); pass it in `inputs` too.
    """
    known = {id(x) for x in inputs}
    found: dict[int, Node] = {id(x.node): x.node for x in inputs}
    pending = list(outputs)
    while pending:
        tensor = pending.pop()
        node = tensor.node
        if id(tensor) in known or id(node) in found:
            continue
        if node is None or not node.parents:
            raise ValueError(f"Graph disconnected: the output needs the input '{tensor.name}', which is not among "
                             f"the model's `inputs` ({[x.name for x in inputs]}); pass it in `inputs` too.")
        found[id(node)] = node
        pending.extend(node.parents)
    depth = {id(x.node): 0 for x in outputs}
    for node in sorted(found.values(), key=lambda node: -node.order):      # a node's readers were made after it
        for parent in node.parents:
            depth[id(parent.node)] = max(depth.get(id(parent.node), 0), depth.get(id(node), 0) + 1)
    return sorted(found.values(), key=lambda node: (-depth.get(id(node), 0), node.order))


def replay(nodes: list[Node], inputs: list[KerasTensor], values: list[Any]) -> dict[KerasTensor, Any]:
    """Run ``nodes`` with ``values`` in place of ``inputs``: each KerasTensor mapped to the tensor computed for it.

    (KerasTensors hash by identity, so the result is a dict keyed by them; see the module's example.)
    """
    computed: dict[KerasTensor, Any] = dict(zip(inputs, values))
    for node in nodes:
        if all(x in computed for x in node.outputs):          # an input's own node
            continue
        flat = [computed[x] if isinstance(x, KerasTensor) else x for x in nest.flatten(node.call_args)]
        call_inputs, args, kwargs = nest.pack_sequence_as(node.call_args, flat)
        outputs = node.layer(call_inputs, *args, **kwargs)
        computed.update(zip(node.outputs, nest.flatten(outputs)))
    return computed


def adjust_rank(x: Any, expected: tuple) -> Any:
    """``x`` given to an input of shape ``expected`` (batch axis first) with one axis too many or too few, as
    Keras 3 takes it: a trailing axis of 1 dropped, or added where the input's last axis is 1 (so a vector
    ``x`` feeds ``Input(shape=(1,))``).  Other ranks pass unchanged, to be refused by the layers.

    >>> from minitape.keras.functional import adjust_rank
    >>> adjust_rank(tf.constant([1.0, 2.0]), (None, 1)).shape
    TensorShape([2, 1])
    """
    rank = len(x.shape)
    if rank == len(expected) + 1 and x.shape[-1] == 1:
        return ops.squeeze(x, axis=-1)
    if rank == len(expected) - 1 and expected[-1] == 1:
        return ops.expand_dims(x, axis=-1)
    return x
