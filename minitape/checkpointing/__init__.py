"""Checkpointing: recording a whole call instead of its ops, and differentiating it another way.

* [`call`][minitape.checkpointing.call]: what every call entry shares, and ``is_recomputing``;
* [`recompute`][minitape.checkpointing.recompute]: ``recompute_grad``, which runs the call again;
* ``replay``: what running a call again as it first ran needs (seeds, settings, stack room);
* ``custom``: ``custom_gradient``, whose VJP is written by hand;
* [`revolve`][minitape.checkpointing.revolve]: the binomial schedule, as a plan;
* ``schedules``: ``checkpoint_sequential`` and ``checkpoint_chain``.

>>> import minitape as tf
>>> tf.checkpointing.revolve.chain_schedule(3, 2).recomputations
2
"""
from minitape.checkpointing import call, custom, recompute, replay, revolve, schedules  # noqa: F401
from minitape.checkpointing.call import is_recomputing  # noqa: F401
