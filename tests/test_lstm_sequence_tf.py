"""Keras' LSTM where minitape runs it as one ``lstm_sequence`` op, against TensorFlow 2.21's Keras, from
tests/data/tf_lstm_sequence.json (written by tests/record_tf_lstm_sequence.py): float64 and mixed dtypes,
options the recurrent recording leaves out, a functional model of unknown length, fit without a mask, a
gradient of a gradient, a Jacobian, and the refusals of bad inputs and initial states."""
import json

import pytest

import record_tf_lstm_sequence as spec
from recorded_keras import minitape_runs, same

RECORDED = json.loads(spec.OUT.read_text())
ours = minitape_runs(spec)
ANSWERS = [(case, key) for case in spec.CASES if case != "refusals" for key in RECORDED[case]]


@pytest.mark.parametrize("case,key", ANSWERS)
def test_matches_keras(case, key):
    assert same(ours(case)[key], RECORDED[case][key], tol=2e-5), (ours(case)[key], RECORDED[case][key])


# What minitape's message names, where TF's names a kernel (MatMul, StridedSlice) and not what to do.
NAMED = {"rank_two": "expected ndim=3", "rank_four": "expected ndim=3, found ndim=4", "features_changed": "matmul",
         "state_units": "lstm_sequence: h must have shape [batch, units], here [2, 3]; got [2, 4]",
         "no_steps": "no time steps (shape (2, 0, 3)): give it at least one step"}


@pytest.mark.parametrize("key", RECORDED["refusals"])
def test_refuses_what_keras_refuses_with_the_same_type(key):
    mine, theirs = ours("refusals")[key], RECORDED["refusals"][key]
    assert mine.keys() == theirs.keys() and mine.get("shapes") == theirs.get("shapes"), (mine, theirs)
    assert mine.get("raises") == theirs.get("raises"), (mine, theirs)
    assert NAMED.get(key, "") in mine.get("message", ""), mine
