"""Count every `tf.*` and `keras.*` name public teaching code uses, by use site.

    python benchmarks/usage/count_usage.py [--mirrors /work/.mirror]

Reads each source repository from a local git mirror (the commits below, with `git ls-tree` and
`git cat-file`, no work tree), takes its code (d2l's `%%tab tensorflow` cells in .md files, notebooks'
code cells, .py files), resolves import aliases to canonical TF 2.21 names (`tf.keras.X` is
`keras.X`), keeps the names TF 2.21 or Keras 3 has (`tf_names.tsv`, from `record_tf_names.py`) and
writes `usage_counts.csv` (name, kind, total, one column a source) and `usage_sources.json` (what
was read). A use site is one maximal attribute chain (`tf.data.Dataset.from_tensor_slices`) or one
bare use of an imported name (`Dense` after `from keras.layers import Dense`), counted as the
longest prefix TF has: `tf.constant([1.0]).numpy` counts `tf.constant` once.

    >>> sorted(resolve_chain("tf.keras.layers.Dense.units", {"keras.layers.Dense": "class"}))
    ['keras.layers.Dense']
"""
from __future__ import annotations

import argparse
import ast
import csv
import json
import os
import re
import subprocess
from collections import Counter
from dataclasses import dataclass

HERE = os.path.dirname(os.path.abspath(__file__))
UNWALKED = {"tf.compat"}  # TF 1's API: recorded as one name, its members not listed


@dataclass(frozen=True)
class Source:
    key: str
    repo: str
    commit: str
    pattern: str  # a regex the path must match
    kind: str  # "d2l-md", "ipynb" or "py"
    note: str = ""


SOURCES = [
    Source("d2l", "d2l-ai/d2l-en", "23d7a5aecceee57d1292c56e90cce307f183bb0a",
           r"^chapter_[^/]+/[^/]+\.md$", "d2l-md", "cells whose %%tab / #@tab line names tensorflow"),
    Source("tfdocs", "tensorflow/docs", "7c3650212740204359d4ceae481abc79345541be",
           r"^site/en/(guide|tutorials)/.*\.ipynb$", "ipynb"),
    Source("handson", "ageron/handson-ml3", "e3f3f9e66d58cfa1d068a498433063a1d3fba9ef",
           r"^1[0-6]_[^/]+\.ipynb$", "ipynb", "chapters 10-16"),
    Source("dlwp2", "fchollet/deep-learning-with-python-notebooks",
           "dea84a4e12cc3bb3cb61ce952a0168bca113d315", r"^second_edition/chapter.*\.ipynb$", "ipynb"),
    Source("dlwp3", "fchollet/deep-learning-with-python-notebooks",
           "dea84a4e12cc3bb3cb61ce952a0168bca113d315", r"^chapter[^/]*\.ipynb$", "ipynb",
           "3rd edition: the notebooks at the repository's top level"),
    Source("kerasio", "Md557/keras-io", "98dedbd308954a2e4d12ae7de97eaa648b22723d",
           r"^guides/[a-z][^/]*\.py$", "py",
           "a fork at Dec 2022 (tf.keras-era guides): keras-team/keras-io's snapshot (938 MB) and "
           "its Keras 3-era forks (548-567 MB) are over the fetch tool's 500 MB limit"),
]


# ----- names TF has -----------------------------------------------------------------------------

def load_names(path: str = os.path.join(HERE, "tf_names.tsv")) -> dict[str, str]:
    """name -> kind, as record_tf_names.py wrote them."""
    with open(path) as f:
        return dict(line.rstrip("\n").split("\t") for line in f if not line.startswith("#"))


def canonical_module(module: str) -> str | None:
    """`tensorflow.keras.layers` -> `keras.layers`; None for what is not TF's public API."""
    parts = module.split(".")
    if parts[0] == "tensorflow":
        parts[0] = "tf"
    elif parts[0] == "tf_keras":
        parts[0] = "keras"
    elif parts[0] not in ("tf", "keras"):
        return None
    if parts[0] == "tf" and parts[1:2] == ["keras"]:
        parts = parts[1:]
    if len(parts) > 1 and parts[1] in ("python", "src", "_api", "core"):
        return None
    return ".".join(parts)


