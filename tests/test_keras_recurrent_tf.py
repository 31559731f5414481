"""The recurrent layers (SimpleRNN, GRU, LSTM, RNN with a cell, Bidirectional, TimeDistributed, Embedding masks)
against TensorFlow 2.21's Keras (3.15), from tests/data/tf_recurrent.json (written by tests/record_tf_recurrent.py):
outputs, gradients and weight names on fixed weights, summary counts, and two epochs of fit."""
import json

import pytest

import record_tf_recurrent as spec
from recorded_keras import minitape_runs, same

RECORDED = json.loads(spec.OUT.read_text())
ours = minitape_runs(spec)


@pytest.mark.parametrize("case,key", [(case, key) for case in spec.CASES for key in RECORDED[case]])
def test_matches_keras(case, key):
    assert same(ours(case)[key], RECORDED[case][key], tol=2e-5), (ours(case)[key], RECORDED[case][key])
