"""tf.Module, tf.name_scope, TF 2's initializers and Keras 3's tracking and naming against TensorFlow 2.21.

What TF reported was recorded once by tests/record_tf_modules.py into tests/data/tf_modules.json,
by the same scenario functions this test runs with minitape.
"""
import json
import pathlib

import pytest

import minitape as tf
from record_tf_modules import SCENARIOS

RECORDED = json.loads((pathlib.Path(__file__).parent / "data" / "tf_modules.json").read_text())


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_scenario_reports_what_tensorflow_reports(name):
    tf.random.set_seed(0)
    found = json.loads(json.dumps(SCENARIOS[name](tf)))
    expected = RECORDED[name]
    if isinstance(expected, list):
        assert found == expected
        return
    assert sorted(found) == sorted(expected)
    for key in expected:
        assert found[key] == expected[key], key


def test_a_module_holding_itself_or_a_shared_variable_reports_each_once():
    module = tf.Module(name="loop")
    shared = tf.Variable(1.0, name="shared")
    module.me, module.child = module, tf.Module(name="child")
    module.child.parent, module.child.v, module.v = module, shared, shared
    assert [v.name for v in module.variables] == ["shared:0"]
    assert [m.name for m in module.submodules] == ["child"]
