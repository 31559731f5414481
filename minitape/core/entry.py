"""What every row of a tape offers: the interface the tape, memory accounting and pictures use.

A tape is a list of entries.  An entry records one step of the forward pass:
an op ([`OpEntry`][minitape.core.primitive.OpEntry]), or a whole call that will be
differentiated its own way (a ``recompute_grad`` call, a ``custom_gradient``, a
``checkpoint_chain``: see ``minitape.checkpointing``).  Whatever it is, it
answers the same questions, and nothing outside it looks further:

* ``inputs`` and ``outputs``: the ids of the values it read and made;
* [`Entry.backward`][minitape.core.entry.Entry.backward]: gradients of the inputs, given those of the outputs;
* [`Entry.kept`][minitape.core.entry.Entry.kept]: the values it keeps alive for that, each with its role;
* [`Entry.input_specs`][minitape.core.entry.Entry.input_specs] and
  [`Entry.output_specs`][minitape.core.entry.Entry.output_specs]: what is known of each input and output
  (the tensor, or a record of its shape and dtype);
* ``label``: a short name for pictures and listings; ``is_call``: whether it
  stands for a whole function call rather than one op.

>>> import minitape as tf
>>> x = tf.constant([1.0, 2.0])
>>> with tf.GradientTape() as tape:
...     tape.watch(x)
...     y = tf.tanh(x)
>>> (entry,) = tape.entries()
>>> entry.label, [role for role, _ in entry.kept()]
('tanh', ['output'])
"""
from __future__ import annotations

import abc
from collections.abc import Container
from typing import Any


class Entry(abc.ABC):
    """One row of a tape (see the module's docstring for what each member means)."""

    __slots__ = ()
    inputs: tuple[int, ...]
    outputs: tuple[int, ...]
    label: str
    is_call: bool = False

    @abc.abstractmethod
    def backward(self, output_grads: list[Any], needed: Container[int]) -> list[Any]:
        """Gradients of the inputs (None where an input's id is not ``needed``), given those of the outputs."""

    @abc.abstractmethod
    def kept(self) -> list[tuple[int | str, Any]]:
        """The tensors this entry keeps alive for its backward step, each with its role:
        an input's position, or a word such as ``"output"``."""

    @abc.abstractmethod
    def input_specs(self) -> list[Any]:
        """For each input: the value kept, or what is known of it (a ``Discarded`` record, a variable, or None)."""

    @abc.abstractmethod
    def output_specs(self) -> list[Any]:
        """For each output: the value kept, or a ``Discarded`` record of its shape and dtype."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.label}: inputs {self.inputs}, outputs {self.outputs}>"
