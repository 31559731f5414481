"""``tf.function`` runs eagerly, as TensorFlow does under ``tf.config.run_functions_eagerly(True)``.

TF 2.21's behaviour there, recorded by hand: the body runs on every call (Python side effects
every time), an ``input_signature`` is not checked, a non-callable is a TypeError.
"""
import logging

import pytest

import minitape as tf


def test_decorator_and_call_forms_run_the_body_each_time():
    calls = []

    @tf.function
    def plain(x):
        calls.append("plain")
        return x * 2

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)], jit_compile=True, reduce_retracing=True)
    def configured(x):
        calls.append("configured")
        return x + 1

    called = tf.function(lambda x: x - 1, autograph=False)
    assert [plain(3), plain(4), configured(1), called(5)] == [6, 8, 2, 4]
    assert calls == ["plain", "plain", "configured"]
    assert configured(tf.ones((3, 3))).shape == (3, 3)         # TF does not check the signature eagerly either
    assert plain.__name__ == "plain" and plain.python_function(1) == 2
    assert repr(configured.input_signature) == "(TensorSpec(shape=(None, 2), dtype=tf.float32, name=None),)"


def test_methods_bind_and_tapes_see_inside():
    class Model:
        def __init__(self):
            self.w = tf.Variable(3.0)

        @tf.function
        def __call__(self, x):
            return self.w * x

    model = Model()
    with tf.GradientTape() as tape:
        y = model(tf.constant(2.0))
    assert float(tape.gradient(y, model.w)) == 2.0


def test_bad_uses_raise_as_tf():
    with pytest.raises(TypeError, match="3 is not a callable object"):
        tf.function(3)
    with pytest.raises(TypeError, match="unexpected keyword argument 'experimental_everything'"):
        tf.function(abs, experimental_everything=True)


def test_config_says_functions_run_eagerly(caplog):
    tf.config.run_functions_eagerly(True)
    assert tf.config.functions_run_eagerly()
    with caplog.at_level(logging.WARNING, logger="minitape"):
        tf.config.run_functions_eagerly(False)
    assert tf.config.functions_run_eagerly() and "minitape has no graphs" in caplog.text
