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

import functools
from typing import Any

from minitape import ops
from minitape.core import nest
from minitape.keras import layer_config
from minitape.keras.keras_tensor import KerasTensor, Node, is_symbolic
from minitape.keras.layers import Input, InputLayer


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


def graph_config(model: Any) -> dict[str, Any]:
    """A functional model's config as Keras 3 writes it: each layer's config with the calls that feed it
    (``inbound_nodes``, a KerasTensor named by ``[layer, call, output]``), then the inputs' and outputs' names.

    >>> import minitape as tf
    >>> x = tf.keras.Input(shape=(2,), name="x")
    >>> config = tf.keras.Model(x, tf.keras.layers.ReLU(name="act")(x), name="m").get_config()
    >>> [layer["name"] for layer in config["layers"]], config["output_layers"]
    (['x', 'act'], ['act', 0, 0])
    """
    calls: dict[int, int] = {}                  # a node: which call of its layer it is
    for node in model._nodes:
        calls[id(node)] = sum(1 for other in model._nodes if other.layer is node.layer and other.order < node.order)

    def history(x: KerasTensor) -> list:
        return [x.node.layer.name, calls[id(x.node)], x.node.outputs.index(x)]

    def marker(x: Any) -> Any:
        if not isinstance(x, KerasTensor):
            return x
        return {"class_name": "__keras_tensor__",
                "config": {"shape": list(x.shape), "dtype": x.dtype, "keras_history": history(x)}}

    def ends(structure: Any, flat: list[KerasTensor]) -> list:          # Keras: one tensor is not nested
        return history(flat[0]) if isinstance(structure, KerasTensor) else [history(x) for x in flat]

    layers = []
    for layer in model.layers:
        nodes = sorted((n for n in model._nodes if n.layer is layer and n.parents), key=lambda n: n.order)
        inbound = []
        for n in nodes:
            inputs, args, kwargs = nest.pack_sequence_as(n.call_args, [marker(x) for x in nest.flatten(n.call_args)])
            inbound.append({"args": [inputs, *args], "kwargs": kwargs})
        layers.append({**layer_config.serialize(layer), "name": layer.name, "inbound_nodes": inbound})
    return {"name": model.name, "trainable": model.trainable, "layers": layers,
            "input_layers": ends(model._input_structure, model._inputs),
            "output_layers": ends(model._output_structure, model._outputs)}


def rebuild(config: dict[str, Any], custom_objects: dict[str, Any] | None = None) -> tuple[list, list]:
    """The inputs and outputs of ``graph_config``'s graph, each layer made again and called as it was."""
    made: dict[tuple, KerasTensor] = {}
    pending = []
    for entry in config["layers"]:
        layer = layer_config.deserialize(entry, custom_objects)
        if not entry["inbound_nodes"]:                          # an InputLayer: its output is the start
            made[(entry["name"], 0, 0)] = layer.output
        pending += [(layer, entry["name"], k, call) for k, call in enumerate(entry["inbound_nodes"])]
    while pending:
        ready = [p for p in pending if all(tuple(h) in made for h in _histories(p[3]))]
        if not ready:
            raise ValueError("The functional config is disconnected: a layer reads a tensor no layer makes.")
        for item in ready:
            layer, name, k, call = item
            flat = [made[tuple(x["config"]["keras_history"])] if _is_history(x) else x for x in _leaves(call)]
            inputs, *args = _pack(call["args"], flat[:len(_leaves(call["args"]))])
            kwargs = _pack(call["kwargs"], flat[len(_leaves(call["args"])):])
            made.update({(name, k, t): x for t, x in enumerate(nest.flatten(layer(inputs, *args, **kwargs)))})
            pending.remove(item)
    return _ends(config["input_layers"], made), _ends(config["output_layers"], made)


def _ends(histories: list, made: dict) -> Any:
    """The tensors ``input_layers`` or ``output_layers`` name: one, or a list of them."""
    if histories and isinstance(histories[0], str):
        return made[tuple(histories)]
    return [made[tuple(h)] for h in histories]


def _is_history(x: Any) -> bool:
    return isinstance(x, dict) and x.get("class_name") == "__keras_tensor__"


def _leaves(call: Any) -> list:
    """A recorded call's leaves, a KerasTensor's marker dict being one leaf."""
    if _is_history(call):
        return [call]
    if isinstance(call, list | tuple):
        return [leaf for item in call for leaf in _leaves(item)]
    if isinstance(call, dict):
        return [leaf for key in sorted(call) for leaf in _leaves(call[key])]
    return [call]


def _pack(call: Any, flat: list) -> Any:
    """``call``'s structure with ``flat`` as its leaves (the inverse of ``_leaves``)."""
    remaining = iter(flat)

    def build(node: Any) -> Any:
        if _is_history(node) or not isinstance(node, list | tuple | dict):
            return next(remaining)
        if isinstance(node, dict):
            return {key: build(node[key]) for key in sorted(node)}
        return type(node)(build(item) for item in node)
    return build(call)


def _histories(call: Any) -> list:
    return [x["config"]["keras_history"] for x in _leaves(call) if _is_history(x)]


def one_or_all(structure: Any, flat: list[KerasTensor]) -> Any:
    """Keras' ``model.input``/``model.output``: the tensor when there is one, else the structure given."""
    return flat[0] if len(flat) == 1 else structure


def pack_outputs(structure: Any, flat: list[Any]) -> Any:
    """A functional model's outputs in the structure it was given, a list or tuple of one being that one output,
    as Keras 3 returns them."""
    packed = nest.pack_sequence_as(structure, flat)
    return packed[0] if isinstance(packed, list | tuple) and len(packed) == 1 else packed


def are_graph_ends(args: tuple, kwargs: dict) -> bool:
    """Keras 3's test for ``Model(inputs, outputs)`` arguments, with KerasTensors required (a subclass's own
    ``MyModel(64, 10)`` stays a subclassed model)."""
    given = (*args, *(kwargs[k] for k in ("inputs", "outputs") if k in kwargs))
    return len(given) == 2 and is_symbolic(given)


@functools.cache
def made_functional(cls: type, functional_class: type) -> type:
    """``cls`` made functional: Keras 3 puts ``Functional`` among the bases of a Model subclass given
    ``(inputs, outputs)``; here a subclass of both, of the same name, leaves ``cls`` itself as it was."""
    return type(cls.__name__, (cls, functional_class), {"__module__": cls.__module__, "__qualname__": cls.__qualname__})


def stack_graph(model: Any, role: str) -> tuple[list[KerasTensor], list[KerasTensor]]:
    """A Sequential model's layers called once on an ``Input`` of the first one's input shape: the functional
    graph Keras 3 keeps for a Sequential model whose input shape is known (its ``inputs`` and ``outputs``)."""
    layers = model._layers
    first = layers[0] if layers else None
    if first is None or first.input_shape_hint is None:
        raise AttributeError(f"Sequential model '{model.name}' has no defined {role} yet.")
    x = first.output if isinstance(first, InputLayer) else Input(shape=first.input_shape_hint)
    y = x
    for layer in layers:
        if not isinstance(layer, InputLayer):
            y = layer(y)
    return [x], [y]
