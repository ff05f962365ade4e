"""Script arguments refused before torch, Warp or Newton load: devices, tasks, counts, checkpoint paths."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

from isaaclab_contrib.app import args as script_args

ROOT = Path(__file__).resolve().parents[2]
TRAIN = ROOT / "scripts" / "reinforcement_learning" / "rsl_rl" / "train.py"
PLAY = ROOT / "scripts" / "reinforcement_learning" / "rsl_rl" / "play.py"
ZERO = ROOT / "scripts" / "environments" / "zero_agent.py"

_PROBE = """
import runpy, sys
script, *argv = sys.argv[1:]
sys.argv = [script, *argv]
try:
    runpy.run_path(script, run_name="__main__")
finally:
    heavy = sorted(m for m in ("torch", "warp", "newton", "isaaclab.sim") if m in sys.modules)
    print("HEAVY", heavy, file=sys.stderr)
"""


def _refusal(script: Path, *argv: str) -> str:
    """Run ``script argv``; assert it exits with an error before importing anything heavy; return its stderr."""
    result = subprocess.run(
        [sys.executable, "-c", _PROBE, str(script), *argv], capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode != 0, result.stdout[-2000:]
    assert "HEAVY []" in result.stderr, result.stderr[-2000:]
    return result.stderr


def test_unknown_device_is_refused_with_the_names_to_use():
    """--device bogus names cpu and cuda:<index>."""
    with pytest.raises(argparse.ArgumentTypeError, match="use cpu, cuda or cuda:<index>"):
        script_args.device_arg("bogus")


def test_cuda_without_driver_is_refused_by_name(monkeypatch):
    """cuda:0 on a machine without an NVIDIA driver says so and names --device cpu."""
    monkeypatch.setattr(script_args, "cuda_device_count", lambda: None)
    with pytest.raises(argparse.ArgumentTypeError, match=r"cuda:0 needs an NVIDIA driver.*--device cpu"):
        script_args.device_arg("cuda:0")


def test_missing_cuda_index_names_the_devices_there_are(monkeypatch):
    """cuda:3 on a one-GPU machine lists cuda:0."""
    monkeypatch.setattr(script_args, "cuda_device_count", lambda: 1)
    with pytest.raises(argparse.ArgumentTypeError, match=r"cuda:3 does not exist.*cuda:0"):
        script_args.device_arg("cuda:3")
    assert script_args.device_arg("cuda:0") == "cuda:0"


def test_upstream_task_ids_are_read_without_importing_isaaclab_tasks():
    """isaaclab_tasks' registered ids (e.g. the unversioned cartpole) are found from its sources."""
    assert "Isaac-Cartpole-Direct" in script_args.upstream_task_ids()
    script_args.check_task("Isaac-Cartpole-Direct", upstream=True)


def test_upstream_task_checked_then_loaded_in_one_process():
    """train.py's early check of an upstream id leaves isaaclab_tasks importable (no clash with our -v0 ids)."""
    code = (
        "from isaaclab_contrib.app.rl.cli import parse_train_args\n"
        "from isaaclab_contrib.app.rl.session import load_task_cfgs\n"
        "args, _ = parse_train_args(['--task', 'Isaac-Cartpole-Camera-Direct', '--device', 'cpu'])\n"
        "env_cfg, agent_cfg = load_task_cfgs(args.task, args.presets)\n"
        "print(type(env_cfg).__name__, agent_cfg.num_steps_per_env)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "CartpoleCameraEnvCfg" in result.stdout


def test_task_without_agent_names_the_tasks_that_train():
    """A task without rsl_rl_cfg_entry_point is refused for training, naming the trainable tasks."""
    with pytest.raises(SystemExit, match=r"registers no rsl_rl agent cfg.*Isaac-Cartpole-Direct-v0"):
        script_args.check_task("Isaac-Lift-Soft-Franka-v0", agent="rsl_rl")


def test_unversioned_name_of_ours_suggests_the_version():
    """Isaac-Cartpole-Direct without upstream tasks suggests Isaac-Cartpole-Direct-v0."""
    with pytest.raises(SystemExit, match=r"did you mean Isaac-Cartpole-Direct-v0"):
        script_args.check_task("Isaac-Cartpole-Direct")


@pytest.mark.parametrize(
    ("script", "argv", "message"),
    [
        (TRAIN, ["--help"], None),
        (PLAY, ["--help"], None),
        (ZERO, ["--help"], None),
        (TRAIN, ["--task", "Isaac-Nope-v0"], "Unknown task 'Isaac-Nope-v0'"),
        (ZERO, ["--task", "Isaac-Nope-v0"], "Unknown task 'Isaac-Nope-v0'"),
        (TRAIN, ["--task", "Isaac-Cartpole-Direct-v0", "--num_envs", "0"], "must be at least 1"),
        (ZERO, ["--task", "Isaac-Cartpole-Direct-v0", "--num_envs", "0"], "must be at least 1"),
        (TRAIN, ["--task", "Isaac-Cartpole-Direct-v0", "--device", "bogus"], "unknown device 'bogus'"),
        (PLAY, ["--task", "Isaac-Cartpole-Direct-v0", "--checkpoint", "/nonexistent/model_3.pt"], "no such file"),
        (TRAIN, ["--task", "Isaac-Lift-Soft-Franka-v0"], "registers no rsl_rl agent cfg"),
    ],
)
def test_scripts_answer_before_importing_torch_warp_or_newton(script, argv, message):
    """--help and bad arguments are answered with torch, Warp and Newton not yet imported."""
    if argv == ["--help"]:
        result = subprocess.run(
            [sys.executable, "-c", _PROBE, str(script), *argv], capture_output=True, text=True, timeout=120
        )
        assert "usage:" in result.stdout and "HEAVY []" in result.stderr, result.stderr[-2000:]
        return
    assert message in _refusal(script, *argv)


def test_play_latest_without_any_run_is_refused_early(tmp_path):
    """play.py with no trained run under --log_root says to train first, before anything heavy loads."""
    err = _refusal(PLAY, "--task", "Isaac-Cartpole-Direct-v0", "--log_root", str(tmp_path))
    assert "train the task first" in err
