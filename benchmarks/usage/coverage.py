"""Which of the names teaching code uses minitape has: the share of use sites, and the to-do list.

    python benchmarks/usage/coverage.py            # print the figures
    python benchmarks/usage/coverage.py --write    # and rewrite benchmarks/usage/REPORT.md

No network and no TensorFlow: it reads the committed `usage_counts.csv` (from count_usage.py) and
asks this checkout's minitape. `tf.<path>` is present when `minitape.<path>` resolves attribute by
attribute, `keras.<path>` when `minitape.keras.<path>` does. A name present is not yet a behaviour
right: this measures breadth, the corpus and the held-out programs judge behaviour.

    >>> namespace_of("tf.math.reduce_sum", {"tf.math": "module"})
    'tf.math'
    >>> namespace_of("tf.constant", {})
    'tf'
"""
from __future__ import annotations

import argparse
import csv
import os
import sys
from collections import defaultdict
from dataclasses import dataclass

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
COMMAND = "python benchmarks/usage/coverage.py --write"

# What needs a download, a file format of TF's own runtime, or an accelerator runtime: left out
# of the "excluding" figure, each with why.
EXCLUDED_NAMESPACES = {
    "tf.compat": "TF 1's API (tf.compat.v1 sessions, placeholders): not the eager dialect",
    "tf.distribute": "multi-device / multi-worker strategies: an accelerator runtime",
    "tf.tpu": "TPU runtime", "tf.dtensor": "distributed tensors: accelerator mesh runtime",
    "tf.xla": "XLA compiler runtime",
    "keras.distribution": "Keras 3's device-mesh distribution: accelerator runtime",
    "keras.mixed_precision": "float16 policies: meaningful on an accelerator only",
    "tf.lite": "TFLite converter and interpreter: a deployment runtime",
    "tf.saved_model": "SavedModel: TF's graph serialisation format",
    "keras.export": "SavedModel / TFLite export",
    "tf.io": "files and TFRecord protos (tf.io.gfile, read_file, parse_example)",
    "tf.summary": "TensorBoard event files", "tf.profiler": "TF's profiler runtime",
    "keras.datasets": "downloads data sets", "keras.applications": "downloads pretrained weights",
}
EXCLUDED_NAMES = {
    "keras.utils.get_file": "downloads",
    "keras.utils.image_dataset_from_directory": "reads a downloaded directory tree",
    "keras.utils.text_dataset_from_directory": "reads a downloaded directory tree",
    "keras.utils.audio_dataset_from_directory": "reads a downloaded directory tree",
    "keras.preprocessing.image_dataset_from_directory": "reads a downloaded directory tree",
    "keras.preprocessing.text_dataset_from_directory": "reads a downloaded directory tree",
}


@dataclass(frozen=True)
class Use:
    name: str
    kind: str
    total: int
    by_source: dict[str, int]


def load_counts(path: str = os.path.join(HERE, "usage_counts.csv")) -> tuple[list[Use], list[str]]:
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    sources = [k for k in rows[0] if k not in ("name", "kind", "total")] if rows else []
    return [Use(r["name"], r["kind"], int(r["total"]), {s: int(r[s]) for s in sources})
            for r in rows], sources


def load_kinds(path: str = os.path.join(HERE, "tf_names.tsv")) -> dict[str, str]:
    with open(path) as f:
        return dict(line.rstrip("\n").split("\t") for line in f if not line.startswith("#"))


def namespace_of(name: str, kinds: dict[str, str]) -> str:
    """`tf` or `keras` for a top-level name, else the first submodule (`keras.optimizers`).

    A module counted whole (`tf.compat`, whose members are not recorded) is its own namespace.
    """
    parts = name.split(".")
    head = ".".join(parts[:2])
    return head if len(parts) > 1 and kinds.get(head) == "module" else parts[0]


def excluded(name: str, namespace: str) -> str | None:
    """Why a name is left out of the "excluding" figure, or None."""
    return EXCLUDED_NAMES.get(name) or EXCLUDED_NAMESPACES.get(namespace)


def minitape_has(name: str, package: object) -> bool:
    """Whether `minitape.<path>` (for tf.<path>) or `minitape.keras.<path>` resolves."""
    root, *path = name.split(".")
    obj = package if root == "tf" else getattr(package, "keras", None)
    for attr in path:
        try:
            obj = getattr(obj, attr)
        except Exception:  # an attribute that raises on access is not usable: not present
            return False
    return True            # even when it is None: tf.newaxis is None, in TF as here


def share(uses: list[Use], present: dict[str, bool], source: str | None = None) -> tuple[int, int]:
    def count(u: Use) -> int:
        return u.total if source is None else u.by_source[source]
    return sum(count(u) for u in uses if present[u.name]), sum(count(u) for u in uses)


def pct(hit: int, total: int) -> str:
    return f"{100 * hit / total:.1f}%" if total else "-"


