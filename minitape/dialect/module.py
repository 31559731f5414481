"""``tf.Module``: a named container whose variables and sub-modules are found by looking at its attributes.

Nothing is registered: ``variables`` walks the object's attributes in name order, looks
inside the lists, tuples and dicts they hold (dicts by sorted key, as ``tf.nest``), and
collects what it finds; then it does the same inside each sub-module met, in the order met.
Each object is reported once, where it is first seen.

>>> import minitape as tf
>>> class Dense(tf.Module):
...     def __init__(self, in_features, out_features, name=None):
...         super().__init__(name=name)
...         self.w = tf.Variable(tf.ones([in_features, out_features]), name="w")
...         self.b = tf.Variable(tf.zeros([out_features]), name="b")
...     def __call__(self, x):
...         return tf.nn.relu(tf.matmul(x, self.w) + self.b)
>>> class Stack(tf.Module):
...     def __init__(self, name=None):
...         super().__init__(name=name)
...         self.layers = [Dense(3, 3), Dense(3, 2)]
>>> model = Stack(name="the_model")
>>> [v.name for v in model.variables]                    # per module: b before w (attribute order)
['b:0', 'w:0', 'b:0', 'w:0']
>>> [m.name for m in model.submodules]
['dense', 'dense']
"""
from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator
from typing import Any

from minitape.core import nest, scopes
from minitape.core.tensor import Variable

_CAMEL_TO_SNAKE = re.compile(r"((?<=[a-z0-9])[A-Z]|(?!^)[A-Z](?=[a-z]))")
_IDENTIFIER = re.compile(r"^[a-zA-Z_]([a-zA-Z0-9_])*$")


def camel_to_snake(name: str) -> str:
    """TensorFlow's default module name for a class name: an underscore before each capital that follows a
    lower-case letter or digit, or that starts a word (``Conv2D`` is ``conv2_d``).  Keras' rule, for layers and
    metrics, differs after digits (``conv2d``): it is ``minitape.keras.naming.snake_case``.

    >>> from minitape.dialect.module import camel_to_snake
    >>> camel_to_snake("SequentialModule"), camel_to_snake("MyHTTPModule2D")
    ('sequential_module', 'my_http_module2_d')
    """
    return _CAMEL_TO_SNAKE.sub(r"_\1", name).lower()


