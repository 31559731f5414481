"""Freed arrays are reused in place: a training step does not fault its memory in anew each time.

Counted, not timed: the minor page faults the operating system reports for a process while it
repeats one convolution's forward and backward pass, with minitape's allocator settings and with
them turned off (``MINITAPE_KEEP_FREED_MEMORY=0``).
"""
import ctypes
import json
import subprocess
import sys

import pytest

from minitape.core import allocator

STEP = """
import json, resource
import numpy as np
import minitape as tf
rng = np.random.default_rng(0)
x = tf.constant(rng.standard_normal((32, 32, 32, 16), dtype=np.float32))
w = tf.Variable(rng.standard_normal((3, 3, 16, 16), dtype=np.float32))
def step():
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.relu(tf.nn.conv2d(x, w, strides=1, padding="SAME"))
        loss = tf.reduce_sum(tf.nn.conv2d(y, w, strides=1, padding="SAME") ** 2)
    tape.gradient(loss, [x, w])
for _ in range(3):
    step()
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(5):
    step()
print(json.dumps((resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before) / 5))
"""


def faults_per_step(keep: bool) -> float:
    env = {"MINITAPE_KEEP_FREED_MEMORY": "1" if keep else "0", "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}
    out = subprocess.run([sys.executable, "-c", STEP], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


@pytest.mark.skipif(not allocator.allocator_is_glibc(), reason="the settings are glibc's mallopt")
def test_a_repeated_step_reuses_its_memory():
    kept, returned = faults_per_step(keep=True), faults_per_step(keep=False)
    assert returned > 1000                        # each step faults its ~20 MB of arrays in again
    assert kept < returned / 20


@pytest.mark.skipif(not allocator.allocator_is_glibc(), reason="the settings are glibc's mallopt")
def test_the_settings_are_glibcs_and_can_be_turned_off(monkeypatch):
    assert allocator.keep_freed_memory()
    monkeypatch.setenv("MINITAPE_KEEP_FREED_MEMORY", "0")
    assert not allocator.keep_freed_memory()
    assert ctypes.CDLL(None).mallopt(allocator.M_TRIM_THRESHOLD, allocator.TRIM) == 1
