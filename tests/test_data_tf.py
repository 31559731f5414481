"""tf.data against TensorFlow 2.21: elements, element_spec, repr, cardinality, len and errors.

What TF reported was recorded once by tests/record_tf_data.py into tests/data/tf_data.json,
by the same dataset-building functions this test runs with minitape.  An error's text is
compared without TF's op decorations (``{{function_node ...}}``, ``[Op:...]``): minitape's
text must hold TF's and may add advice.
"""
import json
import pathlib
import re

import pytest

import minitape as tf
import numpy as np

from record_tf_data import DATASETS, keras_on_datasets, others, report

RECORDED = json.loads((pathlib.Path(__file__).parent / "data" / "tf_data.json").read_text())


def core_text(message: str) -> str:
    """TF's message without the op decorations its C++ runtime adds."""
    message = re.sub(r"^\{\{function_node [^}]*\}\} ", "", message)
    message = message.split(" Shapes are:")[0]     # TF copies a batch's elements in parallel: either may be named
    return re.sub(r" \[Op:.*$", "", message).strip()


@pytest.mark.parametrize("name", sorted(DATASETS))
def test_dataset_reports_what_tensorflow_reports(name):
    expected, found = RECORDED[name], json.loads(json.dumps(report(tf, DATASETS[name])))
    if "error" in expected:
        assert "error" in found, found
        assert found["error"][0] == expected["error"][0]
        assert core_text(expected["error"][1]) in found["error"][1]
        return
    assert found == expected


def test_other_answers_are_tensorflows():
    expected, found = RECORDED["others"], json.loads(json.dumps(others(tf)))
    assert found.pop("iter_first") == "'Tensor'"        # TF's EagerTensor is minitape's Tensor
    expected.pop("iter_first")
    window_error, expected_window_error = found.pop("numpy_iterator_window"), expected.pop("numpy_iterator_window")
    assert window_error[0] == expected_window_error[0]
    assert window_error[1].split(" of type")[0] == expected_window_error[1].split(" of type")[0]
    assert found == expected


def test_keras_trains_on_datasets_as_keras_3_does():
    expected, found = RECORDED["keras"], keras_on_datasets(tf)
    assert sorted(found) == sorted(expected)
    for key in ("history", "streamed"):
        assert sorted(found[key]) == sorted(expected[key])
        for name in expected[key]:
            np.testing.assert_allclose(found[key][name], expected[key][name], rtol=1e-4, err_msg=f"{key} {name}")
    np.testing.assert_allclose(found["evaluate"], expected["evaluate"], rtol=1e-4)
    np.testing.assert_allclose(found["predict"], expected["predict"], rtol=1e-4, atol=1e-5)
