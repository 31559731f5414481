"""The teaching-code corpus in tests/corpus/: finding snippets and reading their headers.

Shared by tests/test_corpus.py (runs each snippet with minitape) and
tests/record_tf_corpus.py (runs each with TensorFlow, by hand, to record the transcripts).
"""
from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

CORPUS = Path(__file__).parent / "corpus"
RUNNER = Path(__file__).parent / "corpus_run.py"
HEADER = re.compile(r"^# (Source|Changed|Tolerance|xfail): (.*)$")


@dataclass(frozen=True)
class Snippet:
    path: Path
    header: dict[str, str]

    @property
    def name(self) -> str:
        return self.path.stem

    @property
    def transcript(self) -> Path:
        """Where TensorFlow's transcript of this snippet is kept."""
        return self.path.with_suffix(".tf.txt")

    @property
    def xfail(self) -> str | None:
        return self.header.get("xfail")

    @property
    def tolerance(self) -> float | None:
        """The drift a snippet that trains in float32 declares (``# Tolerance: 1e-5 (why)``), or None."""
        declared = self.header.get("Tolerance")
        return float(declared.split()[0]) if declared else None

    def run(self, python: str, cwd, env: dict, tensorflow: bool = False) -> subprocess.CompletedProcess:
        """Run the snippet as a notebook would (tests/corpus_run.py) in a fresh process."""
        command = [python, str(RUNNER), str(self.path)] + (["--tensorflow"] if tensorflow else [])
        return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=600,
                              env={**os.environ, "PYTHONHASHSEED": "0", **env})


def read_header(path: Path) -> dict[str, str]:
    """The ``# Key: value`` lines that open a snippet (a key may continue on indented ``#`` lines)."""
    header: dict[str, str] = {}
    key = None
    for line in path.read_text().splitlines():
        match = HEADER.match(line)
        if match:
            key = match.group(1)
            header[key] = match.group(2).strip()
        elif key and line.startswith("#   "):
            header[key] += " " + line[1:].strip()
        else:
            break
    return header


def snippets() -> list[Snippet]:
    return [Snippet(path, read_header(path)) for path in sorted(CORPUS.glob("*.py"))]
