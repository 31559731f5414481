"""Autodiff: the tape, the backward pass that plays it in reverse, Jacobians and memory accounting.

* [`backward`][minitape.autodiff.backward]: the backward loop;
* ``tape``: ``GradientTape``;
* ``jacobians``: ``jacobian`` and ``batch_jacobian``;
* ``memory``: how many bytes a tape holds;
* ``requests``: targets, sources and seeds.

>>> import minitape as tf
>>> tf.autodiff.tape.GradientTape is tf.GradientTape
True
"""
from minitape.autodiff import backward, jacobians, memory, requests, tape  # noqa: F401
