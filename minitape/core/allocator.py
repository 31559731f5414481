"""Keeping freed memory for the next arrays, instead of handing it back to the operating system.

A training step makes and frees the same large arrays every time: activations, their gradients,
a convolution's buffers.  By default glibc's ``malloc`` gives memory back to the operating system
as soon as the free space at the top of its heap passes a threshold, and serves large requests
from fresh ``mmap`` pages; either way the next step's arrays land on pages the kernel has to
fault in and zero again, one 4 KiB page at a time.

Fast path (glibc only): ``keep_freed_memory`` raises both thresholds once, at import, so freed
arrays are reused in place.  Measured on ``benchmarks/cnn_step.py``'s ResNet step, 1 thread:
about 13,000 page faults a step before, none after, and the step 0.67-0.72x the CPU time; the
price is that a process keeps up to ``TRIM`` bytes of freed memory instead of returning it.
Set ``MINITAPE_KEEP_FREED_MEMORY=0`` in the environment before importing minitape to leave
``malloc`` as it was.  Elsewhere (macOS, Windows, musl) it does nothing.

>>> from minitape.core import allocator
>>> allocator.MMAP // 2**20, allocator.TRIM // 2**20       # MiB
(32, 64)
"""
from __future__ import annotations

import ctypes
import os

M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3          # glibc's mallopt parameters (malloc.h)
MMAP = 32 << 20        # arrays up to 32 MiB come from the heap, where freed memory is reused
TRIM = 64 << 20        # free memory at the heap's top is returned to the system only past 64 MiB


def keep_freed_memory() -> bool:
    """Ask glibc's ``malloc`` to keep freed memory for reuse; True if it took the settings.

    >>> keep_freed_memory() == (allocator_is_glibc() and os.environ.get("MINITAPE_KEEP_FREED_MEMORY") != "0")
    True
    """
    libc = None if os.environ.get("MINITAPE_KEEP_FREED_MEMORY") == "0" else _glibc()
    return (libc is not None and bool(libc.mallopt(M_MMAP_THRESHOLD, MMAP))
            and bool(libc.mallopt(M_TRIM_THRESHOLD, TRIM)))


def allocator_is_glibc() -> bool:
    """Whether this process's C library is glibc, whose ``mallopt`` takes the settings above.

    >>> allocator_is_glibc() in (True, False)
    True
    """
    return _glibc() is not None


def _glibc() -> ctypes.CDLL | None:
    """This process's C library, if it is glibc (it has ``mallopt``); else None."""
    try:
        libc = ctypes.CDLL(None)
    except OSError:                                   # Windows: no process-wide C library to open
        return None
    return libc if hasattr(libc, "gnu_get_libc_version") and hasattr(libc, "mallopt") else None
