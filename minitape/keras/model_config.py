"""FALLBACK configs for the models and the ``InputLayer``, as Keras 3 writes them in a ``.keras`` file, until
``Sequential``, ``Functional`` and ``InputLayer`` have ``get_config``/``from_config`` of their own (then
``saving`` calls theirs, and this module can go).

A Sequential model's config lists its layers; a functional model's lists each layer with the calls
(``inbound_nodes``) that made the graph: every KerasTensor argument is written as its
``keras_history``, ``[layer name, which call of that layer, which output]``, and loading replays
the calls in order on new ``Input``s.

>>> import minitape as tf
>>> from minitape.keras import model_config
>>> x = tf.keras.Input(shape=(2,), name="x")
>>> model = tf.keras.Model(x, tf.keras.layers.Dense(1, name="out")(x))
>>> config = model_config.functional_config(model)
>>> config["input_layers"], config["output_layers"], config["layers"][1]["inbound_nodes"][0]["args"][0]["config"]
(['x', 0, 0], ['out', 0, 0], {'shape': [None, 2], 'dtype': 'float32', 'keras_history': ['x', 0, 0]})
>>> model_config.functional_from_config(tf.keras.Model, config)(tf.ones((1, 2))).shape
TensorShape([1, 1])
"""
from __future__ import annotations

from typing import Any

from minitape.keras import serialization
from minitape.keras.keras_tensor import KerasTensor
from minitape.keras.layers import InputLayer, Layer


def input_layer_config(layer: InputLayer) -> dict[str, Any]:
    """An ``InputLayer``'s config: its batch shape, dtype and name, with Keras 3's keys.

    >>> import minitape as tf
    >>> from minitape.keras.model_config import input_layer_config
    >>> input_layer_config(tf.keras.Input(shape=(3,), name="x").node.layer)["batch_shape"]
    [None, 3]
    """
    return {"batch_shape": list(layer.output.shape), "dtype": layer.output.dtype, "sparse": False, "ragged": False,
            "name": layer.name, "optional": False}


def input_layer_from_config(config: dict[str, Any]) -> InputLayer:
    """The ``InputLayer`` ``input_layer_config`` describes (Keras' ``ragged`` and ``optional`` must be False).

    >>> from minitape.keras.model_config import input_layer_from_config
    >>> input_layer_from_config({"batch_shape": [None, 3], "dtype": "float32", "name": "x"}).output.shape
    (None, 3)
    """
    return InputLayer(batch_shape=config["batch_shape"], dtype=config.get("dtype"), name=config.get("name"))


def sequential_config(model: Any) -> dict[str, Any]:
    """A Sequential model's config: its name, its layers (an ``Input`` given first among them), its input shape.

    >>> import minitape as tf
    >>> from minitape.keras.model_config import sequential_config
    >>> model = tf.keras.Sequential([tf.keras.Input(shape=(3,)), tf.keras.layers.Dense(1)], name="s")
    >>> config = sequential_config(model)
    >>> [layer["class_name"] for layer in config["layers"]], config["build_input_shape"]
    (['InputLayer', 'Dense'], [None, 3])
    """
    return {"name": model.name, "trainable": model.trainable, "dtype": "float32",
            "layers": [serialization.serialize_keras_object(layer) for layer in model._layers],
            "build_input_shape": input_shape(model)}


def input_shape(model: Any) -> list | None:
    """The shape a Sequential model was built for, batch size None, or None while it is not built."""
    first = model._layers[0] if model._layers else None
    if isinstance(first, InputLayer):
        return list(first.output.shape)
    if first is not None and first.input_shape_hint is not None:
        return [None, *first.input_shape_hint]
    shape = getattr(model, "_build_input_shape", None)
    return None if shape is None else [None, *shape[1:]]


def sequential_from_config(cls: type, config: dict[str, Any], custom_objects: dict | None = None) -> Any:
    """The Sequential model ``sequential_config`` describes (built if its input shape is known, weights new).

    >>> import minitape as tf
    >>> from minitape.keras.model_config import sequential_config, sequential_from_config
    >>> model = tf.keras.Sequential([tf.keras.layers.Dense(2)]); model.build((None, 4))
    >>> [w.shape for w in sequential_from_config(tf.keras.Sequential, sequential_config(model)).weights]
    [TensorShape([4, 2]), TensorShape([2])]
    """
    layers = [serialization.deserialize_keras_object(layer, custom_objects) for layer in config["layers"]]
    model = cls(layers, name=config.get("name"), trainable=config.get("trainable", True))
    if config.get("build_input_shape") is not None and not model.built:
        model.build(config["build_input_shape"])
    return model


