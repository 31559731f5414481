"""``tf.config``'s devices and settings against TensorFlow 2.21: the scenario of tests/record_tf_config.py, step
by step (reprs, values, exception types and texts), from a fresh state as TensorFlow's context starts.
"""
import json

import pytest

import minitape as tf
import record_tf_config as spec
from minitape.dialect import config, devices

RECORDED = json.loads(spec.OUT.read_text())


@pytest.fixture
def fresh(monkeypatch):
    """Settings as a new process has them."""
    monkeypatch.setattr(devices, "_settings", devices._Settings())
    monkeypatch.setattr(config, "_threads", {"intra": 0, "inter": 0})
    monkeypatch.setattr(config, "_optimizer_options", {})


@pytest.mark.skipif(bool(devices._gpu_count()), reason="recorded on a machine without GPUs")
def test_scenario_as_tensorflow(fresh):
    assert spec.answers(tf) == RECORDED


def test_gpus_listed_as_minitape_finds_them(fresh):
    gpus = tf.config.list_physical_devices("GPU")
    assert [d.name for d in gpus] == [f"/physical_device:GPU:{i}" for i in range(devices._gpu_count())]
    for gpu in gpus:                  # accepted and kept, as TF does for a GPU
        tf.config.experimental.set_memory_growth(gpu, True)
        assert tf.config.experimental.get_memory_growth(gpu) is True
