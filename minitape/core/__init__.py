"""The core: values and the machinery every op runs through, with no op, tape or picture in it.

In import order: :mod:`~minitape.core.dtypes`, :mod:`~minitape.core.errors`,
:mod:`~minitape.core.backends` (where arrays live), :mod:`~minitape.core.nest`,
:mod:`~minitape.core.state` (which tapes are recording), :mod:`~minitape.core.events`,
:mod:`~minitape.core.tensor`, :mod:`~minitape.core.random`,
:mod:`~minitape.core.entry` (what a tape entry offers) and
:mod:`~minitape.core.primitive` (``Op``, ``apply``, ``OpEntry``).

>>> import minitape as tf
>>> tf.core.primitive.apply is tf.ops.apply
True
"""
