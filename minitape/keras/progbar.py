"""The progress ``fit``, ``evaluate`` and ``predict`` show: Keras 3's text, a line per epoch with the running means.

``verbose=1`` prints Keras' bar line (``3/3 ━━━━━━━━━━━━━━━━━━━━ 0s 5ms/step - loss: 0.2500``),
``verbose=2`` its one-line summary, ``verbose=0`` nothing.  Where a reader watches the line grow it
is redrawn as the batches go, in Keras' colours: in a terminal with ``\\r``, in a Jupyter kernel as one
output updated in place (a display id), so that a notebook run headless (nbconvert, the docs site)
keeps the finished line alone rather than every redraw.  Anywhere else (a pipe, a log file, a
doctest) only the finished line is written, plain.

Text, never a widget: a kernel cannot tell whether a live widget front-end is listening, and a widget
leaves nothing readable in nbconvert's export or on the docs site.  Keras 3 writes ``\\r`` redraws and
colours into every stream, pipes and notebooks included; the text a reader is left with is the same.

>>> from minitape.keras.progbar import ProgressBar
>>> bar = ProgressBar(steps=2, verbose=2, clock=lambda: 0.0)
>>> bar.update(1, {"loss": 0.5}); bar.update(2, {"loss": 0.25})
>>> bar.close({"loss": 0.25})
2/2 - 0s - 0s/step - loss: 0.2500
"""
from __future__ import annotations

import re
import sys
import time
from collections.abc import Callable
from typing import Any, TextIO

WIDTH = 20
INTERVAL = 0.05         # the least time between two redraws, as Keras' Progbar: each one is a message to the front-end
BOLD, GREEN, GREY, RESET = "\x1b[1m", "\x1b[32m", "\x1b[37m", "\x1b[0m"
ANSI = re.compile(r"\x1b\[\d+m")


def format_logs(logs: dict[str, float], verbose: int = 1) -> str:
    """``" - name: value"`` for each entry, as Keras writes them (4 decimals, or 4 significant digits if tiny).

    >>> from minitape.keras.progbar import format_logs
    >>> format_logs({"accuracy": 0.5, "loss": 0.00001234})
    ' - accuracy: 0.5000 - loss: 1.2340e-05'
    >>> format_logs({"loss": -0.5}), format_logs({"loss": -0.5}, verbose=2)   # Keras' verbose=2 line drops abs
    (' - loss: -0.5000', ' - loss: -5.0000e-01')
    """
    def number(value: float) -> str:
        size = abs(value) if verbose == 1 else value
        return f"{value:.4f}" if size > 1e-3 else f"{value:.4e}"
    return "".join(f" - {name}: {number(value)}" for name, value in logs.items())


def format_time(per_step: float) -> str:
    """A step's time as Keras writes it: in seconds, milliseconds or microseconds (none measured: ``0s``).

    >>> from minitape.keras.progbar import format_time
    >>> format_time(2.5), format_time(0.0052), format_time(0.0000384), format_time(0.0)
    (' 2s/step', ' 5ms/step', ' 38us/step', ' 0s/step')
    """
    if per_step >= 1 or per_step == 0:
        return f" {per_step:.0f}s/step"
    if per_step >= 1e-3:
        return f" {per_step * 1e3:.0f}ms/step"
    return f" {per_step * 1e6:.0f}us/step"


def is_live(stream: TextIO) -> bool:
    """Whether what is written to ``stream`` is drawn as it comes: a terminal, or a Jupyter kernel's output.

    >>> import io
    >>> from minitape.keras.progbar import is_live
    >>> is_live(io.StringIO())
    False
    """
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty()) or in_kernel(stream)


def in_kernel(stream: TextIO) -> bool:
    """Whether ``stream`` is a Jupyter kernel's output (ipykernel's ``OutStream``), where displays can be updated.

    >>> import sys
    >>> from minitape.keras.progbar import in_kernel
    >>> in_kernel(sys.__stdout__)
    False
    """
    return type(stream).__module__.startswith("ipykernel")


