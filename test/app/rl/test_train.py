"""Training-run behaviour that needs no environment."""

from __future__ import annotations

import pytest
from conftest import TEST_DEVICE

from isaaclab_contrib.app.rl.train import main


def test_checkpoint_without_resume_is_refused():
    """--checkpoint on train.py without --resume is an error naming --resume."""
    with pytest.raises(SystemExit, match="--resume"):
        main(["--task", "Isaac-Cartpole-Direct-v0", "--checkpoint", "latest"])


def test_unknown_task_names_the_closest_ids():
    """An unknown --task exits naming the closest registered ids."""
    with pytest.raises(SystemExit, match="did you mean 'Isaac-Cartpole-Direct-v0'"):
        main(["--task", "Isaac-Cartpole-Direkt-v0", "--device", TEST_DEVICE])


def test_distributed_outside_torchrun_is_refused(monkeypatch):
    """--distributed without torchrun's LOCAL_RANK says to launch with torchrun."""
    monkeypatch.delenv("LOCAL_RANK", raising=False)
    with pytest.raises(SystemExit, match="torchrun"):
        main(["--task", "Isaac-Cartpole-Direct-v0", "--distributed"])


@pytest.mark.parametrize("arg", [["--num_envs", "0"], ["--max_iterations", "-5"]])
def test_non_positive_counts_are_refused(arg, capsys):
    """--num_envs 0 or --max_iterations -5 stop at argument parsing with 'must be at least 1'."""
    with pytest.raises(SystemExit):
        main(["--task", "Isaac-Cartpole-Direct-v0", *arg])
    assert "must be at least 1" in capsys.readouterr().err


def test_preset_token_must_name_presets(capsys):
    """A trailing token other than presets=NAME[,NAME] stops at argument parsing, quoting the expected form."""
    with pytest.raises(SystemExit):
        main(["--task", "Isaac-Cartpole-Direct-v0", "depth"])
    assert "presets=NAME" in capsys.readouterr().err


def test_presets_on_a_versioned_task_are_refused():
    """presets= applies to isaaclab_tasks ids; on one of ours (-v0) it exits naming that."""
    with pytest.raises(SystemExit, match="isaaclab_tasks"):
        main(["--task", "Isaac-Cartpole-Direct-v0", "--device", TEST_DEVICE, "presets=depth"])


def test_upstream_task_with_presets_passes_the_checks_and_plays_latest(tmp_path):
    """An isaaclab_tasks id with presets=depth passes play.py's checks, 'latest' finds its run without
    --experiment_name, and its cfgs (loaded after the checks registered ours) are the depth camera and CNN agent.
    """
    import subprocess
    import sys

    run = tmp_path / "rsl_rl" / "cartpole_camera_direct" / "2026-01-01_00-00-00"
    run.mkdir(parents=True)
    (run / "model_3.pt").write_bytes(b"")
    argv = [
        "--task",
        "Isaac-Cartpole-Camera-Direct",
        "--device",
        TEST_DEVICE,
        "--log_root",
        str(tmp_path),
        "presets=depth",
    ]
    code = (
        "from isaaclab_contrib.app.rl.cli import parse_play_args\n"
        "from isaaclab_contrib.app.rl.session import load_task_cfgs\n"
        f"args, _ = parse_play_args({argv!r})\n"
        "env, agent = load_task_cfgs(args)\n"
        "print(args.checkpoint, env.scene.tiled_camera.data_types, type(agent).__name__, env.observation_space)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600, check=True)
    expected = f"{run / 'model_3.pt'} ['depth'] CartpoleCameraDirectPPORunnerCfg [1, 96, 96]"
    assert out.stdout.strip().splitlines()[-1] == expected
