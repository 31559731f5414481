"""What teaching programs do with Keras that went wrong silently, against TensorFlow 2.21's Keras (3.15), from
tests/data/tf_keras_behaviour.json (written by tests/record_tf_keras_behaviour.py): custom ``train_step``,
``add_loss`` as the only loss, a metric's ``add_weight`` attributes, ``fit``'s data arguments, tensor formatting."""
import json
import warnings

import pytest

import record_tf_keras_behaviour as spec
from recorded_keras import minitape_runs, same

RECORDED = json.loads(spec.OUT.read_text())
ours = minitape_runs(spec)


@pytest.mark.parametrize("case,key", [(case, key) for case in spec.CASES for key in RECORDED[case]])
def test_matches_keras(case, key):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = ours(case)[key]
    assert same(got, RECORDED[case][key], tol=1e-5), (got, RECORDED[case][key])
