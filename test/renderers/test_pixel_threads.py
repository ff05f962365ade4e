"""pixel_threads: the thread count that spreads an image row over threads, a few pixels each."""

from __future__ import annotations

import pytest

from isaaclab_newton.renderers.pixel_threads import PIXELS_PER_THREAD, thread_count


@pytest.mark.parametrize("pixels", [1, PIXELS_PER_THREAD - 1, PIXELS_PER_THREAD, 35, 10_000, 10_001])
def test_threads_cover_every_pixel_once_with_no_idle_thread(pixels):
    """Thread t of T handles pixels t, t + T, ...: together they cover 0..pixels-1 exactly once, none left idle."""
    threads = thread_count(pixels)
    covered = [t + u * threads for t in range(threads) for u in range(PIXELS_PER_THREAD)]
    covered = [p for p in covered if p < pixels]
    assert sorted(covered) == list(range(pixels))
    assert all(t < pixels for t in range(threads))  # every thread's first pixel exists
