"""Labels one rank from the predictions, against TensorFlow 2.21's Keras (3.15): ``(n,)`` labels with a model's
``(n, 1)`` output must not broadcast to ``(n, n)``, in any loss, metric or ``fit``.

The figures are in tests/data/tf_keras_ranks.json, written by tests/record_tf_keras_ranks.py from the same cases.
"""
import json

import pytest

import record_tf_keras_ranks as spec
from recorded_keras import minitape_runs, same

RECORDED = json.loads(spec.OUT.read_text())
ours = minitape_runs(spec)


@pytest.mark.parametrize("case,key", [(case, key) for case in spec.CASES for key in RECORDED[case]])
def test_matches_keras(case, key):
    assert same(ours(case)[key], RECORDED[case][key], tol=1e-5), (ours(case)[key], RECORDED[case][key])
