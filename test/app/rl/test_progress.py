"""Progress history, learning curve and final line of a training run."""

from __future__ import annotations

import math

import pytest

from isaaclab_contrib.app.rl.progress import IterationRecord, final_line, write_history_csv, write_learning_curve


def _history():
    return [
        IterationRecord(0, math.nan, math.nan, 1000.0, 0.5, 0.1, 0.6, 600),
        IterationRecord(1, 12.5, 150.0, 1100.0, 0.5, 0.1, 1.2, 1200),
        IterationRecord(2, 20.25, 290.5, 1200.0, 0.5, 0.1, 1.8, 1800),
    ]


def test_final_line_reports_last_iteration():
    """The final line carries the last iteration's reward and length and the iteration count."""
    assert final_line(_history()) == "final mean_reward=20.250 mean_episode_length=290.5 iterations=3"


def test_final_line_without_iterations_raises():
    """A run that did not iterate has nothing to report."""
    with pytest.raises(ValueError, match="No training iteration"):
        final_line([])


def test_history_csv_has_one_row_per_iteration(tmp_path):
    """progress.csv holds a header and one row per iteration."""
    path = tmp_path / "progress.csv"
    write_history_csv(_history(), path)
    lines = path.read_text().splitlines()
    assert lines[0].startswith("iteration,mean_reward,mean_episode_length,env_steps_per_s")
    assert len(lines) == 4


def test_learning_curve_is_a_png(tmp_path):
    """The learning curve is written as a PNG image."""
    path = tmp_path / "curve.png"
    write_learning_curve(_history(), path, title="test")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
