"""The Keras recorders' cases (tests/record_tf_keras_api.py, tests/record_tf_keras_state.py) run with
minitape, and their plain data compared with what TensorFlow's Keras recorded.

Shared by tests/test_keras_api_tf.py and tests/test_keras_state_tf.py.
"""
import json

import minitape as tf


def minitape_runs(spec):
    """``ours(case)``: the recorder's case run once with minitape, seeded as the recording was, as JSON."""
    done = {}

    def ours(case):
        if case not in done:
            tf.keras.utils.set_random_seed(0)
            done[case] = json.loads(json.dumps(spec.CASES[case](tf.keras, tf)))
        return done[case]
    return ours


def same(a, b, tol=1e-6):
    """Equal structures; numbers within ``tol`` (relative and absolute)."""
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y, tol) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k], tol) for k in a)
    if isinstance(a, float | int) and isinstance(b, float | int) and not isinstance(a, bool):
        return type(a) is type(b) and abs(a - b) <= tol * (1 + abs(b))
    return a == b
