"""A scene's handlers of a gradient call's events: the backward pass, as a picture tells it.

A value's ``grad`` is written when the backward pass has it complete: an entry's outputs when
the entry is reached, the tape's leaves when the pass ends; a new ``gradient`` call clears
the last one's numbers.  When the tape lets go, the values it alone kept are drawn released.
A recomputation's local tape closes its row when its own gradient ends.  ``Scene`` (in
``minitape.viz.scene``) draws with these.

>>> import minitape as tf
>>> x = tf.constant(0.0)
>>> with tf.events.timeline() as events:
...     with tf.GradientTape() as tape:
...         tape.watch(x)
...         y = tf.exp(x)                          # exp keeps its output: 4 bytes
...     _ = tape.gradient(y, x)
>>> scene = events.scene()
>>> scene.phase, scene.said, [value.grad for value in scene.values.values()]
('done', 'gradient done: the tape let go of what it held (4 bytes)', [np.float32(1.0), np.float32(1.0)])
"""
from __future__ import annotations

from typing import Any


class BackwardPass:
    """The ``gradient_start``, ``backward_step`` and ``gradient_end`` handlers of ``Scene``."""

    def _on_gradient_start(self, tape: Any, memory: dict) -> None:
        local = self._scope(tape)
        self.tapes.remember(tape, memory)
        self._passes[id(tape)] = {}
        if local is None:             # a new gradient: the last one's numbers leave the picture
            for key, node in self.values.items():
                if node.grad is not None:
                    node.grad = None
                    self.dirty.add(key)
            for key, op in self.ops.items():
                if op.done:
                    op.done = False
                    self.dirty.add(key)
            self.phase = "backward"
            self.said = f"{self.tapes.label(tape)}.gradient: playing the tape backwards, last entry first"

    def _on_backward_step(self, tape: Any, entry: Any, output_grads: list, input_grads: list,
                          memory: Any = None) -> None:
        local = self._locals.get(id(tape))
        self.tapes.remember(tape, memory)
        key = (self._entries if local is None else local.entries).get(id(entry))
        if key is None or id(tape) not in self._passes:
            return
        ids = self._ids if local is None else local.ids
        for i, g in zip(entry.outputs, output_grads):          # complete: every later entry has run
            if g is not None and i in ids:
                self.values[ids[i]].grad = g.numpy()
                self.dirty.add(ids[i])
        flowing = self._passes[id(tape)]
        for i, g in zip(entry.inputs, input_grads):
            if g is not None:
                flowing[i] = flowing[i] + g.numpy() if i in flowing else g.numpy()
        self.ops[key].done = True
        self._set_current(key)
        self.said = f"backward through {self.ops[key].name}: gradients flow to its inputs"

    def _on_gradient_end(self, tape: Any, memory: dict) -> None:
        local = self._locals.get(id(tape))
        held = self.tapes.held(tape)
        self.tapes.remember(tape, memory)
        ids = self._ids if local is None else local.ids
        for i, g in self._passes.pop(id(tape), {}).items():        # the leaves' gradients are complete now
            if i in ids and self.values[ids[i]].grad is None:
                self.values[ids[i]].grad = g
                self.dirty.add(ids[i])
        for key in self.tapes.release(tape) if memory["current"] == 0 else []:
            self.values[key].released = True
            self.dirty.add(key)
        if local is not None:
            del self._locals[id(tape)]
            self.tapes.close(tape)
            if local.cluster is not None:
                self._cluster(local.cluster, "cluster-done")
            self.said = f"the local tape lets go of the recomputation ({held:,} bytes)"
        else:
            self.phase = "done"
            self._set_current(None)
            let_go = memory["current"] == 0 and held
            self.said = "gradient done" + (f": the tape let go of what it held ({held:,} bytes)" if let_go else "")
