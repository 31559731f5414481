"""Real teaching code runs unchanged: each corpus snippet prints what TensorFlow 2.21 printed.

The snippets and TensorFlow's transcripts live in tests/corpus/ (see its README). Each runs in
a fresh process, as a student's script would, so nothing one leaves behind (Keras' layer
name counters, the random seed) reaches the next.

Two differences are declared, and TensorFlow's transcript is read with them applied: minitape's
tensors and variables name their library (`minitape.Tensor(...)`, `<minitape.Variable ...>`, as
API.md specifies, where TensorFlow prints `tf.Tensor`), and TensorFlow's kernel errors begin with
an internal `{{function_node __wrapped__...}}` prefix that says nothing to a student.
"""
import re
import sys
from pathlib import Path

import pytest

from corpus_files import snippets

ROOT = Path(__file__).parent.parent
ALL = snippets()
EXPECTED_XFAIL_SHARE = 0.10
DECLARED = [(re.compile(r"(<?)tf\.(Tensor|Variable)(?=\(|: | ')"), r"\1minitape.\2"),
            (re.compile(r"\{\{function_node __wrapped__[^}]*\}\} "), "")]


def as_minitape_says_it(transcript: str) -> list[str]:
    """TensorFlow's transcript with the declared differences applied, line by line."""
    for pattern, replacement in DECLARED:
        transcript = pattern.sub(replacement, transcript)
    return transcript.splitlines()


def as_param(snippet):
    marks = [pytest.mark.xfail(reason=snippet.xfail, strict=True)] if snippet.xfail else []
    return pytest.param(snippet, id=snippet.name, marks=marks)


@pytest.mark.parametrize("snippet", [as_param(s) for s in ALL])
def test_snippet_prints_what_tensorflow_printed(snippet, tmp_path):
    run = snippet.run(sys.executable, tmp_path, {"PYTHONPATH": str(ROOT)})
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.splitlines() == as_minitape_says_it(snippet.transcript.read_text())


@pytest.mark.parametrize("snippet", ALL, ids=[s.name for s in ALL])
def test_snippet_names_its_source_and_has_a_transcript(snippet):
    assert snippet.header.get("Source"), f"{snippet.path.name} must begin with '# Source: ...'"
    assert snippet.header.get("Changed"), f"{snippet.path.name} must say what changed: '# Changed: ...'"
    assert "import minitape as tf" in snippet.path.read_text()
    assert snippet.transcript.exists(), f"record it: /tmp/tfvenv/bin/python tests/record_tf_corpus.py {snippet.name}"


def test_the_corpus_is_large_and_mostly_runs():
    assert len(ALL) >= 40
    failing = [s.name for s in ALL if s.xfail]
    assert len(failing) <= EXPECTED_XFAIL_SHARE * len(ALL), failing
