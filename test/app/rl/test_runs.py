"""Run folders and checkpoint resolution of the rsl-rl glue."""

from __future__ import annotations

import re

import pytest

from isaaclab_contrib.app.rl.runs import checkpoint_iteration, new_run_dir, resolve_checkpoint


def _touch(path):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"")
    return path


def test_new_run_dir_is_timestamp_and_run_name(tmp_path):
    """A run folder is logs/rsl_rl/<experiment>/<YYYY-MM-DD_HH-MM-SS>_<run_name>."""
    run = new_run_dir("cartpole", run_name="wide", log_root=tmp_path)
    assert run.parent == tmp_path.resolve() / "rsl_rl" / "cartpole"
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}_wide", run.name)


def test_latest_picks_newest_run_and_highest_iteration(tmp_path):
    """`latest` is the newest run's checkpoint with the highest iteration (10 beats 9 numerically)."""
    root = tmp_path / "rsl_rl" / "exp"
    _touch(root / "2026-01-01_00-00-00" / "model_99.pt")
    _touch(root / "2026-02-01_00-00-00" / "model_9.pt")
    newest = _touch(root / "2026-02-01_00-00-00" / "model_10.pt")
    (root / "2026-03-01_00-00-00").mkdir()  # a run that has not saved yet is skipped
    assert resolve_checkpoint("latest", "exp", log_root=tmp_path) == newest.resolve()


def test_run_folder_resolves_to_its_last_checkpoint(tmp_path):
    """A run folder given as --checkpoint resolves to its highest-iteration model."""
    run = tmp_path / "run"
    _touch(run / "model_0.pt")
    last = _touch(run / "model_50.pt")
    assert resolve_checkpoint(str(run), "exp") == last.resolve()


def test_missing_checkpoint_names_the_place_searched(tmp_path):
    """No run to resume from raises FileNotFoundError naming the experiment folder."""
    with pytest.raises(FileNotFoundError, match="rsl_rl/exp"):
        resolve_checkpoint("latest", "exp", log_root=tmp_path)


def test_non_checkpoint_file_is_rejected(tmp_path):
    """A file not named model_<n>.pt is refused with the expected name."""
    with pytest.raises(ValueError, match="model_<iteration>.pt"):
        checkpoint_iteration(_touch(tmp_path / "policy.pt"))


def test_checkpoint_of_another_task_is_refused_by_name(tmp_path):
    """A checkpoint whose run trained another task names that task and how to play it."""
    from isaaclab_contrib.app.rl.runs import check_checkpoint_task, write_task_id

    write_task_id(tmp_path, "Isaac-Ant-Direct-v0")
    with pytest.raises(ValueError, match=r"trained on Isaac-Ant-Direct-v0.*--task Isaac-Ant-Direct-v0"):
        check_checkpoint_task(tmp_path / "model_3.pt", "Isaac-Cartpole-Direct-v0")
    check_checkpoint_task(tmp_path / "model_3.pt", "Isaac-Ant-Direct-v0")