def resolve_chain(chain: str, names: dict[str, str]) -> list[str]:
    """The TF name a use site counts as: its longest recorded prefix (none for a bare module)."""
    canonical = canonical_module(chain)
    if canonical is None:
        return []
    parts = canonical.split(".")
    for end in range(len(parts), 1, -1):
        prefix = ".".join(parts[:end])
        if prefix in names:
            if names[prefix] == "module" and prefix not in UNWALKED:
                return []  # a module named bare, or an attribute TF 2.21 does not have
            return [prefix]
    return []


# ----- code units -------------------------------------------------------------------------------

def d2l_cells(text: str) -> list[str]:
    """The TensorFlow cells of a d2l chapter: ```{.python .input} blocks tabbed tensorflow."""
    cells = []
    for block in re.findall(r"```\{\.python \.input[^}]*\}\n(.*?)```", text, re.S):
        first, _, body = block.partition("\n")
        if re.match(r"\s*(%%tab|#@tab)\b.*\btensorflow\b", first):
            cells.append(body)
    return cells


def notebook_cells(text: str) -> list[str]:
    cells = json.loads(text).get("cells", [])
    return ["".join(c["source"]) if isinstance(c["source"], list) else c["source"]
            for c in cells if c.get("cell_type") == "code"]


def units_of(source: Source, text: str) -> list[str]:
    if source.kind == "d2l-md":
        return d2l_cells(text)
    if source.kind == "ipynb":
        return notebook_cells(text)
    return [text]


# ----- parsing ----------------------------------------------------------------------------------

MAGIC = re.compile(r"^\s*[%!].*$|^.*\?\s*$", re.M)


def parse(code: str) -> ast.AST | None:
    for attempt in (code, MAGIC.sub("", code)):
        try:
            return ast.parse(attempt)
        except (SyntaxError, ValueError):
            continue
    return None


def dotted(node: ast.AST) -> str | None:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return ".".join([node.id, *reversed(parts)])


def import_aliases(tree: ast.AST, aliases: dict[str, str], modules: set[str] | None = None) -> None:
    """Add `local name -> canonical dotted name` for every TF/Keras import in the tree.

    A plain assignment of a module (`layers = tf.keras.layers`, with `modules` given) is an alias
    too; an assigned value (`AUTOTUNE = tf.data.AUTOTUNE`) is not: its later uses are the value's.
    """
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                target = canonical_module(a.name)
                if target is not None:
                    if a.asname:
                        aliases[a.asname] = target
                    else:
                        root = a.name.split(".")[0]
                        aliases[root] = canonical_module(root) or root
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            base = canonical_module(node.module)
            if base is not None:
                for a in node.names:
                    if a.name != "*":
                        aliases[a.asname or a.name] = f"{base}.{a.name}"
        elif (isinstance(node, ast.Assign) and len(node.targets) == 1
              and isinstance(node.targets[0], ast.Name)):
            chain = dotted(node.value)  # `layers = tf.keras.layers`: a module renamed
            root = chain.split(".")[0] if chain else None
            if root in aliases and "." in chain:
                target = canonical_module(aliases[root] + chain[len(root):])
                if modules is not None and target in modules:
                    aliases[node.targets[0].id] = target


def chains_in_tree(tree: ast.AST) -> list[str]:
    """Every maximal Name.attr.attr chain (not the inner parts of a longer one)."""
    inner: set[int] = set()
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            continue  # `Dense = ...` rebinds the name: not a use
        if isinstance(node, (ast.Attribute, ast.Name)) and id(node) not in inner:
            if isinstance(node, ast.Attribute):
                inner.add(id(node.value))
            chain = dotted(node)
            if chain:
                found.append(chain)
        if isinstance(node, ast.Attribute):
            inner.add(id(node.value))
    return found


CHAIN = re.compile(r"(?<![\w.])([A-Za-z_]\w*(?:\s*\.\s*[A-Za-z_]\w*)*)")
STRING_OR_COMMENT = re.compile(r"'''.*?'''|\"\"\".*?\"\"\"|'[^'\n]*'|\"[^\"\n]*\"|#[^\n]*", re.S)


