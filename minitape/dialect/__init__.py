"""The TensorFlow dialect: what makes minitape's kernel answer to ``import minitape as tf``.

The kernel (``core``, ``ops``, ``autodiff``, ``checkpointing``) is autodiff; nothing
in this package is needed to understand it.  Here are TensorFlow's namespaces and
objects around it, each module named for what a TensorFlow user calls:

* ``math``, ``linalg``, ``nn``: namespaces, the op table's rows under TF's names;
* ``config``: the settings minitape has an answer for;
* ``functions``: ``tf.function`` and ``tf.TensorSpec`` (eager: minitape has no graphs);
* ``control_flow``: ``tf.while_loop``;
* ``module``: ``tf.Module``, which finds the variables an object holds;
* ``init_ops``: TensorFlow's ``tf.*_initializer`` classes;
* ``printing``: ``tf.print``, formatted as TensorFlow prints;
* ``image``: ``tf.image``, resizing, cropping, flipping and colour ops on NHWC images.

>>> import minitape as tf
>>> tf.math.log1p is tf.ops.log1p
True
"""
