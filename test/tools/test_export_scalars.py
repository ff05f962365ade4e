"""scripts/tools/export_scalars.py: a run's TensorBoard scalars as one CSV row per iteration."""

from __future__ import annotations

import csv
import runpy
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "tools" / "export_scalars.py"


@pytest.fixture(scope="module")
def export_main():
    """The script's ``main``, loaded by path (scripts are not a package)."""
    return runpy.run_path(str(SCRIPT))["main"]


@pytest.fixture
def run_dir(tmp_path: Path) -> Path:
    """A run folder with two tags over three iterations, written the way rsl-rl writes them."""
    from torch.utils.tensorboard import SummaryWriter

    writer = SummaryWriter(log_dir=str(tmp_path))
    for it, value in enumerate((0.2, 1.3, 1.4)):
        writer.add_scalar("Episode_Reward/track_lin_vel_xy_exp", value, it)
        writer.add_scalar("Train/mean_reward", 10.0 * value, it)
    writer.close()
    return tmp_path


def test_prefix_tags_written_per_iteration_with_threshold(export_main, run_dir, capsys):
    """A tag prefix selects its tags; rows hold the values per iteration; the threshold names the first iteration."""
    export_main([str(run_dir), "--tags", "Episode_Reward/", "--threshold", "1.2"])
    with open(run_dir / "scalars.csv") as f:
        rows = list(csv.DictReader(f))
    assert [r["iteration"] for r in rows] == ["0", "1", "2"]
    assert list(rows[0]) == ["iteration", "Episode_Reward/track_lin_vel_xy_exp"]
    assert float(rows[2]["Episode_Reward/track_lin_vel_xy_exp"]) == pytest.approx(1.4)
    assert "first >= 1.2 at iteration 1" in capsys.readouterr().out


def test_unknown_tag_names_the_available_ones(export_main, run_dir):
    """A tag the run does not hold is refused with the list of tags it has."""
    with pytest.raises(SystemExit, match=r"No scalars \['Curriculum/'\].*Train/mean_reward"):
        export_main([str(run_dir), "--tags", "Curriculum/"])


def test_folder_without_events_is_refused(export_main, tmp_path):
    """A folder without event files is refused, naming what to pass."""
    with pytest.raises(SystemExit, match="no TensorBoard event files"):
        export_main([str(tmp_path)])
