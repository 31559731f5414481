"""What TF's eager variables return from their updates, ``scatter_*``, ``tf.while_loop``, and
what a ``tf.function`` returns.  The expected outputs are TensorFlow 2.21's (written as literals)."""
import numpy as np
import pytest

import minitape as tf


def test_assign_returns_an_unread_variable_that_shows_the_value_when_printed():
    v = tf.Variable([1.0, 2.0], name="w")
    u = v.assign([3.0, 4.0])
    assert repr(u) == "<minitape.Variable 'UnreadVariable' shape=(2,) dtype=float32, numpy=array([3., 4.], dtype=float32)>"
    assert isinstance(u, tf.Variable) and u.name == "UnreadVariable" and u.trainable
    v.assign([5.0, 6.0])
    assert u.numpy().tolist() == [5.0, 6.0] and str(u) == repr(u)         # read when shown, as TF's
    u2 = u.assign_add([1.0, 1.0])                                           # writes go to the variable
    assert v.numpy().tolist() == [6.0, 7.0] and u2.name == "UnreadVariable"
    assert (u + 1).numpy().tolist() == [7.0, 8.0]
    assert v.assign([1.0, 1.0], read_value=False) is None
    assert v.assign_sub([1.0, 1.0]).name == v[0].assign(9.0).name == "UnreadVariable"


def test_reading_an_unread_variable_is_not_recorded_but_its_gradient_is_the_variables():
    v = tf.Variable([1.0, 1.0])
    u = v.assign([1.0, 1.0])
    with tf.GradientTape(persistent=True) as tape:
        y = tf.reduce_sum(u * u)
    assert tape.gradient(y, u) is None and tape.gradient(y, v) is None          # TF 2.21: None, None
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(v * v)
    assert tape.gradient(y, u).numpy().tolist() == [2.0, 2.0]


