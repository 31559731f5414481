"""Autodiff: the tape, the backward pass that plays it in reverse, Jacobians and memory accounting.

* :mod:`~minitape.autodiff.backward`: the backward loop;
* :mod:`~minitape.autodiff.tape`: ``GradientTape``;
* :mod:`~minitape.autodiff.jacobians`: ``jacobian`` and ``batch_jacobian``;
* :mod:`~minitape.autodiff.memory`: how many bytes a tape holds;
* :mod:`~minitape.autodiff.requests`: targets, sources and seeds.

>>> import minitape as tf
>>> tf.autodiff.tape.GradientTape is tf.GradientTape
True
"""
from minitape.autodiff import backward, jacobians, memory, requests, tape  # noqa: F401
