"""Blockers of a second set of corpus snippets (issue #24), answered as TF 2.21 (Keras 3) does: ``tf.string``
tensors as far as making, printing and reading them back (tfex_helloworld), and Keras 3's functional metric API,
``Metric.stateless_update_state``/``stateless_result``/``stateless_reset_state`` (dlwp3_ch07_metrics_ops), and the
batch size ``summary()`` shows in a model's output shapes (kerasio_sequential_input_shape, dlwp2_ch07_mixing_models),
and EarlyStopping's mode "auto" on a compiled metric (dlwp2_ch07_callbacks).

``tests/record_tf_corpus_fixes.py`` recorded TF's answers in ``tests/data/tf_corpus_fixes.json``.  Values
compare to 1e-6 and text exactly; a refusal raises TF's exception type, and where ``EXACT`` names it, with TF's
words as its first line (minitape adds a line saying what to do; elsewhere its words name the op its own way).
"""
from __future__ import annotations

import json
import pathlib

import pytest

import minitape as tf
import record_tf_corpus_fixes as spec
from record_tf_refusals import run
from test_followups_tf import close

RECORDED = json.loads((pathlib.Path(__file__).parent / "data" / "tf_corpus_fixes.json").read_text())
#: Refusals whose first line is TF's text, word for word.
EXACT = {"strings/mixed_list", "strings/number_as_string", "strings/ragged", "strings/add_to_float",
         "strings/multiply_float", "strings/min", "metrics/too_few", "metrics/result_too_few"}


def answers_as_tf(group: str, name: str, cases: dict[str, str]) -> None:
    ours, theirs = run(tf, cases[name]), RECORDED[group][name]
    if isinstance(theirs, dict) and "error" in theirs:
        assert ours.get("error") == theirs["error"], f"{group}/{name}: {ours} vs TF's {theirs}"
        if f"{group}/{name}" in EXACT:
            assert ours["text"].splitlines()[0] == theirs["text"], f"{group}/{name}: {ours['text']}"
        return
    close(ours, theirs, f"{group}/{name}")


@pytest.mark.parametrize("name", sorted(spec.STRINGS))
def test_string_tensors_are_made_shown_and_refused_as_tf(name: str) -> None:
    answers_as_tf("strings", name, spec.STRINGS)


@pytest.mark.parametrize("name", sorted(spec.METRICS))
def test_stateless_metric_calls_answer_as_keras_3(name: str) -> None:
    answers_as_tf("metrics", name, spec.METRICS)


def test_a_stateless_update_leaves_the_metric_as_it_was_even_when_it_fails() -> None:
    mean = tf.keras.metrics.Mean()
    mean.update_state([10.0])
    with pytest.raises(ValueError):
        mean.stateless_update_state([tf.constant(0.0), tf.constant(0.0)], [[1.0], [2.0, 3.0]])
    assert [float(v) for v in mean.variables] == [10.0, 1.0]


def test_a_string_tensor_is_not_watched_and_has_no_gradient() -> None:
    text = tf.constant(["a"])
    with tf.GradientTape() as tape:
        copy = tf.identity(text)
    assert tape.gradient(copy, text) is None


@pytest.mark.parametrize("name", sorted(spec.SUMMARY))
def test_summary_shows_the_batch_size_a_model_was_built_for_as_keras_3(name: str) -> None:
    answers_as_tf("summary", name, spec.SUMMARY)


@pytest.mark.parametrize("name", sorted(spec.CALLBACKS))
def test_early_stopping_finds_a_compiled_metrics_direction_as_keras_3(name: str) -> None:
    answers_as_tf("callbacks", name, spec.CALLBACKS)


@pytest.mark.parametrize("name", sorted(spec.REPR))
def test_layers_and_models_show_themselves_as_keras_3(name: str) -> None:
    answers_as_tf("repr", name, spec.REPR)


@pytest.mark.parametrize("refused", [lambda t: t + t, lambda t: tf.exp(t), lambda t: tf.reduce_sum(t)])
def test_math_on_text_is_refused_without_advising_a_cast_that_cannot_work(refused) -> None:
    with pytest.raises(tf.errors.InvalidArgumentError) as caught:
        refused(tf.constant(["a"]))
    assert "got string" in str(caught.value) or "is string" in str(caught.value)
    assert "tf.cast" not in str(caught.value)


def test_a_metric_refuses_text_with_keras_3s_exception_type() -> None:
    with pytest.raises(tf.errors.UnimplementedError, match="Cast string to float is not supported"):
        tf.keras.metrics.Mean().update_state("abc")         # TF 2.21: UnimplementedError, its Cast kernel's words