class ProgressBar:
    """One pass over ``steps`` batches, shown as ``verbose`` asks (``title``, if any, printed first).

    ``plain=True`` writes the finished line only, even to a terminal.

    >>> from minitape.keras.progbar import ProgressBar
    >>> bar = ProgressBar(steps=4, verbose=0)
    >>> bar.update(4, {"loss": 1.0}); bar.close({"loss": 1.0})       # verbose=0: silent
    """

    def __init__(self, steps: int | None, verbose: int, title: str | None = None, plain: bool = False,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        self.steps, self.verbose, self.clock = steps, verbose, clock
        self.live = verbose == 1 and not plain and is_live(sys.stdout)
        self.start = clock()
        self.first_step_end: float | None = None
        self.last_drawn: float | None = None
        self.drawn_width = 0
        self.shown_in: Any = None          # in a kernel: the display the line is updated in
        self.shown = 0
        if title and verbose:
            print(title)

    def update(self, step: int, logs: dict[str, float]) -> None:
        """Show that ``step`` of the steps are done, with the running means ``logs``.

        A live line redraws itself (at most every ``INTERVAL`` seconds); elsewhere it waits for ``close``.

        >>> from minitape.keras.progbar import ProgressBar
        >>> bar = ProgressBar(steps=3, verbose=1, clock=lambda: 0.0)
        >>> bar.update(1, {"loss": 0.5})
        >>> bar.close({"loss": 0.5})
        3/3 ━━━━━━━━━━━━━━━━━━━━ 0s 0s/step - loss: 0.5000
        """
        now = self.clock()
        if step == 1:
            self.first_step_end = now
        self.shown = step
        if self.live and (self.last_drawn is None or now - self.last_drawn >= INTERVAL):
            self._draw(self._line(step, logs, final=False))
            self.last_drawn = now

    def close(self, logs: dict[str, float]) -> None:
        """The end of the pass: the last logs (validation ones included) stay on screen.

        >>> from minitape.keras.progbar import ProgressBar
        >>> bar = ProgressBar(steps=1, verbose=2, title="Epoch 1/2", clock=lambda: 0.0)
        Epoch 1/2
        >>> bar.close({"loss": 0.5, "val_loss": 0.6})
        1/1 - 0s - 0s/step - loss: 0.5000 - val_loss: 0.6000
        """
        if self.steps is None:      # an unknown count is known at the end
            self.steps = self.shown
        if self.verbose == 1:
            self._draw(self._line(self.steps, logs), end="\n")
        elif self.verbose == 2 and self.steps:
            now = self.clock()
            print(f"{self.steps}/{self.steps} - {now - self.start:.0f}s -"
                  f"{format_time(self._per_step(self.steps, now))}{format_logs(logs, verbose=2)}")

    def _line(self, step: int, logs: dict[str, float], final: bool = True) -> str:
        """Keras' bar line: count, bar, time left (or taken, once ``final``), time per step, logs."""
        now = self.clock()
        per_step = self._per_step(step, now)
        paint = (lambda code, text: f"{code}{text}{RESET}") if self.live else (lambda code, text: text)
        if not self.steps:          # as Keras: a stream of unknown length counts up
            bar, clock = f"{step:7d}/Unknown", f"{now - self.start:.0f}s"
        else:
            done = WIDTH * step // self.steps
            bar = (paint(BOLD, f"{step:{len(str(self.steps))}d}/{self.steps}") + " "
                   + (paint(GREEN, "━" * done) if done else "") + paint(GREY, "━" * (WIDTH - done)))
            clock = f"{now - self.start:.0f}s" if final else _eta(per_step * (self.steps - step))
        return f"{bar} {paint(BOLD, clock)}{format_time(per_step)}{format_logs(logs)}"

    def _per_step(self, step: int, now: float) -> float:
        """Keras' estimate of a step's time: without the first step (warming up) once there are others."""
        if step <= 0:
            return 0.0
        if self.first_step_end is not None and step > 1:
            return (now - self.first_step_end) / (step - 1)
        return (now - self.start) / step

    def _draw(self, line: str, end: str = "") -> None:
        """A live line replaces the one before: in place in a kernel's output, else by ``\\r`` (padded over
        its tail); a plain one is printed as it is."""
        if not self.live:
            print(line)
            return
        if in_kernel(sys.stdout):
            self._show_in_kernel(line)
            return
        width = len(ANSI.sub("", line))
        sys.stdout.write("\r" + line + " " * max(self.drawn_width - width, 0) + end)
        sys.stdout.flush()
        self.drawn_width = width

    def _show_in_kernel(self, line: str) -> None:
        from IPython.display import display         # a kernel has IPython

        bundle = {"text/plain": line}
        if self.shown_in is None:
            sys.stdout.flush()                       # the title printed before stays above the line
            self.shown_in = display(bundle, raw=True, display_id=True)
        else:
            self.shown_in.update(bundle, raw=True)


def _eta(seconds: float) -> str:
    if seconds > 3600:
        return "%d:%02d:%02d" % (seconds // 3600, (seconds % 3600) // 60, seconds % 60)
    if seconds > 60:
        return "%d:%02d" % (seconds // 60, seconds % 60)
    return "%ds" % seconds


class Progbar:
    """``keras.utils.Progbar``: a bar for your own loop; ``update(current, values)`` with ``(name, value)`` pairs,
    each shown as its mean over the steps so far (the last value for ``stateful_metrics``).

    >>> import minitape as tf
    >>> bar = tf.keras.utils.Progbar(4, verbose=2)
    >>> bar.update(2, values=[("loss", 1.0)]); bar.add(2, values=[("loss", 0.5)])    # doctest: +ELLIPSIS
    4/4 - 0s - ...s/step - loss: 0.7500
    """

    def __init__(self, target: int | None, width: int = 20, verbose: int = 1, interval: float = 0.05,
                 stateful_metrics: Any = None, unit_name: str = "step") -> None:
        self.target, self.verbose = target, verbose
        self.stateful_metrics = set(stateful_metrics or ())
        self._sums: dict[str, list[float]] = {}
        self._seen_so_far = 0
        self._bar = ProgressBar(steps=target or 0, verbose=verbose)
        self._finished = False

    def update(self, current: int, values: Any = None, finalize: bool | None = None) -> None:
        """Show that ``current`` steps are done; ``values`` are ``(name, value)`` pairs for this step.

        >>> import minitape as tf
        >>> bar = tf.keras.utils.Progbar(2, verbose=0)
        >>> bar.update(1, [("acc", 0.5)]); bar.update(2, [("acc", 1.0)], finalize=True)
        """
        if finalize is None:
            finalize = self.target is not None and current >= self.target
        weight = max(current - self._seen_so_far, 1)
        for name, value in values or []:
            value = float(value)
            if name in self.stateful_metrics:
                self._sums[name] = [value, 1]
            else:
                total, count = self._sums.get(name, [0.0, 0])
                self._sums[name] = [total + value * weight, count + weight]
        self._seen_so_far = current
        logs = {name: total / max(count, 1) for name, (total, count) in self._sums.items()}
        if self._finished:
            return
        if finalize:
            self._bar.steps = current if self.target is None else self.target
            self._bar.update(current, logs)
            self._bar.close(logs)
            self._finished = True
        else:
            self._bar.update(current, logs)

    def add(self, n: int, values: Any = None) -> None:
        """``update`` by ``n`` more steps.

        >>> import minitape as tf
        >>> bar = tf.keras.utils.Progbar(3, verbose=0)
        >>> bar.add(1); bar._seen_so_far
        1
        """
        self.update(self._seen_so_far + n, values)
