"""Record TensorFlow 2.21's signatures for minitape's public names, for tests/test_signatures.py (run by hand).

    /tmp/tfvenv/bin/python tests/record_tf_signatures.py      # writes tests/data/tf_signatures.json

minitape does not import in TF's venv, so the names are listed by minitape's own Python
(``MINITAPE_PYTHON``, by default ``/work/main/.venv/bin/python``) run on this checkout: every public
callable of ``minitape``, ``minitape.math``, ``.nn``, ``.linalg`` and ``.random`` (Keras is not
covered here).  For each one TF also has, the parameters of ``inspect.signature`` are recorded in
order, each as ``[name, kind]`` (a class made through a metaclass, as ``tf.Variable``: its ``__init__``'s);
a name whose signature TF cannot give is recorded as None.
"""
from __future__ import annotations

import inspect
import json
import os
import pathlib
import subprocess

ROOT = pathlib.Path(__file__).parent.parent
OUT = ROOT / "tests" / "data" / "tf_signatures.json"
NAMESPACES = ("", "math", "nn", "linalg", "random")

LIST_MINITAPE = f"""
import json, minitape
names = {{}}
for space in {NAMESPACES!r}:
    module = minitape
    for part in filter(None, space.split(".")):
        module = getattr(module, part)
    names[space] = sorted(n for n in dir(module) if not n.startswith("_") and callable(getattr(module, n))
                          and not isinstance(getattr(module, n), type(minitape)))
print(json.dumps(names))
"""


def minitape_names() -> dict[str, list[str]]:
    python = os.environ.get("MINITAPE_PYTHON", "/work/main/.venv/bin/python")
    found = subprocess.run([python, "-c", LIST_MINITAPE], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                           capture_output=True, text=True, check=True)
    return json.loads(found.stdout)


def parameters(function) -> list[list[str]] | None:
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return None
    found = [[p.name, p.kind.name] for p in signature.parameters.values()]
    if isinstance(function, type) and [kind for _, kind in found] == ["VAR_POSITIONAL", "VAR_KEYWORD"]:
        return parameters(function.__init__)[1:]        # a metaclass's call (tf.Variable): its __init__, less self
    return found


def main() -> None:
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf
    records = {}
    for space, names in minitape_names().items():
        module = tf
        for part in filter(None, space.split(".")):
            module = getattr(module, part)
        records[space] = {name: parameters(getattr(module, name)) for name in names if hasattr(module, name)}
    OUT.write_text(json.dumps(records, indent=1, sort_keys=True) + "\n")
    print(f"wrote {OUT}: {sum(len(r) for r in records.values())} signatures")


if __name__ == "__main__":
    main()
