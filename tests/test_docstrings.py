"""Every public function, class, method and property shows how it is used in a ``>>>`` example.

The examples run as doctests (``pytest --doctest-modules``, see pyproject.toml), and the API
reference shows them; this test makes sure none is missing.  The public surface is what a
reader reaches from ``import minitape as tf``: the public names of the namespaces below,
and the public methods and properties of every class among them, inherited ones included
when a minitape class defines them.  Names that other libraries define (re-exported
``typing`` or NumPy objects) are theirs to document.
"""
from __future__ import annotations

import doctest
import functools
import inspect
import types
from typing import Any

import minitape

NAMESPACES = (
    "", "nn", "math", "linalg", "random", "events", "keras", "keras.layers", "keras.activations",
    "keras.initializers", "keras.regularizers", "keras.constraints", "dialect.init_ops", "keras.losses", "keras.optimizers", "keras.models", "keras.metrics", "keras.callbacks",
    "keras.utils", "keras.trainer", "config", "keras.ops", "keras.ops.linalg", "keras.backend", "keras.random",
    "keras.config", "course.gradcheck", "course.exercises", "course.budgets", "course.grading",
    "viz", "backends", "dtypes", "nest", "errors", "data", "data.experimental", "bitwise",
)
PARSER = doctest.DocTestParser()


def public_names(module: Any) -> list[str]:
    """A namespace's ``__all__`` if it has one, else its names without a leading underscore."""
    names = getattr(module, "__all__", None)
    return list(names) if names is not None else [name for name in dir(module) if not name.startswith("_")]


def unwrap(attribute: Any) -> Any:
    """The function behind a property, classmethod or staticmethod (its docstring is the one shown)."""
    if isinstance(attribute, classmethod | staticmethod):
        return attribute.__func__
    if isinstance(attribute, property):
        return attribute.fget
    if isinstance(attribute, functools.cached_property):
        return attribute.func
    return attribute


def public_surface(root: Any = minitape, namespaces: tuple[str, ...] = NAMESPACES,
                   package: str = "minitape") -> dict[str, Any]:
    """Public name -> object, each object once (under the first name that reaches it).

    Only functions and classes whose ``__module__`` is in ``package`` count, and, for each
    such class, the public methods and properties that its attributes find, on it or on a
    base class that ``package`` defines (dunder and private names excluded).
    """
    def ours(obj: Any) -> bool:
        module = getattr(obj, "__module__", None)
        return isinstance(module, str) and (module == package or module.startswith(package + "."))

    def countable(obj: Any) -> bool:
        return (inspect.isroutine(obj) or inspect.isclass(obj)) and ours(obj)

    found: dict[int, tuple[str, Any]] = {}
    classes: list[tuple[str, type]] = []
    for path in namespaces:
        module = functools.reduce(getattr, path.split(".") if path else [], root)
        prefix = ".".join(filter(None, [root.__name__, path]))
        for name in public_names(module):
            obj = getattr(module, name)
            if countable(obj) and id(obj) not in found:
                found[id(obj)] = (f"{prefix}.{name}", obj)
                if inspect.isclass(obj):
                    classes.append((f"{prefix}.{name}", obj))
    while classes:
        qualified, cls = classes.pop(0)
        for name in dir(cls):
            owner = next((base for base in cls.__mro__ if name in vars(base)), None)    # what cls.name finds
            if name.startswith("_") or owner is None or not ours(owner):
                continue
            obj = unwrap(vars(owner)[name])
            if countable(obj) and id(obj) not in found:
                found[id(obj)] = (f"{qualified}.{name}", obj)
                if inspect.isclass(obj):
                    classes.append((f"{qualified}.{name}", obj))
    return {name: obj for name, obj in found.values()}


def has_example(obj: Any) -> bool:
    """Whether ``obj``'s own docstring (a class's is not inherited) holds a ``>>>`` example."""
    doc = vars(obj).get("__doc__") if inspect.isclass(obj) else getattr(obj, "__doc__", None)
    return bool(doc) and bool(PARSER.get_examples(doc))


def defined_at(obj: Any) -> str:
    """Where ``obj`` is written: ``module.Class.method``."""
    return f"{obj.__module__}.{obj.__qualname__}"


def missing_examples(surface: dict[str, Any]) -> list[str]:
    """``defined_at (public name)`` for each object of ``surface`` without an example, sorted."""
    return sorted(f"{defined_at(obj)}  (as {name})" if defined_at(obj) != name else name
                  for name, obj in surface.items() if not has_example(obj))


SURFACE = public_surface()


def test_the_surface_is_the_whole_api():
    # So that the test below cannot pass by finding nothing.
    assert len(SURFACE) > 200, sorted(SURFACE)
    for name in ["minitape.GradientTape.jacobian", "minitape.Tensor.numpy", "minitape.keras.layers.Dense.call",
                 "minitape.viz.Player.to_html", "minitape.nest.flatten", "minitape.random.set_seed"]:
        assert name in SURFACE, name
    assert not any(name.split(".")[-1].startswith("_") for name in SURFACE)


def test_every_public_callable_has_an_example():
    missing = missing_examples(SURFACE)
    assert missing == [], (f"{len(missing)} of {len(SURFACE)} public functions, classes, methods and properties "
                           f"have no '>>>' example in their docstring:\n  " + "\n  ".join(missing))


def test_the_walker_flags_what_has_no_example():
    fake = types.ModuleType("fake")

    def documented():
        """Has one.

        >>> documented()
        """

    def bare():
        """Says what it does, shows nothing."""

    class Base:
        """A base.

        >>> Base()
        <...>
        """

        def inherited(self):
            """No example."""

        def __call__(self):
            """Dunders are not counted."""

        def _private(self):
            """Neither are private methods."""

        def replaced(self):
            """Not reached through ``Child``, which has its own."""

    class Child(Base):
        def replaced(self):
            """Its own.

            >>> Child().replaced()
            """

        @property
        def size(self):
            return 0

    here = f"{__name__}.test_the_walker_flags_what_has_no_example.<locals>"
    fake.documented, fake.bare, fake.Child, fake._hidden = documented, bare, Child, bare
    fake.partial, fake.inspect = functools.partial, inspect        # not defined here: not counted
    surface = public_surface(fake, ("",), package=__name__)
    assert sorted(surface) == ["fake.Child", "fake.Child.inherited", "fake.Child.replaced", "fake.Child.size",
                              "fake.bare", "fake.documented"]
    assert missing_examples(surface) == [
        f"{here}.Base.inherited  (as fake.Child.inherited)",
        f"{here}.Child  (as fake.Child)",
        f"{here}.Child.size  (as fake.Child.size)",
        f"{here}.bare  (as fake.bare)",
    ]
