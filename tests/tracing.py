"""Measuring what a forward pass leaves alive, with tracemalloc (shared by the memory tests)."""
import gc
import tracemalloc

import minitape as tf


def traced_forward(forward, x):
    """Run ``forward(x)`` on a tape; return the tape, the result, and the bytes allocated during
    the forward pass that are still alive after it (tracemalloc: the tape's holdings plus the result)."""
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        with tf.GradientTape() as tape:
            out = forward(x)
        gc.collect()
        traced = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    return tape, out, traced
