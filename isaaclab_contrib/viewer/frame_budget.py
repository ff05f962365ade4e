"""FrameBudget: when the next frame may be drawn, so that drawing keeps to a rate and a share of wall time."""

from __future__ import annotations

import time
from collections.abc import Callable


class FrameBudget:
    """Decide whether a frame is due: at most ``rate_hz`` frames per second and ``max_share`` of wall time drawing.

    After a frame that took ``d`` seconds to draw, the next is due ``max(1 / rate_hz, d / max_share)`` seconds after
    that frame began; frames in between are skipped, so the caller never waits.

    Args:
        rate_hz: Most frames per second [Hz].
        max_share: Most share of wall time spent drawing, in (0, 1].
        clock: Wall clock [s] (default :func:`time.perf_counter`).

    Raises:
        ValueError: If ``rate_hz`` is not positive or ``max_share`` is outside (0, 1].
    """

    def __init__(self, *, rate_hz: float, max_share: float, clock: Callable[[], float] = time.perf_counter) -> None:
        if not rate_hz > 0.0:
            raise ValueError(f"FrameBudget rate_hz must be positive [Hz], got {rate_hz}.")
        if not 0.0 < max_share <= 1.0:
            raise ValueError(f"FrameBudget max_share must be in (0, 1], got {max_share}.")
        self.period = 1.0 / rate_hz
        self.max_share = max_share
        self.clock = clock
        self._next = -float("inf")
        self.drawn = 0
        self.draw_time = 0.0

    def due(self) -> bool:
        """Whether a frame may be drawn now."""
        return self.clock() >= self._next

    def spent(self, start: float, end: float) -> None:
        """Account a frame drawn from ``start`` to ``end`` [s, of :attr:`clock`]."""
        duration = max(0.0, end - start)
        self.drawn += 1
        self.draw_time += duration
        self._next = start + max(self.period, duration / self.max_share)
