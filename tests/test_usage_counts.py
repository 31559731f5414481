"""The usage count (benchmarks/usage): the committed counts parse, and the coverage step runs offline.

count_usage.py needs the source mirrors and is run by hand; what it decides (aliases, use sites,
TF's names) is tested here on small code, and coverage.py is run on the committed counts.
"""
import doctest
import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

USAGE = Path(__file__).parent.parent / "benchmarks" / "usage"


def load(name: str, filename: str):
    """Import a script by path (`coverage` would otherwise be coverage.py, the package)."""
    spec = importlib.util.spec_from_file_location(name, USAGE / filename)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


count_usage = load("usage_count_usage", "count_usage.py")
usage_coverage = load("usage_coverage", "coverage.py")


def test_committed_counts_parse_and_name_only_tf_names():
    uses, sources = usage_coverage.load_counts()
    names = count_usage.load_names()
    assert sources == [s.key for s in count_usage.SOURCES]
    assert sum(u.total for u in uses) > 5000
    for use in uses:
        assert use.name in names and use.kind == names[use.name]
        assert use.total == sum(use.by_source.values()) > 0
    totals = {u.name: u.total for u in uses}
    assert totals["keras.layers.Dense"] > totals["keras.layers.Conv2D"] > 0


def test_aliases_resolve_to_canonical_names_and_count_use_sites():
    names = {"tf.constant": "function", "keras.layers.Dense": "class", "keras.layers": "module",
             "keras.optimizers.Adam": "class", "tf.data": "module", "tf.data.AUTOTUNE": "value",
             "tf.math": "module"}
    units = ["import tensorflow as tf\nfrom tensorflow.keras import layers\n"
             "from keras.layers import Dense as D\nL = tf.keras.layers",
             "%matplotlib inline\nx = tf.constant(1.0).numpy()\nlayers.Dense(3)\nD(2)\nL.Dense(1)\n"
             "tf.keras.optimizers.Adam()\nAUTOTUNE = tf.data.AUTOTUNE\nf(AUTOTUNE)\ntf.math.nope(1)\n"
             "D = None"]
    counts, fallbacks = count_usage.count_file(units, names)
    assert fallbacks == 0
    assert counts == {"tf.constant": 1, "keras.layers.Dense": 3, "keras.optimizers.Adam": 1,
                      "tf.data.AUTOTUNE": 1}


def test_d2l_cells_are_the_tensorflow_tab_only():
    text = ("```{.python .input}\n%%tab pytorch\nimport torch\n```\n"
            "```{.python .input  n=2}\n%%tab tensorflow\nimport tensorflow as tf\n```\n"
            "```{.python .input}\n#@tab pytorch, tensorflow\nx = 1\n```\n")
    assert count_usage.d2l_cells(text) == ["import tensorflow as tf\n", "x = 1\n"]


def test_a_name_is_present_when_minitape_resolves_it():
    import minitape

    assert usage_coverage.minitape_has("tf.constant", minitape)
    assert usage_coverage.minitape_has("keras.layers.Dense", minitape)
    assert not usage_coverage.minitape_has("tf.no_such_name", minitape)
    assert usage_coverage.excluded("keras.utils.get_file", "keras.utils")
    assert usage_coverage.excluded("tf.compat", "tf.compat")


@pytest.mark.parametrize("module", [count_usage, usage_coverage])
def test_docstring_examples(module):
    assert doctest.testmod(module).failed == 0


def test_coverage_script_reports_a_share_offline():
    result = subprocess.run([sys.executable, str(USAGE / "coverage.py"), "--top", "3"],
                            capture_output=True, text=True, check=True)
    row = re.search(r"\| excluding downloads/accelerators \| (\d+) \| (\d+) \| \*\*([\d.]+)%",
                    result.stdout)
    assert row, result.stdout[:500]
    assert 0 < float(row.group(3)) <= 100
    assert result.stdout.count("\n| 3 | `") == 1  # the third missing name
