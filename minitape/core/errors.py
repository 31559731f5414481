"""The errors minitape raises where TensorFlow raises its own: the same classes, by the same names.

An op's error says what TF's says (see ``messages``), so ``except tf.errors.InvalidArgumentError``
in code written for TensorFlow catches what it caught there.
"""


class OpError(Exception):
    """An op could not run on the inputs it was given: the base of minitape's op errors.

    >>> import minitape as tf
    >>> issubclass(tf.errors.InvalidArgumentError, tf.errors.OpError)
    True
    """


class InvalidArgumentError(OpError):
    """An op was given inputs of the wrong dtype, shape or value (TF's ``InvalidArgumentError``).

    >>> import minitape as tf
    >>> tf.matmul(tf.ones((2, 3)), tf.ones((2, 3)))
    Traceback (most recent call last):
    ...
    minitape.core.errors.InvalidArgumentError: matmul: shapes (2, 3) and (2, 3) do not match (inner dimensions 3 vs 2).
    """


class OutOfRangeError(OpError):
    """A read went past the end of what there was (TF's ``OutOfRangeError``), as ``tf.scan`` of nothing.

    >>> import minitape as tf
    >>> tf.scan(lambda total, x: total + x, tf.zeros((0,)))
    Traceback (most recent call last):
    ...
    minitape.core.errors.OutOfRangeError: Tried to read from index 0 but array size is: 0 ...
    """


class UnimplementedError(OpError):
    """An op was asked for something TensorFlow does not do either, here (TF's ``UnimplementedError``).

    >>> import minitape as tf
    >>> tf.nn.conv2d(tf.ones((1, 1, 2, 2)), tf.ones((1, 1, 2, 1)), strides=1, padding="SAME", data_format="NCHW")
    Traceback (most recent call last):
    ...
    minitape.core.errors.UnimplementedError: conv2d: ... only supports the NHWC tensor format, as TF...s on the CPU. ...
    """


class DeviceNotFoundError(RuntimeError):
    """A device was asked for that this machine does not have (a GPU without CuPy or CUDA).

    >>> import minitape as tf
    >>> with tf.device("CPU:1"):
    ...     pass
    Traceback (most recent call last):
    ...
    minitape.core.errors.DeviceNotFoundError: minitape has one CPU device, CPU:0; got 'CPU:1'.
    """



class NotFoundError(OpError):
    """No kernel runs the op for these dtypes here (TF's ``NotFoundError``: "Could not find device for node").

    >>> import minitape as tf
    >>> tf.tensor_scatter_nd_add([True], [[0]], [True])
    Traceback (most recent call last):
    ...
    minitape.core.errors.NotFoundError: Could not find device for node: {{node TensorScatterAdd}} = TensorScatterAdd[T=DT_BOOL, Tindices=DT_INT32, bad_indices_policy=""]
    TensorScatterAdd adds numbers: tf.cast a bool tensor to tf.int32 first.
    """


class NotKeptError(OpError):
    """A VJP used a value that its op does not ``keep`` (minitape's own: for people writing ops).

    The tape keeps only what an op's ``keep`` names; of every other input and of the output it keeps
    a ``Discarded`` record, whose shape and dtype a VJP may read but whose numbers it may not use.

    >>> import minitape as tf
    >>> from minitape.core.primitive import Op, apply
    >>> tanh = Op("tanh", lambda xp, x: xp.tanh(x), (lambda g, ans, x: g * (1 - ans * ans),))   # no keep
    >>> x = tf.constant([0.5, 1.0])
    >>> with tf.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = apply(tanh, (x,))
    >>> tape.gradient(y, x)
    Traceback (most recent call last):
    ...
    minitape.core.errors.NotKeptError: tanh: the VJP of input 0 used the output, which tanh does not keep: the tape holds only a record of shape (2,) and dtype float32. Add ANS to tanh's keep=.
    """


class GradientShapeError(OpError):
    """A VJP returned a gradient of another shape or dtype than its input (minitape's own: for people writing ops).

    >>> import minitape as tf
    >>> from minitape.core.primitive import Op, apply
    >>> total = Op("total", lambda xp, x: xp.sum(x), (lambda g, ans, x: g,))     # g is a scalar; x is not
    >>> x = tf.constant([1.0, 2.0, 3.0])
    >>> with tf.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = apply(total, (x,))
    >>> tape.gradient(y, x)
    Traceback (most recent call last):
    ...
    minitape.core.errors.GradientShapeError: total: the VJP of input 0 returned a gradient of shape () and dtype float32, but input 0 has shape (3,) and dtype float32. A gradient has its input's shape: ...
    """


class DataLossError(OpError):
    """A file could not be read as what it should be (TF's ``DataLossError``), as a checkpoint in another format.

    >>> import minitape as tf, tempfile
    >>> path = f"{tempfile.mkdtemp()}/ckpt-1"
    >>> for suffix in (".index", ".data-00000-of-00001"):
    ...     _ = open(path + suffix, "w").write("not minitape")
    >>> tf.train.Checkpoint(v=tf.Variable(1.0)).restore(path)
    Traceback (most recent call last):
    ...
    minitape.core.errors.DataLossError: Unable to read the checkpoint .../ckpt-1: its .index file is not minitape's ...
    """