def test_an_unread_variable_is_followed_by_tapes_that_watch_the_variable_as_in_tf():
    v = tf.Variable([1.0, 2.0])
    u = v.assign([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(v)
        y = u * u
    assert tape.gradient(y, v).numpy().tolist() == [2.0, 4.0]
    with tf.GradientTape() as tape:
        r = v.assign([3.0, 3.0])                  # an assign inside the tape is an access: the tape watches v
        y = r * 3.0
    assert tape.gradient(y, v).numpy().tolist() == [3.0, 3.0]
    with tf.GradientTape() as tape:
        _ = v * 1.0
        y = u * u
    assert tape.gradient(y, u).numpy().tolist() == [6.0, 6.0]


def test_a_function_returns_tensors_never_variables():
    counter = tf.Variable(0)

    @tf.function
    def increment(c=1):
        return counter.assign_add(c)
    increment()
    assert repr(increment()) == "<minitape.Tensor: shape=(), dtype=int32, numpy=2>"
    out = tf.function(lambda: (1, 2.5, None, "s", [counter, {"a": counter}], np.ones(2)))()
    assert [type(o).__name__ for o in out] == ["Tensor", "Tensor", "NoneType", "str", "list", "Tensor"]
    assert type(out[4][0]) is tf.Tensor and type(out[4][1]["a"]) is tf.Tensor and out[1].dtype.name == "float32"


def test_scatter_methods_combine_rows_one_index_after_another_as_tf():
    expected = {"update": [2, 2, 2], "add": [16, 17, 18], "sub": [-8, -7, -6], "mul": [80, 100, 120],
                "div": [0.2, 0.25, 0.3], "max": [10, 10, 10], "min": [2, 2, 2]}
    v = tf.Variable([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    for how, row in expected.items():
        v.assign([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
        delta = tf.IndexedSlices(tf.constant([[10.0, 10.0, 10.0], [2.0, 2.0, 2.0]]), tf.constant([1, 1]))
        out = getattr(v, f"scatter_{how}")(delta)
        assert out.name == "UnreadVariable"
        np.testing.assert_allclose(v.numpy(), [[1, 2, 3], row], rtol=1e-7)


def test_scatter_nd_methods_as_tf():
    expected = {"update": [[5, 2, 3], [4, 5, 200]], "add": [[106, 2, 3], [4, 5, 206]], "sub": [[-104, 2, 3], [4, 5, -194]]}
    v = tf.Variable([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    for how, want in expected.items():
        v.assign([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
        getattr(v, f"scatter_nd_{how}")([[0, 0], [1, 2], [0, 0]], [100.0, 200.0, 5.0])
        assert v.numpy().tolist() == want
    assert v.scatter_nd_update([[1]], [[7.0, 8.0, 9.0]]).numpy().tolist() == [[-104, 2, 3], [7, 8, 9]]


def test_a_tensor_read_before_a_scatter_keeps_its_value_and_gradient():
    w = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        y = w * w
        w.scatter_nd_update([[0]], [5.0])
    assert tape.gradient(y, w).numpy().tolist() == [2.0, 4.0] and y.numpy().tolist() == [1.0, 4.0]


def test_scatter_errors_are_tfs():
    v = tf.Variable([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    device = "{{function_node __wrapped__ResourceScatter%s_device_/job:localhost/replica:0/task:0/device:CPU:0}} "
    with pytest.raises(TypeError, match=r"Argument `sparse_delta` must be a `tf.IndexedSlices`. Received arg: \[1, 2\]"):
        v.scatter_update([1, 2])
    with pytest.raises(tf.errors.InvalidArgumentError) as raised:
        v.scatter_update(tf.IndexedSlices(tf.constant([[1.0, 1.0, 1.0]]), tf.constant([5])))
    assert str(raised.value) == device % "Update" + "indices[0] = 5 is not in [0, 2) [Op:ResourceScatterUpdate] name: "
    with pytest.raises(tf.errors.InvalidArgumentError) as raised:
        v.scatter_nd_update([[0, 5]], [1.0])
    assert str(raised.value) == (device % "NdUpdate" + "indices[0] = [0, 5] does not index into shape [2,3] "
                                 "[Op:ResourceScatterNdUpdate]")
    with pytest.raises(ValueError, match="Tensor conversion requested dtype float32 for Tensor with dtype int32"):
        v.scatter_update(tf.IndexedSlices(tf.constant([[1, 1, 1]]), tf.constant([0])))
    with pytest.raises(tf.errors.InvalidArgumentError, match="scatter_nd_update"):
        v.scatter_nd_update([[0, 1]], [1.0, 2.0])
    assert v.numpy().tolist() == [[1, 2, 3], [4, 5, 6]]                 # nothing was written


def test_indexed_slices_print_and_convert_as_tf():
    s = tf.IndexedSlices(values=[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], indices=[1, 0])
    assert str(s) == "IndexedSlices(indices=[1, 0], values=[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])"
    assert s.values == [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]] and s.dense_shape is None       # kept as given
    dense = tf.convert_to_tensor(tf.IndexedSlices(tf.constant([1.0, 2.0]), tf.constant([0, 0]), tf.constant([3])))
    assert dense.numpy().tolist() == [3.0, 0.0, 0.0] and dense.dtype.name == "float32"


def test_item_assignment_is_refused_with_tfs_words():
    with pytest.raises(TypeError, match="^'ResourceVariable' object does not support item assignment"):
        tf.Variable([1.0])[0] = 2.0
    with pytest.raises(TypeError, match="^'tensorflow.python.framework.ops.EagerTensor' object does not support"):
        tf.constant([1.0])[0] = 2.0


def test_while_loop_returns_the_structure_as_tf():
    assert tf.while_loop(lambda i: i < 10, lambda i: (i + 1,), (0,))[0].numpy() == 10
    i, d = tf.while_loop(lambda i, d: i < 3, lambda i, d: (i + 1, {"a": d["a"] * 2}), (0, {"a": 1.0}))
    assert i.numpy() == 3 and repr(d["a"]) == "<minitape.Tensor: shape=(), dtype=float32, numpy=8.0>"
    counted = tf.while_loop(lambda i: i < 10, lambda i: [i + 1], [tf.constant(0)], maximum_iterations=4)
    assert isinstance(counted, list) and counted[0].numpy() == 4
    assert tf.while_loop(lambda i: i < 10, lambda i: [i + 1], [tf.constant(0)], maximum_iterations=-1)[0].numpy() == 0


def test_while_loop_is_differentiable():
    x = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, y * x), [0, 1.0])[1]
    assert tape.gradient(y, x).numpy() == 12.0


@pytest.mark.parametrize("call, error, text", [
    (lambda: tf.while_loop(lambda i: i < 10, lambda i: i + 1, [0]), TypeError, "'int' object is not iterable"),
    (lambda: tf.while_loop(lambda i: i < 10, lambda i: i + 1, 0), ValueError, "'loop_vars' must be provided."),
    (lambda: tf.while_loop(lambda i: i < 10, lambda i: tf.add(i, 1), [tf.constant(0)]), TypeError,
     "Cannot iterate over a scalar tensor."),
    (lambda: tf.while_loop(lambda i: i < 10, lambda i: (i + 1, 2), [0]), ValueError,
     "The two structures don't have the same nested structure."),
    (lambda: tf.while_loop(3, lambda i: i, [0]), TypeError, "'cond' must be callable."),
    (lambda: tf.while_loop(lambda i: i < 3, 3, [0]), TypeError, "'body' must be callable."),
    (lambda: tf.while_loop(lambda i: i < 3, lambda i: [i], [0], maximum_iterations=[1, 2]), ValueError,
     "'maximum_iterations' must be a scalar."),
])
def test_while_loop_errors_are_tfs(call, error, text):
    with pytest.raises(error) as raised:
        call()
    assert str(raised.value).startswith(text)
