"""FrameBudget: frames at most at the rate, and drawing at most its share of wall time (on a stepped clock)."""

from __future__ import annotations

import pytest

from isaaclab_contrib.viewer.frame_budget import FrameBudget


class SteppedClock:
    """A clock that reads what the test sets [s]."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _draw_loop(budget: FrameBudget, clock: SteppedClock, *, step_s: float, draw_s: float, steps: int) -> None:
    """Env steps of ``step_s`` seconds, each followed by a frame of ``draw_s`` seconds where one is due."""
    for _ in range(steps):
        clock.now += step_s
        if budget.due():
            start = clock.now
            clock.now += draw_s
            budget.spent(start, clock.now)


def test_fast_frames_keep_to_the_rate():
    """Cheap frames after 1 ms env steps are drawn at most, and nearly, 30 times per second at 30 Hz."""
    clock = SteppedClock()
    budget = FrameBudget(rate_hz=30.0, max_share=0.03, clock=clock)
    _draw_loop(budget, clock, step_s=1e-3, draw_s=1e-5, steps=10_000)
    assert 0.95 * 30 * clock.now <= budget.drawn <= 30 * clock.now + 1  # frames fall on 1 ms step boundaries


def test_slow_frames_keep_to_the_wall_share():
    """Frames of 20 ms take at most 3 % of wall time: frames are skipped, no step waits."""
    clock = SteppedClock()
    budget = FrameBudget(rate_hz=30.0, max_share=0.03, clock=clock)
    _draw_loop(budget, clock, step_s=1e-3, draw_s=20e-3, steps=20_000)
    assert budget.draw_time / clock.now <= 0.03 + 20e-3 / clock.now
    assert budget.drawn > 1


@pytest.mark.parametrize(("rate_hz", "max_share"), [(0.0, 0.03), (30.0, 0.0), (30.0, 1.5)])
def test_bad_budget_is_refused(rate_hz, max_share):
    """A rate that is not positive or a share outside (0, 1] is refused by name."""
    with pytest.raises(ValueError, match="FrameBudget"):
        FrameBudget(rate_hz=rate_hz, max_share=max_share)
