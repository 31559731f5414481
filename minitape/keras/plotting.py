"""``keras.utils.plot_model``: a model's layers as a graph picture, drawn by Graphviz through pygraphviz.

Each layer is a box (its name and class; with ``show_shapes`` its input and output shapes,
with ``show_dtype`` its dtype); an arrow goes from each layer to each layer it feeds.  A
``Sequential`` model is a chain; a functional model draws its graph of layer calls, inputs first.

>>> import minitape as tf
>>> inputs = tf.keras.Input((4,), name="features")
>>> model = tf.keras.Model(inputs, tf.keras.layers.Dense(1, name="score")(inputs))
>>> dot = tf.keras.utils.model_to_dot(model, show_shapes=True)
>>> sorted(dot.nodes()), dot.edges()
(['features', 'score'], [('features', 'score')])
>>> dot.get_node("score").attr["label"]
'score (Dense)\\nInput shape: (None, 4)\\nOutput shape: (None, 1)'
"""
from __future__ import annotations

import os
from typing import Any

from minitape.keras.summary import _shape

_ATTRIBUTES = {"shape": "box", "style": "rounded,filled", "fillcolor": "#eef3fb", "fontname": "Helvetica"}


def _label(name: str, kind: str, shapes: tuple[Any, Any] | None, dtype: str | None, activation: str | None,
           trainable: bool | None) -> str:
    lines = [f"{name} ({kind})"]
    if shapes is not None:
        lines += [f"Input shape: {_shape(shapes[0])}", f"Output shape: {_shape(shapes[1])}"]
    if dtype is not None:
        lines.append(f"Input dtype: {dtype}")
    if activation:
        lines.append(f"Activation: {activation}")
    if trainable is not None:
        lines.append(f"Trainable: {'T' if trainable else 'F'}")
    return "\n".join(lines)


def _edges(model: Any) -> tuple[list[tuple[str, str, Any, Any, Any]], list[tuple[str, str]]]:
    """The boxes (name, class, layer, input shape, output shape) and arrows between them, by name."""
    nodes = getattr(model, "_nodes", None)
    if nodes is None:                                     # a Sequential model: a chain
        layers = list(model.layers)
        boxes = [(layer.name, type(layer).__name__, layer, getattr(previous, "output_shape", None),
                  getattr(layer, "output_shape", None)) for previous, layer in zip([None, *layers], layers)]
        return boxes, [(a.name, b.name) for a, b in zip(layers, layers[1:])]
    boxes = [(x.name, "InputLayer", None, x.shape, x.shape) for x in model._inputs]
    arrows = []
    for node in nodes:
        parents = [p.node.layer.name if p.node is not None else p.name for p in node.parents]
        shapes = [p.shape for p in node.parents]
        outputs = [o.shape for o in node.outputs]
        boxes.append((node.layer.name, type(node.layer).__name__, node.layer,
                      shapes[0] if len(shapes) == 1 else shapes, outputs[0] if len(outputs) == 1 else outputs))
        arrows += [(parent, node.layer.name) for parent in parents]
    return boxes, list(dict.fromkeys(arrows))


def model_to_dot(model: Any, show_shapes: bool = False, show_dtype: bool = False, show_layer_names: bool = True,
                 rankdir: str = "TB", expand_nested: bool = False, dpi: int = 200, subgraph: bool = False,
                 show_layer_activations: bool = False, show_trainable: bool = False, **kwargs: Any) -> Any:
    """The model's graph as a ``pygraphviz.AGraph`` (Keras gives a ``pydot.Dot``; both write DOT and pictures).

    >>> import minitape as tf
    >>> model = tf.keras.Sequential([tf.keras.layers.Dense(2, name="a"), tf.keras.layers.Dense(1, name="b")])
    >>> tf.keras.utils.model_to_dot(model).edges()
    [('a', 'b')]
    """
    try:
        import pygraphviz
    except ImportError:
        raise ImportError("You must install pygraphviz (`pip install pygraphviz`, which brings Graphviz) for "
                          "`plot_model` to work.") from None
    graph = pygraphviz.AGraph(directed=True, rankdir=rankdir, dpi=str(dpi), concentrate=True)
    boxes, arrows = _edges(model)
    for name, kind, layer, input_shape, output_shape in boxes:
        activation = getattr(getattr(layer, "activation", None), "__name__", None) if show_layer_activations else None
        dtype = (getattr(layer, "dtype", None) or "float32") if show_dtype else None
        label = _label(name if show_layer_names else "", kind, (input_shape, output_shape) if show_shapes else None,
                       str(getattr(dtype, "name", dtype)) if dtype else None, activation,
                       getattr(layer, "trainable", True) if show_trainable else None)
        graph.add_node(name, label=label.replace(" (", "(", 1) if not show_layer_names else label, **_ATTRIBUTES)
    for a, b in arrows:
        graph.add_edge(a, b)
    return graph


def plot_model(model: Any, to_file: str = "model.png", show_shapes: bool = False, show_dtype: bool = False,
               show_layer_names: bool = True, rankdir: str = "TB", expand_nested: bool = False, dpi: int = 200,
               show_layer_activations: bool = False, show_trainable: bool = False, **kwargs: Any) -> Any:
    """Draw the model's graph into ``to_file`` (PNG, SVG, PDF... by its extension), as Keras does; in IPython, the
    picture is returned to show in the notebook.

    >>> import os, tempfile
    >>> import minitape as tf
    >>> model = tf.keras.Sequential([tf.keras.layers.Dense(2, name="a"), tf.keras.layers.Dense(1, name="b")])
    >>> path = os.path.join(tempfile.mkdtemp(), "model.svg")
    >>> _ = tf.keras.utils.plot_model(model, to_file=path, show_shapes=True)
    >>> open(path).read().count("<g id=\\"node")
    2
    """
    graph = model_to_dot(model, show_shapes=show_shapes, show_dtype=show_dtype, show_layer_names=show_layer_names,
                         rankdir=rankdir, expand_nested=expand_nested, dpi=dpi,
                         show_layer_activations=show_layer_activations, show_trainable=show_trainable)
    extension = os.path.splitext(to_file)[1][1:] or "png"
    graph.draw(to_file, format=extension, prog="dot")
    if extension == "pdf":
        return None
    try:
        from IPython import display
    except ImportError:
        return None
    return display.SVG(filename=to_file) if extension == "svg" else display.Image(filename=to_file)
