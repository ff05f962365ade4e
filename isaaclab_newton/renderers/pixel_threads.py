"""How the image kernels spread pixels over threads: a few pixels per thread, their loads issued together.

Kernels that move a few bytes per pixel (depth clipping, frame-stack copies) are bound by each thread's index
arithmetic, not by memory, when every pixel gets its own thread of a multi-dimensional launch. Thread ``t`` of ``T``
instead handles pixels ``t, t + T, ..., t + (PIXELS_PER_THREAD - 1) * T`` of a flat row: adjacent threads read
adjacent pixels, and the thread's loads go out before any of its stores.
"""

from __future__ import annotations

import warp as wp

PIXELS_PER_THREAD = 4
"""Pixels each thread handles."""

pixel_values = wp.types.vector(length=PIXELS_PER_THREAD, dtype=wp.float32)
"""One thread's pixel values (Warp vector type)."""


def thread_count(pixels: int) -> int:
    """Threads that cover ``pixels`` pixels, :data:`PIXELS_PER_THREAD` each."""
    return (pixels + PIXELS_PER_THREAD - 1) // PIXELS_PER_THREAD