def functional_config(model: Any) -> dict[str, Any]:
    """A functional model's config: each layer with its ``inbound_nodes``, and the graph's ends (see above)."""
    node_index: dict[int, int] = {}
    calls: dict[int, int] = {}
    for node in sorted(model._nodes, key=lambda node: node.order):
        node_index[id(node)] = calls.get(id(node.layer), 0)
        calls[id(node.layer)] = node_index[id(node)] + 1

    def history(x: KerasTensor) -> list:
        return [x.node.layer.name, node_index[id(x.node)], next(i for i, y in enumerate(x.node.outputs) if y is x)]

    def argument(value: Any) -> Any:
        if isinstance(value, KerasTensor):
            return {"class_name": "__keras_tensor__",
                    "config": {"shape": list(value.shape), "dtype": value.dtype, "keras_history": history(value)}}
        if isinstance(value, list | tuple):
            return [argument(item) for item in value]
        if isinstance(value, dict):
            return {key: argument(item) for key, item in value.items()}
        return serialization.serialize_keras_object(value)

    layers = []
    for layer in model.layers:
        nodes = sorted((node for node in model._nodes if node.layer is layer and node.parents), key=lambda n: n.order)
        entry = serialization.serialize_keras_object(layer)
        entry.pop("build_config", None) if isinstance(layer, InputLayer) else None
        layers.append(entry | {"name": layer.name, "inbound_nodes": [
            {"args": [argument(node.call_args[0]), *map(argument, node.call_args[1])],
             "kwargs": argument(node.call_args[2])} for node in nodes]})

    def ends(structure: Any, flat: list[KerasTensor]) -> list:
        return [history(x) for x in flat] if isinstance(structure, list | tuple | dict) else history(flat[0])

    return {"name": model.name, "trainable": model.trainable, "layers": layers,
            "input_layers": ends(model._input_structure, model._inputs),
            "output_layers": ends(model._output_structure, model._outputs)}


def functional_from_config(cls: type, config: dict[str, Any], custom_objects: dict | None = None) -> Any:
    """The functional model ``functional_config`` describes: its layers made, then called in the order of
    their ``inbound_nodes`` (a call whose inputs are not made yet waits its turn), on new ``Input``s."""
    made: dict[tuple[str, int], list[KerasTensor]] = {}
    pending: list[tuple[Layer, dict]] = []
    for entry in config["layers"]:
        layer = serialization.deserialize_keras_object({k: v for k, v in entry.items() if k != "build_config"},
                                                       custom_objects)
        if isinstance(layer, InputLayer):
            made[(layer.name, 0)] = [layer.output]
        pending.extend((layer, node) for node in entry.get("inbound_nodes", []))
    calls: dict[str, int] = {}
    while pending:
        ready = next(((layer, node) for layer, node in pending if _known(node, made)), None)
        if ready is None:
            raise ValueError(f"Functional model '{config.get('name')}': the layer calls in this config cannot be "
                             f"replayed (a call reads a tensor no layer makes); the config is damaged.")
        pending.remove(ready)
        layer, node = ready
        args = [_resolve(arg, made) for arg in node["args"]]
        kwargs = {key: _resolve(value, made) for key, value in node.get("kwargs", {}).items()}
        outputs = layer(*args, **kwargs)
        k = calls.get(layer.name, 0)
        calls[layer.name] = k + 1
        made[(layer.name, k)] = list(outputs) if isinstance(outputs, list | tuple) else [outputs]

    def ends(spec: list) -> Any:
        if spec and isinstance(spec[0], str):
            return made[(spec[0], spec[1])][spec[2]]
        return [ends(item) for item in spec]

    # `Model(inputs, outputs)` makes a Functional.
    return cls(ends(config["input_layers"]), ends(config["output_layers"]), name=config.get("name"))


def _is_tensor(value: Any) -> bool:
    return isinstance(value, dict) and value.get("class_name") == "__keras_tensor__"


def _known(node: dict, made: dict) -> bool:
    """Whether every KerasTensor a recorded call reads has been made."""
    stack = [node.get("args", []), node.get("kwargs", {})]
    while stack:
        value = stack.pop()
        if _is_tensor(value):
            if tuple(value["config"]["keras_history"][:2]) not in made:
                return False
        elif isinstance(value, list | tuple):
            stack.extend(value)
        elif isinstance(value, dict):
            stack.extend(value.values())
    return True


def _resolve(value: Any, made: dict) -> Any:
    """A recorded argument with each KerasTensor replaced by the one made for its history."""
    if _is_tensor(value):
        name, k, i = value["config"]["keras_history"]
        return made[(name, k)][i]
    if isinstance(value, list | tuple):
        return [_resolve(item, made) for item in value]
    if isinstance(value, dict) and "class_name" not in value:
        return {key: _resolve(item, made) for key, item in value.items()}
    return serialization.deserialize_keras_object(value)


def _functional_or_none(cls: type, config: dict[str, Any], custom_objects: dict | None = None) -> Any:
    """A subclassed model's config is not a graph: it is made by its own constructor instead."""
    return functional_from_config(cls, config, custom_objects) if {"layers", "input_layers"} <= set(config) else None


serialization.FALLBACKS.update({
    "InputLayer": (input_layer_config, lambda cls, config, custom_objects: input_layer_from_config(config)),
    "Sequential": (sequential_config, sequential_from_config),
    "Functional": (functional_config, _functional_or_none),
    "Model": (serialization.constructor_config, _functional_or_none),
})
