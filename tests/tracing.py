"""Measuring what a forward pass leaves alive, with tracemalloc (shared by the memory tests).

On the GPU the tensors live in CuPy's memory pool, which tracemalloc does not see: its bytes in use count too.
"""
import gc
import tracemalloc

import minitape as tf


def device_bytes():
    """Bytes in use in the current backend's device memory (0 on the host backends)."""
    if tf.backends.current().name != "cupy":
        return 0
    import cupy
    return cupy.get_default_memory_pool().used_bytes()


def traced_forward(forward, x):
    """Run ``forward(x)`` on a tape; return the tape, the result, and the bytes allocated during
    the forward pass that are still alive after it (tracemalloc: the tape's holdings plus the result)."""
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0] + device_bytes()
        with tf.GradientTape() as tape:
            out = forward(x)
        gc.collect()
        traced = tracemalloc.get_traced_memory()[0] + device_bytes() - before
    finally:
        tracemalloc.stop()
    return tape, out, traced
