"""What teaching programs do with Keras that went wrong silently, against TensorFlow 2.21's Keras (3.15), from
tests/data/tf_keras_behaviour.json (written by tests/record_tf_keras_behaviour.py): custom ``train_step``,
``add_loss`` as the only loss, a metric's ``add_weight`` attributes, ``fit``'s data arguments, tensor formatting."""
import json
import warnings

import numpy as np
import pytest

import minitape as tf

import record_tf_keras_behaviour as spec
from recorded_keras import minitape_runs, same

RECORDED = json.loads(spec.OUT.read_text())
ours = minitape_runs(spec)


LAYER_CONFIGS = [key for key, value in RECORDED["configs"].items() if "keys" in value]


@pytest.mark.parametrize("case,key", [(case, key) for case in spec.CASES for key in RECORDED[case]
                                      if (case, key) not in {("configs", k) for k in LAYER_CONFIGS}])
def test_matches_keras(case, key):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = ours(case)[key]
    assert same(got, RECORDED[case][key], tol=1e-5), (got, RECORDED[case][key])


class _Recorder(tf.keras.Model):
    """A model whose train_step keeps the order of the examples it is given (x holds each example's index)."""

    def __init__(self):
        super().__init__()
        self.dense = tf.keras.layers.Dense(1)
        self.seen = []

    def call(self, x):
        return self.dense(x)

    def train_step(self, data):
        x, _ = data
        self.seen.extend(int(v) for v in x.numpy()[:, 0])
        return {}


def _orders(shuffle, seed=0, epochs=3):
    tf.keras.utils.set_random_seed(seed)
    model = _Recorder()
    model.compile(optimizer="sgd", loss="mse")
    x = np.arange(10, dtype="float32").reshape(10, 1)
    model.fit(x, x, batch_size=4, epochs=epochs, shuffle=shuffle, verbose=0)
    return [model.seen[k * 10:(k + 1) * 10] for k in range(epochs)]


def test_shuffle_is_per_epoch_and_follows_set_random_seed():
    shuffled = _orders(True)
    assert all(sorted(order) == list(range(10)) for order in shuffled)      # every example once per epoch
    assert len({tuple(order) for order in shuffled}) == 3                  # a new order each epoch
    assert shuffled == _orders(True)                                        # repeatable from the seed
    assert shuffled != _orders(True, seed=1)
    assert _orders(False) == [list(range(10))] * 3


def test_history_holds_python_floats_and_a_custom_train_step_changes_the_weights():
    history, weights = RECORDED["train_step"]["Keras3/fit"], RECORDED["train_step"]["Keras3/weights"]
    assert history["types"] == ["float"] and history["loss"][0] > history["loss"][-1]
    assert ours("train_step")["Keras3/weights"] != [[[0.5], [-0.25], [0.1]], [0.2]]
    assert same(ours("train_step")["Keras3/weights"], weights, tol=1e-5)


@pytest.mark.parametrize("name", LAYER_CONFIGS)
def test_layer_configs_use_keras_names_and_values_and_round_trip(name):
    """minitape's layers take fewer arguments than Keras 3's: each key of a config must be one Keras writes,
    with Keras' value where it is plain data, and from_config(get_config()) must give the same config."""
    got, keras = ours("configs")[name], RECORDED["configs"][name]
    assert set(got["keys"]) <= set(keras["keys"]), set(got["keys"]) - set(keras["keys"])
    assert {k: v for k, v in got["plain"].items() if k in keras["plain"]} == \
        {k: v for k, v in keras["plain"].items() if k in got["plain"]}
    assert got["round_trip"] and keras["round_trip"]
