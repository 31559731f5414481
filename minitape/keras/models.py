"""Models: layers that hold other layers.  Subclass [`Model`][minitape.keras.Model] and write ``call``,
stack layers with [`Sequential`][minitape.keras.Sequential], or call layers on a ``tf.keras.Input``
and give ``Model(inputs, outputs)`` the ends of the graph (a functional model, see ``functional``).

>>> import minitape as tf
>>> class TwoLayers(tf.keras.Model):
...     def __init__(self):
...         super().__init__()
...         self.hidden = tf.keras.layers.Dense(4, activation="tanh")
...         self.out = tf.keras.layers.Dense(1)
...     def call(self, x):
...         return self.out(self.hidden(x))
>>> model = TwoLayers()
>>> model(tf.ones((3, 2))).shape, len(model.trainable_variables)
(TensorShape([3, 1]), 4)
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from minitape.core import nest
from minitape.core.tensor import Tensor, constant, convert_to_tensor
from minitape import ops
from minitape.keras import functional, layer_config, saving as saving_lib
from minitape.keras.keras_tensor import KerasTensor
from minitape.keras.layers import InputLayer, Layer
from minitape.keras.summary import print_summary
from minitape.keras.saving import Saveable
from minitape.keras.trainer import Trainer


class Model(Trainer, Saveable, Layer):
    """A layer made of layers: assign sub-layers as attributes and write ``call``; train it with
    ``compile`` and ``fit`` (see ``trainer``), or with your own loop.

    >>> import minitape as tf
    >>> class Residual(tf.keras.Model):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.inner = tf.keras.layers.Dense(2)
    ...     def call(self, x):
    ...         return x + self.inner(x)
    >>> model = Residual()
    >>> model(tf.ones((1, 2))).shape, len(model.variables)
    (TensorShape([1, 2]), 2)

    ``Model(inputs, outputs)`` makes a functional model (a ``Functional``) instead; so does a subclass
    given KerasTensors, ``MyModel(inputs, outputs)``, as keras.io's "customizing what happens in fit"
    writes it: the subclass's own methods (``train_step``...) over a functional model's ``call``.
    """

    def __new__(cls, *args: Any, **kwargs: Any) -> Model:
        if cls is Model and (args or "inputs" in kwargs or "outputs" in kwargs):
            return super().__new__(Functional)
        if not issubclass(cls, Functional) and functional.are_graph_ends(args, kwargs):
            return super().__new__(functional.made_functional(cls, Functional))
        return super().__new__(cls)

    @classmethod
    def from_config(cls, config: dict[str, Any], custom_objects: dict[str, Any] | None = None) -> Model:
        """A model from its config: a functional model's (its ``layers`` and their calls), or a subclass's
        own arguments, as Keras 3's ``Model.from_config`` tells them apart.

        >>> import minitape as tf
        >>> x = tf.keras.Input(shape=(2,))
        >>> type(tf.keras.Model.from_config(tf.keras.Model(x, x).get_config())).__name__
        'Functional'
        """
        if "input_layers" in config and "output_layers" in config:
            return Functional.from_config.__func__(cls, config, custom_objects)
        return super().from_config(config, custom_objects)

    @property
    def layers(self) -> list[Layer]:
        """The layers this model holds directly, in the order they were attached.

        >>> import minitape as tf
        >>> class Two(tf.keras.Model):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.first, self.second = tf.keras.layers.Dense(2), tf.keras.layers.ReLU()
        >>> [type(layer).__name__ for layer in Two().layers]
        ['Dense', 'ReLU']
        """
        return list(self._layers)

    def get_layer(self, name: str | None = None, index: int | None = None) -> Layer:
        """The layer called ``name``, or the one at ``index`` in ``layers``.

        >>> import minitape as tf
        >>> model = tf.keras.Sequential([tf.keras.layers.Dense(2, name="a"), tf.keras.layers.ReLU(name="r")])
        >>> model.get_layer("r").name, model.get_layer(index=0).name
        ('r', 'a')
        """
        if name is not None and index is not None:
            raise ValueError(f"Provide only a layer name or a layer index. Received: index={index}, name={name}.")
        if index is not None:
            if len(self.layers) <= index:
                raise ValueError(f"Was asked to retrieve layer at index {index} but model only has "
                                 f"{len(self.layers)} layers.")
            return self.layers[index]
        if name is None:
            raise ValueError("Provide either a layer name or layer index at `get_layer`.")
        for layer in self.layers:
            if layer.name == name:
                return layer
        raise ValueError(f"No such layer: {name}. Existing layers are: {[layer.name for layer in self.layers]}.")

    def summary(self, line_length: int | None = None, print_fn: Callable[[str], Any] | None = None) -> None:
        """Print Keras 3's table: each layer, its output shape, its parameter count; then the totals.  It is
        ``line_length`` wide, else as wide as Keras makes it for the terminal (see ``summary``).

        >>> import minitape as tf
        >>> model = tf.keras.Sequential([tf.keras.layers.Conv2D(4, 3, name="conv")], name="net")
        >>> _ = model(tf.ones((1, 8, 8, 1)))
        >>> model.summary()
        Model: "net"
        ...
        │ conv (Conv2D)                   │ (1, 6, 6, 4)           │            40 │
        ...
         Total params: 40 (160.00 B)
        ...
        """
        print_summary(self, print_fn, line_length)


load_model, save_model = saving_lib.load_model, saving_lib.save_model      # keras.models.load_model, as Keras


class Sequential(Model):
    """Layers applied one after another.

    >>> import minitape as tf
    >>> model = tf.keras.Sequential([tf.keras.layers.Dense(2), tf.keras.layers.ReLU()])
    >>> len(model.layers)
    2
    """

    def __init__(self, layers: Iterable[Layer] | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        for layer in layers or []:
            self.add(layer)

    def add(self, layer: Layer) -> None:
        """Put ``layer`` at the end of the stack.

        >>> import minitape as tf
        >>> model = tf.keras.Sequential()
        >>> model.add(tf.keras.layers.Dense(2))
        >>> model.add(tf.keras.layers.ReLU())
        >>> [type(layer).__name__ for layer in model.layers]
        ['Dense', 'ReLU']
        """
        if isinstance(layer, KerasTensor) and isinstance(layer.node.layer, InputLayer):
            layer = layer.node.layer          # an Input first gives the model its input shape
        if not isinstance(layer, Layer):
            raise ValueError(f"Only instances of `keras.Layer` can be added to a Sequential model. Received: "
                             f"{layer!r} (of type {type(layer)}).")
        self._layers.append(layer)
        self._graph_io = None
        first = self._layers[0].input_shape_hint
        if first is not None and len(self.layers):      # the input shape is known: build now, as Keras does
            self(constant(0.0, shape=(1, *[1 if n is None else n for n in first])))

    def pop(self, rebuild: bool = True) -> Layer:
        """Remove the last layer and return it; its weights leave the model's.

        >>> import minitape as tf
        >>> model = tf.keras.Sequential([tf.keras.layers.Dense(2, name="a"), tf.keras.layers.Dense(3, name="b")])
        >>> model.pop().name, [layer.name for layer in model.layers]
        ('b', ['a'])
        """
        if not self.layers:
            raise IndexError(f"Sequential model {self.name} has no layers to pop: `pop()` removes the last one added.")
        layer = self._layers.pop()
        self.built = bool(self.layers) and all(kept.built for kept in self.layers)
        return layer

    def build(self, input_shape: Any = None) -> None:
        """Build every layer for inputs of ``input_shape`` (a batch size may be None), as Keras does: the layers
        run once on a stand-in of ones (see ``keras_tensor``), whose losses are then forgotten.

        >>> import minitape as tf
        >>> model = tf.keras.Sequential([tf.keras.layers.Dense(2), tf.keras.layers.Dense(1)])
        >>> model.build((None, 3))
        >>> [v.shape.as_list() for v in model.weights]
        [[3, 2], [2], [2, 1], [1]]
        """
        if self._in_own_call():           # the first call builds each layer as it runs it
            super().build(input_shape)
            return
        if not self.layers:
            raise ValueError(f"Sequential model {self.name} cannot be built because it has no layers. Call "
                             f"`model.add(layer)`.")
        if input_shape is not None:       # Keras leaves a model it has no shape for unbuilt
            self(KerasTensor(tuple(input_shape)).stand_in())
            self._clear_losses()

    @property
    def layers(self) -> list[Layer]:
        """The stacked layers (an ``Input`` given first is not one of them, as in Keras).

        >>> import minitape as tf
        >>> model = tf.keras.Sequential([tf.keras.Input(shape=(2,)), tf.keras.layers.ReLU(name="r")])
        >>> [layer.name for layer in model.layers]
        ['r']
        """
        return [layer for layer in self._layers if not isinstance(layer, InputLayer)]

    def get_config(self) -> dict[str, Any]:
        """The stack's name and each layer's config (an ``Input`` given first among them), as Keras 3 writes it.

        >>> import minitape as tf
        >>> model = tf.keras.Sequential([tf.keras.Input(shape=(3,)), tf.keras.layers.Dense(2)])
        >>> [layer["class_name"] for layer in model.get_config()["layers"]]
        ['InputLayer', 'Dense']
        """
        return {"name": self.name, "trainable": self.trainable, "dtype": layer_config.dtype_policy(None),
                "layers": [layer_config.serialize(layer) for layer in self._layers]}

    @classmethod
    def from_config(cls, config: dict[str, Any], custom_objects: dict[str, Any] | None = None) -> Sequential:
        """The stack made again from ``get_config`` (new weights, the same architecture).

        >>> import minitape as tf
        >>> model = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,), name="h")], name="stack")
        >>> again = tf.keras.Sequential.from_config(model.get_config())
        >>> again.name, [v.shape.as_list() for v in again.weights]
        ('stack', [[3, 2], [2]])
        """
        layers = [layer_config.deserialize(layer, custom_objects) for layer in config["layers"]]
        return cls(layers, name=config["name"], trainable=config.get("trainable", True))

    @property
    def inputs(self) -> list[KerasTensor]:
        """The symbolic input of the stack, as a list, once its input shape is known (Keras 3 runs a
        Sequential model as a functional one then).

        >>> import minitape as tf
        >>> model = tf.keras.Sequential([tf.keras.Input(shape=(3,)), tf.keras.layers.Dense(2, name="h")])
        >>> model.inputs[0].shape, model.outputs[0].shape, model.layers[0].output.shape
        ((None, 3), (None, 2), (None, 2))
        """
        return self._graph("inputs")[0]

    @property
    def outputs(self) -> list[KerasTensor]:
        """The symbolic output of the stack, as a list (see ``inputs``).

        >>> import minitape as tf
        >>> tf.keras.Sequential([tf.keras.layers.Dense(2)], name="unbuilt").outputs
        Traceback (most recent call last):
        ...
        AttributeError: Sequential model 'unbuilt' has no defined outputs yet.
        """
        return self._graph("outputs")[1]

    def _graph(self, role: str) -> tuple[list[KerasTensor], list[KerasTensor]]:
        self._graph_io = getattr(self, "_graph_io", None) or functional.stack_graph(self, role)
        return self._graph_io

    def call(self, inputs: Any, training: bool | None = None) -> Any:
        """Each layer applied in turn, passing ``training`` on to the layers that take it.

        >>> import minitape as tf
        >>> model = tf.keras.Sequential([tf.keras.layers.Lambda(lambda x: x + 1.0), tf.keras.layers.Dropout(0.5)])
        >>> model.call(tf.constant([1.0, 2.0]), training=False).numpy()
        array([2., 3.], dtype=float32)
        """
        first = self._layers[0].input_shape_hint if self._layers else None
        x = inputs if first is None or not isinstance(inputs, Tensor) else functional.adjust_rank(inputs, (None, *first))
        for layer in self.layers:
            x = layer(x) if training is None else layer(x, training=training)
        return x


class Functional(Model):
    """A model made by calling layers on ``tf.keras.Input``: ``Model(inputs, outputs)``, each a KerasTensor or a
    list (or dict) of them.  Calling it replays the recorded layer calls on the data (see ``functional``);
    its ``layers`` are its ``InputLayer`` objects and the layers called, in Keras' order (see ``functional``).

    >>> import minitape as tf
    >>> inputs = tf.keras.Input(shape=(3,), name="x")
    >>> hidden = tf.keras.layers.Dense(4, activation="relu", name="hidden")(inputs)
    >>> model = tf.keras.Model(inputs, [tf.keras.layers.Dense(1, name="a")(hidden),
    ...                                  tf.keras.layers.Dense(2, name="b")(hidden)])
    >>> type(model).__name__, [layer.name for layer in model.layers]
    ('Functional', ['x', 'hidden', 'a', 'b'])
    >>> [y.shape.as_list() for y in model(tf.ones((5, 3)))]
    [[5, 1], [5, 2]]
    """

    casts_inputs = False           # each input becomes its Input's dtype instead

    def __init__(self, inputs: Any, outputs: Any, name: str | None = None, trainable: bool = True) -> None:
        super().__init__(name=name, trainable=trainable)
        self._inputs = functional.check_tensors(inputs, "inputs")
        self._outputs = functional.check_tensors(outputs, "outputs")
        for x in self._inputs:
            if not isinstance(x.node.layer, InputLayer):
                raise ValueError(f"The `inputs` of a functional Model must come from `tf.keras.Input`; "
                                 f"{x!r} was made by layer '{x.node.layer.name}'.")
        self._input_structure, self._output_structure = inputs, outputs
        self._symbolic_io = (functional.one_or_all(inputs, self._inputs), functional.one_or_all(outputs, self._outputs))
        self._nodes = functional.nodes_between(self._inputs, self._outputs)
        for layer in [node.layer for node in self._nodes]:
            if all(layer is not known for known in self._layers):
                self._layers.append(layer)
        self.output_shape = nest.pack_sequence_as(outputs, [x.shape for x in self._outputs])
        self.output_names, self.built = [x.node.layer.name for x in self._outputs], True   # names as Keras 3

    def get_config(self) -> dict[str, Any]:
        """Its layers' configs and how they are called, as Keras 3 writes a functional model (see ``functional``).

        >>> import minitape as tf
        >>> x = tf.keras.Input(shape=(2,), name="x")
        >>> sorted(tf.keras.Model(x, tf.keras.layers.Dense(1)(x)).get_config())
        ['input_layers', 'layers', 'name', 'output_layers', 'trainable']
        """
        return functional.graph_config(self)

    @classmethod
    def from_config(cls, config: dict[str, Any], custom_objects: dict[str, Any] | None = None) -> Functional:
        """The model made again from ``get_config``: each layer anew, called as it was (new weights).

        >>> import minitape as tf
        >>> x = tf.keras.Input(shape=(2,), name="x")
        >>> model = tf.keras.Model(x, tf.keras.layers.Dense(3, name="d")(x), name="m")
        >>> again = tf.keras.Model.from_config(model.get_config())
        >>> type(again).__name__, again.name, [layer.name for layer in again.layers], again.outputs[0].shape
        ('Functional', 'm', ['x', 'd'], (None, 3))
        """
        inputs, outputs = functional.rebuild(config, custom_objects)
        target = Functional if cls is Model else cls
        return target(inputs, outputs, name=config["name"], trainable=config.get("trainable", True))

    @property
    def inputs(self) -> list[KerasTensor]:
        """The model's symbolic inputs, as a list.

        >>> import minitape as tf
        >>> x = tf.keras.Input(shape=(2,), name="x")
        >>> tf.keras.Model(x, tf.keras.layers.ReLU()(x)).inputs
        [<KerasTensor shape=(None, 2), dtype=float32, sparse=False, ragged=False, name=x>]
        """
        return list(self._inputs)

    @property
    def outputs(self) -> list[KerasTensor]:
        """The model's symbolic outputs, as a list.

        >>> import minitape as tf
        >>> x = tf.keras.Input(shape=(2,))
        >>> [y.shape for y in tf.keras.Model(x, tf.keras.layers.Dense(3)(x)).outputs]
        [(None, 3)]
        """
        return list(self._outputs)

    def call(self, inputs: Any, training: bool | None = None) -> Any:
        """The recorded layer calls replayed on ``inputs`` (structured as the model's ``inputs``); ``training``
        reaches the layers that take it.

        >>> import minitape as tf
        >>> a, b = tf.keras.Input(shape=(2,)), tf.keras.Input(shape=(2,))
        >>> model = tf.keras.Model([a, b], tf.keras.layers.Add()([a, b]))
        >>> model.call([np.ones((1, 2)), np.ones((1, 2))]).numpy()
        array([[2., 2.]], dtype=float32)
        """
        if isinstance(inputs, dict) and not isinstance(self._input_structure, dict):
            inputs = self._by_name(inputs)
        values = nest.flatten(inputs)
        if len(values) != len(self._inputs):
            raise ValueError(f"Functional model '{self.name}' expects {len(self._inputs)} input(s), but it received "
                             f"{len(values)} input tensors; pass them structured as its `inputs`.")
        values = [self._as_input(k, value, x) for k, (value, x) in enumerate(zip(values, self._inputs))]
        computed = functional.replay(self._nodes, self._inputs, values)
        return functional.pack_outputs(self._output_structure, [computed[x] for x in self._outputs])

    def _by_name(self, inputs: dict[str, Any]) -> list[Any]:
        """A dict given to a model whose inputs are a list: each value to the ``Input`` of its name, as Keras 3."""
        names = [x.name for x in self._inputs]
        missing = [name for name in names if name not in inputs]
        if missing:
            raise ValueError(f'Missing data for input "{missing[0]}". You passed a data dictionary with keys '
                             f"{list(inputs)}. Expected the following keys: {names}")
        return [inputs[name] for name in names]

    def _as_input(self, k: int, value: Any, symbolic: KerasTensor) -> Tensor:
        """One input as a tensor of its ``Input``'s dtype, its shape checked against the Input's."""
        if not isinstance(value, Tensor):      # a stand-in (the model called on a KerasTensor) stays as it is
            value = convert_to_tensor(value.numpy() if hasattr(value, "numpy") else value)
        if value.dtype.name != symbolic.dtype:
            value = ops.cast(value, symbolic.dtype)
        value = functional.adjust_rank(value, symbolic.shape)
        shape = tuple(value.shape)
        if len(shape) != symbolic.ndim or any(None not in (n, m) and n != m for n, m in zip(symbolic.shape, shape)):
            raise ValueError(f'Input {k} of layer "{self.name}" is incompatible with the layer: expected '
                             f"shape={symbolic.shape}, found shape={shape}; give it data of the `Input`'s shape.")
        return value