def chains_by_regex(code: str, aliases: dict[str, str], modules: set[str]) -> list[str]:
    """The fallback for a cell `ast` cannot read: its import lines parsed alone, chains by regex."""
    for line in code.splitlines():
        if re.match(r"\s*(import|from)\s", line):
            tree = parse(line.strip())
            if tree is not None:
                import_aliases(tree, aliases, modules)
    code = STRING_OR_COMMENT.sub(" ", code)
    return [re.sub(r"\s+", "", m) for m in CHAIN.findall(code)]


def count_file(units: list[str], names: dict[str, str]) -> tuple[Counter, int]:
    """Use-site counts of one file's code units, and how many units needed the regex fallback."""
    aliases: dict[str, str] = {}
    modules = {name for name, kind in names.items() if kind == "module"}
    trees = [parse(u) for u in units]
    for tree in trees:
        if tree is not None:
            import_aliases(tree, aliases, modules)
    counts: Counter = Counter()
    fallbacks = 0
    for unit, tree in zip(units, trees):
        if tree is None:
            fallbacks += 1
            chains = chains_by_regex(unit, aliases, modules)
        else:
            chains = chains_in_tree(tree)
        for chain in chains:
            root, _, rest = chain.partition(".")
            if root in aliases:
                full = aliases[root] + ("." + rest if rest else "")
                counts.update(resolve_chain(full, names))
    return counts, fallbacks


# ----- reading the mirrors ----------------------------------------------------------------------

def git_dir(mirrors: str, repo: str) -> str | None:
    base = os.path.join(mirrors, repo.replace("/", "+"), "repo")
    for candidate in (os.path.join(base, ".git"), base):
        if os.path.isfile(os.path.join(candidate, "HEAD")):
            return candidate
    return None


def read_files(gitdir: str, commit: str, pattern: str) -> dict[str, str]:
    listing = subprocess.run(["git", "--git-dir", gitdir, "ls-tree", "-r", "--name-only", commit],
                             capture_output=True, text=True, check=True).stdout.split("\n")
    paths = sorted(p for p in listing if re.search(pattern, p))
    return {p: subprocess.run(["git", "--git-dir", gitdir, "show", f"{commit}:{p}"],
                              capture_output=True, check=True).stdout.decode("utf-8", "replace")
            for p in paths}


def count_source(source: Source, mirrors: str, names: dict[str, str]) -> tuple[Counter, dict]:
    gitdir = git_dir(mirrors, source.repo)
    meta = {"repo": source.repo, "commit": source.commit, "files": source.pattern,
            "note": source.note}
    if gitdir is None:
        return Counter(), {**meta, "status": "not fetched: no mirror"}
    total: Counter = Counter()
    n_files = n_units = n_fallback = 0
    for path, text in read_files(gitdir, source.commit, source.pattern).items():
        try:
            units = units_of(source, text)
        except (json.JSONDecodeError, KeyError):
            continue
        counts, fallbacks = count_file(units, names)
        total += counts
        n_files += bool(units)
        n_units += len(units)
        n_fallback += fallbacks
    return total, {**meta, "status": "read", "files_read": n_files, "code_units": n_units,
                   "units_by_regex": n_fallback, "use_sites": sum(total.values())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mirrors", default="/work/.mirror")
    args = parser.parse_args()
    names = load_names()
    per_source = {}
    meta = {}
    for source in SOURCES:
        per_source[source.key], meta[source.key] = count_source(source, args.mirrors, names)
        print(source.key, meta[source.key].get("status"), meta[source.key].get("use_sites"))
    keys = [s.key for s in SOURCES]
    everything = sum(per_source.values(), Counter())
    with open(os.path.join(HERE, "usage_counts.csv"), "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["name", "kind", "total", *keys])
        for name, total in sorted(everything.items(), key=lambda kv: (-kv[1], kv[0])):
            out.writerow([name, names[name], total, *(per_source[k][name] for k in keys)])
    with open(os.path.join(HERE, "usage_sources.json"), "w") as f:
        json.dump(meta, f, indent=1)
    print(f"{sum(everything.values())} use sites of {len(everything)} names")


if __name__ == "__main__":
    main()
