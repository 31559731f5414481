"""tf.print's format, line for line with TensorFlow 2.21 (checked against it)."""
import io
import sys

import numpy as np
import pytest

import minitape as tf


@pytest.mark.parametrize("value,expected", [
    (tf.constant(4.0), "4"),
    (tf.constant([1.5, 2, -3.25]), "[1.5 2 -3.25]"),
    (tf.constant(1 / 3), "0.333333343"),
    (tf.constant(1 / 3, tf.float64), "0.33333333333333331"),
    (tf.constant([1e-8, 1e10, 123456789.0]), "[1e-08 1e+10 123456792]"),
    (tf.constant([0.1, 1 / 3], tf.float16), "[0.0999755859 0.333251953]"),
    (tf.constant([True, False]), "[1 0]"),
    (tf.range(10), "[0 1 2 ... 7 8 9]"),
    (tf.reshape(tf.range(4), (2, 2)), "[[0 1]\n [2 3]]"),
    (tf.reshape(tf.range(8), (2, 2, 2)), "[[[0 1]\n  [2 3]]\n\n [[4 5]\n  [6 7]]]"),
    (tf.constant(np.array([], np.float32)), "[]"),
    (tf.constant([np.nan, np.inf, -np.inf, -0.0]), "[nan inf -inf -0]"),
    (tf.Variable([1.0, 2.0]), "[1 2]"),
    ([1, tf.constant(2.5)], "[1, 2.5]"),
    ({"a": tf.constant([1, 2]), "b": 3}, "{'a': [1 2], 'b': 3}"),
    ([[tf.constant(1.0)], (tf.constant([2, 3]),)], "[[1], ([2 3],)]"),
])
def test_values_print_as_tf_prints_them(capsys, value, expected):
    tf.print(value)
    assert capsys.readouterr().out == expected + "\n"


def test_large_matrix_summary(capsys):
    tf.print(tf.reshape(tf.range(100), (10, 10)))
    assert capsys.readouterr().out == (
        "[[0 1 2 ... 7 8 9]\n [10 11 12 ... 17 18 19]\n [20 21 22 ... 27 28 29]\n ...\n"
        " [70 71 72 ... 77 78 79]\n [80 81 82 ... 87 88 89]\n [90 91 92 ... 97 98 99]]\n")


def test_separators_python_values_and_summarize(capsys):
    tf.print(True, 1.5, "str", None)
    tf.print()
    tf.print("a", tf.constant(1), sep=",", end="!\n")
    tf.print(tf.range(10), summarize=2)
    tf.print(tf.range(10), summarize=-1)
    assert capsys.readouterr().out == "True 1.5 str None\n\na,1!\n[0 1 ... 8 9]\n[0 1 2 3 4 5 6 7 8 9]\n"


def test_stdout_is_looked_up_when_printing(monkeypatch):
    captured = io.StringIO()
    monkeypatch.setattr(sys, "stdout", captured)
    tf.print("late binding")
    assert captured.getvalue() == "late binding\n"


def test_other_streams(tmp_path):
    stream = io.StringIO()
    tf.print("x", output_stream=stream)
    path = tmp_path / "log.txt"
    tf.print("y", output_stream=f"file://{path}")
    assert stream.getvalue() == "x\n" and path.read_text() == "y\n"
    with pytest.raises(ValueError, match="output_stream must be a file-like object"):
        tf.print("z", output_stream="stdout")


def test_a_lone_surrogate_prints_escaped(monkeypatch, tmp_path):
    # A str may hold a lone surrogate, which no UTF-8 stream can encode: it is written as its escape,
    # as the player shows it, rather than raising UnicodeEncodeError.
    stdout = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    monkeypatch.setattr(sys, "stdout", stdout)
    tf.print("a" + chr(0xD800) + "é", tf.constant(1.5))
    stdout.flush()
    assert stdout.buffer.getvalue().decode("utf-8") == "a\\ud800é 1.5\n"
    path = tmp_path / "log.txt"
    tf.print(chr(0xDC80), output_stream=f"file://{path}")
    assert path.read_text(encoding="utf-8") == "\\udc80\n"


def test_get_logger_is_the_logger_minitape_warns_through_so_a_course_can_silence_it(caplog):
    # Udacity's intro course opens with `tf.get_logger().setLevel(logging.ERROR)` (corpus:
    # udacity_l02_celsius_to_fahrenheit); the level set there must govern minitape's own warnings.
    import logging
    logger = tf.get_logger()
    assert isinstance(logger, logging.Logger)
    try:
        tf.config.run_functions_eagerly(False)              # minitape warns: it has no graphs
        assert any(r.levelno == logging.WARNING for r in caplog.records)
        caplog.clear()
        logger.setLevel(logging.ERROR)
        tf.config.run_functions_eagerly(False)
        assert not caplog.records
    finally:
        logger.setLevel(logging.NOTSET)
        tf.config.run_functions_eagerly(True)
