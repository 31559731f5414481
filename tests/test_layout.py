"""The layout the code promises: layers that import only downward, short modules, a light import.

Every ``import`` in minitape's modules counts, those inside functions too: an
import that runs late still makes the two modules prerequisites of each other.
"""
import ast
import re
import pathlib
import subprocess
import sys

import pytest

PACKAGE = pathlib.Path(__file__).resolve().parent.parent / "minitape"
LONGEST = 400


def module_name(path: pathlib.Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def imported_modules(name: str) -> set[str]:
    """The minitape modules ``name`` imports, anywhere in its text (``from a import b`` names a.b if it is one).

    Importing ``a.b`` runs the package ``a`` first, for every package: that is Python's
    doing, not a dependency of ours, so only the modules named count.
    """
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    package = name if MODULES[name].name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
            submodules = {f"{base}.{alias.name}" for alias in node.names} & set(MODULES)
            found.update(submodules)
            if len(submodules) < len(node.names):
                found.add(base)          # names defined in ``base`` itself
    return {m for m in found if m in MODULES and m != name}


GRAPH = {name: imported_modules(name) for name in MODULES}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle in ``graph`` as a list of modules, or None (iterative depth-first search)."""
    state: dict[str, int] = {}            # 1: on the current path, 2: done
    for root in graph:
        if root in state:
            continue
        path, stack = [], [(root, iter(sorted(graph[root])))]
        state[root] = 1
        path.append(root)
        while stack:
            node, children = stack[-1]
            child = next(children, None)
            if child is None:
                stack.pop()
                path.pop()
                state[node] = 2
            elif state.get(child) == 1:
                return path[path.index(child):] + [child]
            elif child not in state:
                state[child] = 1
                path.append(child)
                stack.append((child, iter(sorted(graph[child]))))
    return None


def test_the_cycle_finder_finds_cycles():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_no_module_imports_itself_back():
    # The package's own __init__ gathers the public names: it sits on top, and nothing may import it.
    inside = {name: deps - {"minitape"} for name, deps in GRAPH.items() if name != "minitape"}
    importers = [name for name, deps in GRAPH.items() if "minitape" in deps and name != "minitape"]
    assert importers == [], f"these modules import the top-level package: {importers}"
    assert find_cycle(inside) is None, " -> ".join(find_cycle(inside))


#: The packages, bottom up: each may import only those before it.  The first four are the
#: kernel, the autodiff a student reads; the rest are built around it.
LAYERS = ["core", "ops", "autodiff", "checkpointing", "dialect", "course", "viz", "keras"]
KERNEL = LAYERS[:4]


def layer_of(module: str) -> str:
    return module.split(".")[1]


def test_the_package_holds_only_packages():
    loose = sorted(p.name for p in PACKAGE.glob("*.py") if p.name != "__init__.py")
    assert loose == [], f"minitape/ holds __init__.py and packages only; move {loose} into the package they belong to"
    packages = sorted(p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists())
    assert packages == sorted(LAYERS), f"every package has its place in LAYERS: {packages}"


@pytest.mark.parametrize("layer", LAYERS)
def test_layers_import_only_downward(layer):
    below = set(LAYERS[:LAYERS.index(layer) + 1])
    upward = sorted((name, dep) for name, deps in GRAPH.items() if name != "minitape" and layer_of(name) == layer
                    for dep in deps if dep != "minitape" and layer_of(dep) not in below)
    assert upward == [], f"minitape.{layer} may import only {sorted(below)}: {upward}"


def test_no_module_is_longer_than_a_sitting():
    long = {name: n for name, path in MODULES.items() if (n := len(path.read_text().splitlines())) > LONGEST}
    assert long == {}, f"modules over {LONGEST} lines: {long}"


def test_import_loads_no_display_library():
    code = ("import sys, minitape as tf; "
            "print(sorted(m for m in ('pygraphviz', 'IPython', 'ipywidgets') if m in sys.modules)); "
            "x = tf.constant(1.0)\n"
            "with tf.GradientTape() as tape:\n tape.watch(x); y = tf.sin(x)\n"
            "tape.picture().to_svg(); print('pygraphviz' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["[]", "True"], out


def test_the_readme_maps_every_module():
    readme = (PACKAGE.parent / "README.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"`(minitape/[\w/]+\.py)`", readme))
    modules = {str(path.relative_to(PACKAGE.parent)) for path in MODULES.values()}
    inits = {m for m in modules if m.endswith("__init__.py")}
    assert sorted(listed - modules) == [], "the README's module map names modules that do not exist"
    assert sorted(modules - inits - listed) == [], "the README's module map must list every module"