class Module:
    """The base class of models built by hand: ``variables``, ``trainable_variables``, ``submodules`` and a
    ``name_scope``, found from the attributes (see the module's text).

    >>> import minitape as tf
    >>> class Scale(tf.Module):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.factor = tf.Variable(2.0, name="factor")
    ...         self.steps = tf.Variable(0, trainable=False, name="steps")
    >>> scale = Scale()
    >>> scale.name, [v.name for v in scale.trainable_variables], [v.name for v in scale.non_trainable_variables]
    ('scale', ['factor:0'], ['steps:0'])
    """

    def __init__(self, name: str | None = None) -> None:
        if name is None:
            name = camel_to_snake(type(self).__name__)
        elif not _IDENTIFIER.match(name):
            raise ValueError(f"{name!r} is not a valid module name. Module names must be valid Python identifiers "
                             f"(e.g. a valid class name).")
        self._name = name
        with scopes.name_scope(name) as path:          # inside another module's scope, the path nests
            self._name_scope = scopes.name_scope(path)

    @property
    def name(self) -> str:
        """The name given, or the class name in snake case (not the scope's whole path).

        >>> import minitape as tf
        >>> tf.Module().name, tf.Module(name="encoder").name
        ('module', 'encoder')
        """
        return self._name

    @property
    def name_scope(self) -> scopes.name_scope:
        """The module's ``tf.name_scope``: variables created inside it have names under the module's.

        >>> import minitape as tf
        >>> block = tf.Module(name="block")
        >>> with block.name_scope as path:
        ...     v = tf.Variable(1.0, name="w")
        >>> path, block.name_scope.name, v.name
        ('block/', 'block/', 'block/w:0')
        """
        return self._name_scope

    @property
    def variables(self) -> tuple[Variable, ...]:
        """Every variable of this module (attributes in name order), then those of its sub-modules.

        >>> import minitape as tf
        >>> module = tf.Module()
        >>> module.weights = {"b": tf.Variable(1.0, name="b"), "a": tf.Variable(2.0, name="a")}
        >>> [v.name for v in module.variables]
        ['a:0', 'b:0']
        """
        return tuple(self._flatten(lambda leaf: isinstance(leaf, Variable)))

    @property
    def trainable_variables(self) -> tuple[Variable, ...]:
        """The variables created with ``trainable=True``, in the order of ``variables``.

        >>> import minitape as tf
        >>> module = tf.Module()
        >>> module.w, module.count = tf.Variable(1.0, name="w"), tf.Variable(0, trainable=False)
        >>> [v.name for v in module.trainable_variables]
        ['w:0']
        """
        return tuple(self._flatten(lambda leaf: isinstance(leaf, Variable) and leaf.trainable))

    @property
    def non_trainable_variables(self) -> tuple[Variable, ...]:
        """The variables created with ``trainable=False``, in the order of ``variables``.

        >>> import minitape as tf
        >>> module = tf.Module()
        >>> module.w, module.count = tf.Variable(1.0, name="w"), tf.Variable(0, trainable=False, name="count")
        >>> [v.name for v in module.non_trainable_variables]
        ['count:0']
        """
        return tuple(self._flatten(lambda leaf: isinstance(leaf, Variable) and not leaf.trainable))

    @property
    def submodules(self) -> tuple[Module, ...]:
        """Every module held by this one, or by those, and so on (each once, where first met).

        >>> import minitape as tf
        >>> a, b, c = tf.Module(name="a"), tf.Module(name="b"), tf.Module(name="c")
        >>> a.b, b.c = b, c
        >>> [m.name for m in a.submodules], [m.name for m in b.submodules]
        (['b', 'c'], ['c'])
        """
        return tuple(self._flatten(lambda leaf: isinstance(leaf, Module)))

    def _flatten(self, predicate: Callable[[Any], bool]) -> Iterator[Any]:
        return _walk(self, predicate, seen={id(self)})

    @classmethod
    def with_name_scope(cls, method: Callable) -> Callable:
        """Decorate a method so that it runs inside the module's ``name_scope``.

        >>> import minitape as tf
        >>> class Lazy(tf.Module):
        ...     @tf.Module.with_name_scope
        ...     def __call__(self, x):
        ...         if not hasattr(self, "w"):
        ...             self.w = tf.Variable(tf.ones([x.shape[1], 3]))
        ...         return tf.matmul(x, self.w)
        >>> lazy = Lazy()
        >>> lazy(tf.ones([1, 2])).shape.as_list(), lazy.w.name
        ([1, 3], 'lazy/Variable:0')
        """
        @functools.wraps(method)
        def method_with_name_scope(self: Module, *args: Any, **kwargs: Any) -> Any:
            with self.name_scope:
                return method(self, *args, **kwargs)
        return method_with_name_scope


def _walk(module: Module, predicate: Callable[[Any], bool], seen: set[int]) -> Iterator[Any]:
    """TF's order: this module's leaves first (attributes by name), then each new sub-module's, in the order met.

    ``seen`` holds every object met, so each is reported once and a module holding its own
    ancestor does not walk it again.
    """
    submodules = []
    for key in sorted(vars(module)):
        for leaf in nest.flatten(vars(module)[key]):
            if id(leaf) in seen:
                continue
            seen.add(id(leaf))
            if predicate(leaf):
                yield leaf
            if isinstance(leaf, Module):
                submodules.append(leaf)
    for submodule in submodules:
        yield from _walk(submodule, predicate, seen)
