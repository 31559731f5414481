"""Real teaching code runs unchanged: each corpus snippet prints what TensorFlow 2.21 printed.

The snippets and TensorFlow's transcripts live in tests/corpus/ (see its README). Each runs in
a fresh process, as a student's script would, so nothing one leaves behind (Keras' layer
name counters, the random seed) reaches the next.
"""
import sys
from pathlib import Path

import pytest

from corpus_files import snippets

ROOT = Path(__file__).parent.parent
ALL = snippets()
EXPECTED_XFAIL_SHARE = 0.10


def as_param(snippet):
    marks = [pytest.mark.xfail(reason=snippet.xfail, strict=True)] if snippet.xfail else []
    return pytest.param(snippet, id=snippet.name, marks=marks)


@pytest.mark.parametrize("snippet", [as_param(s) for s in ALL])
def test_snippet_prints_what_tensorflow_printed(snippet, tmp_path):
    run = snippet.run(sys.executable, tmp_path, {"PYTHONPATH": str(ROOT)})
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.splitlines() == snippet.transcript.read_text().splitlines()


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
