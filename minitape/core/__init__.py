"""The core: values and the machinery every op runs through, with no op, tape or picture in it.

In import order: [`dtypes`][minitape.dtypes], ``errors``,
[`backends`][minitape.backends] (where arrays live), ``nest``,
[`state`][minitape.core.state] (which tapes are recording), [`events`][minitape.events],
``tensor_shape``, ``tensor``, [`random`][minitape.random],
[`entry`][minitape.core.entry] (what a tape entry offers) and
[`primitive`][minitape.core.primitive] (``Op``, ``apply``, ``OpEntry``).

>>> import minitape as tf
>>> tf.core.primitive.apply is tf.ops.apply
True
"""
