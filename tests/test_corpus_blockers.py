"""Keras blockers of corpus snippets (issue #24), each answered as Keras 3 under TF 2.21 does: activations by every
name Keras 3 knows, Keras 2's ``input_shape``/``input_dim`` spellings, ``Sequential.pop``, ``Model.get_layer``,
``keras.Layer`` and the callbacks ``evaluate``/``predict`` tell.

``tests/record_tf_corpus_blockers.py`` recorded TF's answers in ``tests/data/tf_corpus_blockers.json``; floats
compare to 1e-6, strings exactly, errors by type and Keras' words (as ``test_followups_tf.close`` does).
"""
from __future__ import annotations

import json
import pathlib

import pytest

import minitape as tf
import record_tf_corpus_blockers as spec
from record_tf_refusals import run
from test_followups_tf import close

RECORDED = json.loads((pathlib.Path(__file__).parent / "data" / "tf_corpus_blockers.json").read_text())
#: Keras 3 fails here with a bare `list index out of range`; minitape says what happened, in the same type.
OWN_WORDS = {"pop_empty"}


@pytest.mark.parametrize("name", sorted(spec.ACTIVATIONS))
def test_every_keras_3_activation_name_works_in_a_layer(name: str) -> None:
    close(run(tf, spec.ACTIVATIONS[name]), RECORDED["activations"][name], f"activations/{name}")


@pytest.mark.parametrize("name", sorted(set(spec.KERAS) - OWN_WORDS))
def test_keras_spellings_and_model_methods_answer_as_keras_3(name: str) -> None:
    close(run(tf, spec.KERAS[name]), RECORDED["keras"][name], f"keras/{name}")


def test_popping_an_empty_sequential_raises_keras_type_with_words_that_help() -> None:
    ours = run(tf, spec.KERAS["pop_empty"])
    assert ours["error"] == RECORDED["keras"]["pop_empty"]["error"] and "no layers to pop" in ours["text"]


@pytest.mark.parametrize("name", sorted(spec.CALLBACKS))
def test_evaluate_predict_and_validation_tell_callbacks_as_keras_3(name: str) -> None:
    close(run(tf, spec.CALLBACKS[name]), RECORDED["callbacks"][name], f"callbacks/{name}")


@pytest.mark.parametrize("name", sorted(spec.FORMAT))
def test_f_strings_of_tensors_show_numpys_formatting_as_tf(name: str) -> None:
    close(run(tf, spec.FORMAT[name]), RECORDED["format"][name], f"format/{name}")