def report(uses: list[Use], sources: list[str], kinds: dict[str, str], package: object,
           top: int) -> str:
    present = {u.name: minitape_has(u.name, package) for u in uses}
    space = {u.name: namespace_of(u.name, kinds) for u in uses}
    kept = [u for u in uses if not excluded(u.name, space[u.name])]
    lines = ["| | use sites | names | covered (use sites) | names present |", "|---|---|---|---|---|"]
    for label, group in (("all names", uses), ("excluding downloads/accelerators", kept)):
        hit, total = share(group, present)
        lines.append(f"| {label} | {total} | {len(group)} | **{pct(hit, total)}** | "
                     f"{sum(present[u.name] for u in group)} |")
    lines += ["", "By source (excluding downloads/accelerators):", "",
              "| source | use sites | covered |", "|---|---|---|"]
    for source in sources:
        hit, total = share(kept, present, source)
        lines.append(f"| {source} | {total} | {pct(hit, total)} |")
    by_space: dict[str, list[Use]] = defaultdict(list)
    for u in uses:
        by_space[space[u.name]].append(u)
    lines += ["", "By namespace (most used first):", "",
              "| namespace | use sites | covered | names | names present | excluded because |",
              "|---|---|---|---|---|---|"]
    for ns, group in sorted(by_space.items(), key=lambda kv: -sum(u.total for u in kv[1])):
        hit, total = share(group, present)
        why = EXCLUDED_NAMESPACES.get(ns, "")
        lines.append(f"| `{ns}` | {total} | {pct(hit, total)} | {len(group)} | "
                     f"{sum(present[u.name] for u in group)} | {why} |")
    missing = [u for u in kept if not present[u.name]]
    lines += ["", f"Missing names, most used first ({len(missing)} in all, the top {top}; "
              "excluding downloads/accelerators):", "",
              "| # | name | kind | use sites | " + " | ".join(sources) + " |",
              "|---|---|---|---|" + "---|" * len(sources)]
    for rank, u in enumerate(missing[:top], 1):
        lines.append(f"| {rank} | `{u.name}` | {u.kind} | {u.total} | "
                     + " | ".join(str(u.by_source[s]) for s in sources) + " |")
    return "\n".join(lines)


PREAMBLE = """# Usage coverage: the names teaching code uses, and which minitape has

Made by `{command}` (no network, no TensorFlow; it reads `usage_counts.csv`, which
`count_usage.py` made from the sources and commits listed in `usage_sources.json`). A use site is one
attribute chain or one use of an imported name, counted as the longest prefix TF 2.21 / Keras 3 has
(`tf_names.tsv`, recorded by `record_tf_names.py`); `tf.keras.X` counts as `keras.X`. A name is
covered when `minitape.<path>` (for `tf.<path>`) or `minitape.keras.<path>` (for `keras.<path>`)
resolves. The tables below are this checkout's figures, rewritten at each run with `--write`.

Excluded from the second figure, as needing a download, a file format of TF's own runtime or an
accelerator runtime:

{excluded}
- the names {names}.

**Before** (main at 568452e, when issue #24's work began): 68.8% of 10,209 use sites (686 names),
**76.0%** of 9,245 leaving out the namespaces above; by source d2l 94.8%, keras.io 82.3%, DLwP 2nd
75.4%, TF docs 73.3%, handson 72.4%, DLwP 3rd 61.2%. The issue's earlier count (77.9%, 9,564 use
sites of 713 names) differs by method: here a use site counts as the longest name TF has, class
members reached through the class included (`tf.data.Dataset.from_tensor_slices`, not
`tf.data.Dataset`), a value bound to a variable is counted where it is bound, not at each later
use of the variable, `tf.compat` counts (and is excluded, with `tf.io`, `tf.summary` and the
others above), and the keras.io guides are a Dec 2022 fork's tf.keras-era versions
(`usage_sources.json` says why).

Not counted: names reached through instances (`model.fit`, `ds.batch`), string identifiers
(`loss="binary_crossentropy"`, `activation="relu"`), and `tensorflow_datasets`/`keras_hub`.

"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--write", action="store_true", help="rewrite REPORT.md")
    parser.add_argument("--top", type=int, default=100, help="missing names to list")
    args = parser.parse_args()
    sys.path.insert(0, ROOT)
    import minitape

    uses, sources = load_counts()
    body = report(uses, sources, load_kinds(), minitape, args.top)
    print(body)
    if args.write:
        excluded_text = "\n".join(f"- `{ns}`: {why}" for ns, why in EXCLUDED_NAMESPACES.items())
        names_text = ", ".join(f"`{n}`" for n in EXCLUDED_NAMES)
        with open(os.path.join(HERE, "REPORT.md"), "w") as f:
            f.write(PREAMBLE.format(command=COMMAND, excluded=excluded_text, names=names_text))
            f.write(body + "\n")


if __name__ == "__main__":
    main()
