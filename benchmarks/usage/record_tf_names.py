"""Record TF 2.21's and Keras 3's public names once, for count_usage.py to keep only real names.

Run with the TensorFlow venv (never by the test suite):

    /tmp/tfvenv/bin/python benchmarks/usage/record_tf_names.py

Walks `dir()` of `tf` and `keras` recursively through their public API modules and writes
`tf_names.tsv`: one `name<TAB>kind` a line, kind one of module, class, function, value, and
`member` for a class's static/class methods and class-level constants (`tf.data.Dataset.range`,
`tf.data.Dataset.from_tensor_slices`), the members code reaches through the class itself.
`tf.keras.X` is written as `keras.X` (Keras 3 is `tf.keras` in TF 2.21); `tf.compat` (the TF 1 API)
is recorded as a module but not walked.
"""
from __future__ import annotations

import inspect
import os
import sys
import types

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import keras  # noqa: E402
import tensorflow as tf  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
NOT_WALKED = {"tf.compat", "tf.keras", "keras.src", "keras._tf_keras"}
MAX_DEPTH = 6


def kind_of(obj: object) -> str:
    if isinstance(obj, types.ModuleType):
        return "module"
    if inspect.isclass(obj):
        return "class"
    if callable(obj):
        return "function"
    return "value"


def class_members(cls: type) -> list[str]:
    """The members used through the class: static/class methods and plain class-level values."""
    found = []
    for name in dir(cls):
        if name.startswith("_"):
            continue
        try:
            raw = inspect.getattr_static(cls, name)
        except AttributeError:
            continue
        if any(name in vars(base) for base in (object, type, int, float, str, tuple, dict, list)):
            continue
        if isinstance(raw, (staticmethod, classmethod)) or not (
            callable(raw) or hasattr(raw, "__get__")
        ):
            found.append(name)
    return found


def public_module(obj: types.ModuleType) -> bool:
    name = getattr(obj, "__name__", "")
    return (name.startswith(("tensorflow._api", "keras")) and ".src" not in name)


def walk(root: object, prefix: str, names: dict[str, str]) -> None:
    stack = [(root, prefix, 0)]
    while stack:
        module, path, depth = stack.pop()
        for attr in dir(module):
            if attr.startswith("_"):
                continue
            try:
                obj = getattr(module, attr)
            except Exception:  # lazy loaders that fail on import: not usable, not recorded
                continue
            full = f"{path}.{attr}"
            kind = kind_of(obj)
            if kind == "module" and not public_module(obj):
                continue
            names.setdefault(full, kind)
            if kind == "module" and full not in NOT_WALKED and depth < MAX_DEPTH:
                stack.append((obj, full, depth + 1))
            elif kind == "class":
                for member in class_members(obj):
                    names.setdefault(f"{full}.{member}", "member")


def main() -> None:
    names: dict[str, str] = {}
    walk(tf, "tf", names)
    walk(keras, "keras", names)
    walk(tf.keras, "keras", names)  # tf.keras == keras: add any name only the tf.keras view has
    out = os.path.join(HERE, "tf_names.tsv")
    with open(out, "w") as f:
        f.write(f"# TF {tf.__version__}, Keras {keras.__version__}: public names "
                f"(benchmarks/usage/record_tf_names.py)\n")
        for name in sorted(names):
            f.write(f"{name}\t{names[name]}\n")
    print(f"{len(names)} names -> {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
