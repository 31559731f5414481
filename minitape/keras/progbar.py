"""The progress ``fit``, ``evaluate`` and ``predict`` show: a bar per epoch, the running means beside it.

``verbose=1`` draws a bar: tqdm's where tqdm is installed (the notebooks' and the dev extras
install it: in JupyterLab it is a widget), otherwise Keras' own text bar.  ``verbose=2``
prints one line per epoch; ``verbose=0`` nothing.

>>> from minitape.keras.progbar import ProgressBar
>>> bar = ProgressBar(steps=2, verbose=2, clock=lambda: 0.0)
>>> bar.update(1, {"loss": 0.5}); bar.update(2, {"loss": 0.25})
>>> bar.close({"loss": 0.25})
2/2 - 0s - 0ms/step - loss: 0.2500
"""
from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any

WIDTH = 20


def format_logs(logs: dict[str, float]) -> str:
    """``" - name: value"`` for each entry, as Keras writes them (4 decimals, or 4 significant digits if tiny).

    >>> from minitape.keras.progbar import format_logs
    >>> format_logs({"accuracy": 0.5, "loss": 0.00001234})
    ' - accuracy: 0.5000 - loss: 1.2340e-05'
    """
    return "".join(f" - {name}: {value:.4f}" if abs(value) > 1e-3 else f" - {name}: {value:.4e}"
                   for name, value in logs.items())


def _tqdm() -> Any:
    try:
        from tqdm.auto import tqdm
    except ImportError:             # tqdm is not a dependency of minitape itself
        return None
    return tqdm


class ProgressBar:
    """One pass over ``steps`` batches, shown as ``verbose`` asks.

    >>> from minitape.keras.progbar import ProgressBar
    >>> bar = ProgressBar(steps=4, verbose=0)
    >>> bar.update(4, {"loss": 1.0}); bar.close({"loss": 1.0})       # verbose=0: silent
    """

    def __init__(self, steps: int | None, verbose: int, title: str | None = None, plain: bool = False,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        self.steps, self.verbose, self.clock = steps, verbose, clock
        self.start = clock()
        tqdm = None if plain or verbose != 1 else _tqdm()
        self.tqdm = tqdm(total=steps, desc=title, unit="step", leave=True) if tqdm else None
        if title and verbose and self.tqdm is None:
            print(title)
        self.shown = 0

    def update(self, step: int, logs: dict[str, float]) -> None:
        """Show that ``step`` of the steps are done, with the running means ``logs``.

        The text bar redraws itself in a terminal; elsewhere (a log file) it waits for ``close``.

        >>> from minitape.keras.progbar import ProgressBar
        >>> bar = ProgressBar(steps=3, verbose=1, plain=True, clock=lambda: 0.0)
        >>> bar.update(1, {"loss": 0.5})
        >>> bar.close({"loss": 0.5})
        3/3 ━━━━━━━━━━━━━━━━━━━━ 0s 0ms/step - loss: 0.5000
        """
        if self.tqdm is not None:
            self.tqdm.set_postfix_str(format_logs(logs)[3:], refresh=False)
            self.tqdm.update(step - self.shown)
        elif self.verbose == 1 and sys.stdout.isatty():
            print("\r" + self._line(step, logs), end="", flush=True)
        self.shown = step

    def close(self, logs: dict[str, float]) -> None:
        """The end of the pass: the last logs (validation ones included) stay on screen.

        >>> from minitape.keras.progbar import ProgressBar
        >>> bar = ProgressBar(steps=1, verbose=2, title="Epoch 1/1", clock=lambda: 0.0)
        Epoch 1/1
        >>> bar.close({"loss": 0.5, "val_loss": 0.6})
        1/1 - 0s - 0ms/step - loss: 0.5000 - val_loss: 0.6000
        """
        elapsed = self.clock() - self.start
        steps = self.shown if self.steps is None else self.steps      # an unknown count is known at the end
        if self.tqdm is not None:
            self.tqdm.set_postfix_str(format_logs(logs)[3:])
            self.tqdm.close()
        elif self.verbose == 1:
            print(("\r" if sys.stdout.isatty() else "") + self._line(steps, logs, steps), flush=True)
        elif self.verbose == 2:
            print(f"{steps}/{steps} - {elapsed:.0f}s - {_per_step(elapsed, steps)}{format_logs(logs)}")

    def _line(self, step: int, logs: dict[str, float], steps: int | None = None) -> str:
        elapsed = self.clock() - self.start
        steps = self.steps if steps is None else steps
        if steps is None:           # as Keras: a stream of unknown length counts up
            return f"{step:7d}/Unknown {elapsed:.0f}s {_per_step(elapsed, step)}{format_logs(logs)}"
        done = WIDTH * step // max(steps, 1)
        bar = "━" * done + "─" * (WIDTH - done)
        return f"{step}/{steps} {bar} {elapsed:.0f}s {_per_step(elapsed, step)}{format_logs(logs)}"


def _per_step(elapsed: float, steps: int) -> str:
    per_step = elapsed / max(steps, 1)
    return f"{per_step:.0f}s/step" if per_step >= 1 else f"{per_step * 1e3:.0f}ms/step"


class Progbar:
    """``keras.utils.Progbar``: a bar for your own loop; ``update(current, values)`` with ``(name, value)`` pairs,
    each shown as its mean over the steps so far (the last value for ``stateful_metrics``).

    >>> import minitape as tf
    >>> bar = tf.keras.utils.Progbar(4, verbose=2)
    >>> bar.update(2, values=[("loss", 1.0)]); bar.add(2, values=[("loss", 0.5)])    # doctest: +ELLIPSIS
    4/4 - 0s - ...ms/step - loss: 0.7500
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
