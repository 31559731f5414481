"""Real teaching code runs unchanged: each corpus snippet prints what TensorFlow 2.21 printed.

The snippets and TensorFlow's transcripts live in tests/corpus/ (see its README). Each runs in
a fresh process, as a student's script would, so nothing one leaves behind (Keras' layer
name counters, the random seed) reaches the next.

Three differences are declared, and the comparison allows for them:

* minitape's tensors and variables name their library (`minitape.Tensor(...)`,
  `<minitape.Variable ...>`, as API.md specifies, where TensorFlow prints `tf.Tensor`);
* TensorFlow's kernel errors begin with an internal `{{function_node __wrapped__...}}` prefix
  that says nothing to a student; it is dropped;
* float32 results may differ in the last place: NumPy's exp, tanh and log are not Eigen's
  polynomials, and sums may be added in another order, so `tf.exp(1.0)` prints 2.718282 here and
  2.7182817 in TensorFlow. Where a line differs, its words must still be equal and each number
  equal to within a few float32 ulps, or, where the program rounded it to five or more
  significant digits for printing, to within one unit of its last digit (2.84316 for 2.84315).
  Spacing may differ, as NumPy pads an array's columns to its widest number.

One more is declared by the snippets it concerns: a snippet that trains for many steps in float32
may say ``# Tolerance: 1e-5 (why)`` in its header.  Each step's sums (a matmul's, a gradient's
reduction over the batch) are added in another order than Eigen adds them, so the weights part in
the last bit at the first step and drift apart, step by step, by float32 noise: run in float64,
TensorFlow and minitape agree to nine digits, and in float32 each is as far from that answer as the
other (tfex_logistic_regression: TF off by 1e-6 to 6e-6, minitape by 2e-7 to 7e-6).  Its numbers
must then be equal to within that share of their size, or of 1 for numbers smaller than 1.
"""
import re
import sys
from pathlib import Path

import pytest

from corpus_files import snippets

ROOT = Path(__file__).parent.parent
ALL = snippets()
# The share of snippets allowed to xfail.  Issue [training] asks for 10%; the 57 snippets from its new sources
# (Deep Learning with Python, keras.io, Hands-On ML 10-11, TensorFlow-Examples, DeepLearning.AI) bring it to 18 of
# 136 (13%): lists of losses and loss_weights in compile, Metric.stateless_*, string tensors, float32 drift.
# Lower it as they land: multi-output training (4 snippets), string tensors, Metric.stateless_*, summary's batch
# size, EarlyStopping's direction and declared float32 drift (8 more) leave 6 of 136.  Fourteen more (Udacity's intro
# course, the TensorFlow handbook, TensorFlow-Examples, keras.io's masking and training-loop guides) make it 7 of 150.
EXPECTED_XFAIL_SHARE = 0.047
DECLARED = [(re.compile(r"(<?)tf\.(Tensor|Variable)(?=\(|: | ')"), r"\1minitape.\2"),
            (re.compile(r"\{\{function_node __wrapped__[^}]*\}\} "), "")]


NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
FLOAT32_ULPS = 4 * 2.0 ** -23


def as_minitape_says_it(transcript: str) -> list[str]:
    """TensorFlow's transcript with the declared differences applied, line by line."""
    for pattern, replacement in DECLARED:
        transcript = pattern.sub(replacement, transcript)
    return transcript.splitlines()


def words_and_numbers(line: str) -> tuple[str, list[str]]:
    """A line's text without its numbers and spacing, and its numbers as printed."""
    return "".join(NUMBER.sub(" # ", line).split()), NUMBER.findall(line)


def last_digit(printed: str) -> float:
    """One unit in the last digit of a number rounded for printing to 5+ significant digits, else 0."""
    mantissa, _, exponent = printed.lower().partition("e")
    digits = mantissa.lstrip("+-").replace(".", "").lstrip("0")
    if "." not in mantissa or len(digits) < 5:
        return 0.0
    return 10.0 ** (int(exponent or 0) - len(mantissa.partition(".")[2]))


def same_number(ours: str, theirs: str, drift: float = 0.0) -> bool:
    a, b = float(ours), float(theirs)
    return abs(a - b) <= max(FLOAT32_ULPS * max(abs(a), abs(b)), last_digit(theirs) * 1.0001,
                             drift * max(1.0, abs(a), abs(b)))


