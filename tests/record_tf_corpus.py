"""Record TensorFlow 2.21's transcript of every corpus snippet (run by hand, never by CI).

    python3 -m venv /tmp/tfvenv && /tmp/tfvenv/bin/pip install tensorflow-cpu==2.21.0 ipython
    /tmp/tfvenv/bin/python tests/record_tf_corpus.py            # every snippet
    /tmp/tfvenv/bin/python tests/record_tf_corpus.py NAME ...   # only these

Each snippet runs in a fresh process (tests/corpus_run.py, with its imports turned back into
TensorFlow's) and what it shows to standard output is written beside it as ``NAME.tf.txt``. A snippet that
fails under TensorFlow is reported and gets no transcript: the corpus holds only code that
runs as its source shows.
"""
from __future__ import annotations

import sys
import tempfile

from corpus_files import snippets

QUIET_TF = {"TF_CPP_MIN_LOG_LEVEL": "3", "CUDA_VISIBLE_DEVICES": ""}


def record(snippet) -> bool:
    with tempfile.TemporaryDirectory() as scratch:
        run = snippet.run(sys.executable, scratch, QUIET_TF, tensorflow=True)
    if run.returncode != 0:
        print(f"{snippet.name}: TensorFlow failed\n{run.stderr[-2000:]}")
        return False
    snippet.transcript.write_text(run.stdout)
    print(f"{snippet.name}: {len(run.stdout.splitlines())} lines")
    return True


if __name__ == "__main__":
    wanted = set(sys.argv[1:])
    chosen = [s for s in snippets() if not wanted or s.name in wanted]
    failed = [s.name for s in chosen if not record(s)]
    sys.exit(f"no transcript for: {', '.join(failed)}" if failed else 0)
