"""Helpers shared by the tests."""
import subprocess
import sys
from pathlib import Path

import pytest

import minitape as tf


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> Path:
    """The MkDocs site, built with warnings as errors into a temporary folder (the notebooks executed).

    It executes every notebook: minutes on a busy 2-core machine, hence the long timeout.
    """
    out = tmp_path_factory.mktemp("site")
    build = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
                           cwd=Path(__file__).parent.parent, capture_output=True, text=True, timeout=1800)
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]
    return out


def seed_function_timeline():
    """The timeline of the seeds' first example: four checkpointed calls, then their gradient."""
    y = tf.Variable(1.0)

    def my_function(x):
        tf.print("running")
        return x * y

    g = tf.recompute_grad(my_function)
    with tf.events.timeline() as events:
        with tf.GradientTape() as tape:
            r = tf.constant(1.0)
            for _ in range(4):
                r = g(r)
        tape.gradient(r, [y])
    events.names = {"y": y, "r": r}
    return events


@pytest.fixture
def seed_timeline():
    return seed_function_timeline


# The op, gradient, tape, checkpointing and Keras suites run once per backend: NumPy;
# array-api-strict, a stand-in foreign backend with nothing but the array API standard, so any
# NumPy habit fails there; and CuPy, where CuPy and a CUDA device are present.
BACKENDS = ["numpy", "array_api_strict", pytest.param("cupy", marks=pytest.mark.gpu)]


@pytest.fixture(scope="module", params=BACKENDS)
def backend(request):
    """New tensors go to this backend for the whole module (module scope: hypothesis allows it)."""
    if request.param == "cupy":
        pytest.importorskip("cupy", reason="the GPU suite needs CuPy: pip install 'minitape[gpu]'")
        try:
            tf.backends.gpu(0)
        except tf.errors.DeviceNotFoundError as error:
            pytest.skip(str(error))
    with tf.backends.use(request.param) as chosen:
        yield chosen


# The corpus' snippets are run by tests/test_corpus.py, each in its own process, never imported.
collect_ignore = ["corpus"]