def same_line(ours: str, theirs: str, drift: float = 0.0) -> bool:
    """Equal, or equal but for float32 rounding in the last place of its numbers (or a declared ``drift``)."""
    if ours == theirs:
        return True
    (our_words, our_numbers), (their_words, their_numbers) = words_and_numbers(ours), words_and_numbers(theirs)
    return our_words == their_words and len(our_numbers) == len(their_numbers) and all(
        same_number(a, b, drift) for a, b in zip(our_numbers, their_numbers))


def assert_same_transcript(ours: list[str], theirs: list[str], drift: float = 0.0) -> None:
    differing = [(i, a, b) for i, (a, b) in enumerate(zip(ours, theirs), 1) if not same_line(a, b, drift)]
    assert len(ours) == len(theirs) and not differing, (
        f"{len(ours)} lines printed, {len(theirs)} expected; first difference: {differing[:1]}\n"
        + "\n".join(ours))


def test_a_float32_rounding_difference_passes_and_a_wrong_value_does_not():
    assert same_line("tf.Tensor(2.718282, shape=(), dtype=float32)", "tf.Tensor(2.7182817, shape=(), dtype=float32)")
    assert same_line("[1.         0.5       ]", "[0.99999994 0.5       ]")
    assert not same_line("tf.Tensor(2.718285, shape=(), dtype=float32)", "tf.Tensor(2.7182817, shape=(), dtype=float32)")
    assert same_line("W = 3.75, b = 0.98, loss=2.84316", "W = 3.75, b = 0.98, loss=2.84315")
    assert not same_line("W = 3.76, b = 0.98, loss=2.84315", "W = 3.75, b = 0.98, loss=2.84315")
    assert not same_line("[2. 2.]", "[1. 2.]")
    assert not same_line("shape=(2, 3)", "shape=(3, 2)")
    assert not same_line("dtype=float32", "dtype=float64")


def test_a_declared_drift_allows_that_share_and_no_more():
    assert not same_line("loss: 2.250640", "loss: 2.250646")
    assert same_line("loss: 2.250640", "loss: 2.250646", drift=1e-5)
    assert same_line("[-0.00253585]", "[-0.00253582]", drift=1e-5)          # small numbers: a share of 1
    assert not same_line("loss: 2.250340", "loss: 2.250646", drift=1e-5)
    assert not same_line("[-0.00263582]", "[-0.00253582]", drift=1e-5)


def test_a_declared_tolerance_is_small_and_says_why():
    for snippet in ALL:
        if snippet.tolerance is not None:
            assert snippet.tolerance <= 1e-5, f"{snippet.name}: drift beyond 1e-5 is a difference to fix"
            assert len(snippet.header["Tolerance"].split()) > 3, f"{snippet.name}: say why it drifts"


def as_param(snippet):
    marks = [pytest.mark.xfail(reason=snippet.xfail, strict=True)] if snippet.xfail else []
    return pytest.param(snippet, id=snippet.name, marks=marks)


@pytest.mark.parametrize("snippet", [as_param(s) for s in ALL])
def test_snippet_prints_what_tensorflow_printed(snippet, tmp_path):
    run = snippet.run(sys.executable, tmp_path, {"PYTHONPATH": str(ROOT)})
    assert run.returncode == 0, run.stderr[-3000:]
    assert_same_transcript(run.stdout.splitlines(), as_minitape_says_it(snippet.transcript.read_text()),
                           snippet.tolerance or 0.0)


@pytest.mark.parametrize("snippet", ALL, ids=[s.name for s in ALL])
def test_snippet_names_its_source_and_has_a_transcript(snippet):
    assert snippet.header.get("Source"), f"{snippet.path.name} must begin with '# Source: ...'"
    assert snippet.header.get("Changed"), f"{snippet.path.name} must say what changed: '# Changed: ...'"
    assert "import minitape as tf" in snippet.path.read_text()
    assert snippet.transcript.exists(), f"record it: /tmp/tfvenv/bin/python tests/record_tf_corpus.py {snippet.name}"


def test_the_corpus_is_large_and_mostly_runs():
    assert len(ALL) >= 130
    failing = [s.name for s in ALL if s.xfail]
    assert len(failing) <= EXPECTED_XFAIL_SHARE * len(ALL), failing
