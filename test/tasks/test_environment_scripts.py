"""scripts/environments: list_envs lists our tasks; zero_agent runs, resets and reports throughput."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import TEST_DEVICE

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts" / "environments"


def _run(script: str, *args: str) -> str:
    result = subprocess.run(
        [sys.executable, str(SCRIPTS / script), *args], capture_output=True, text=True, timeout=600, check=False
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout


def test_list_envs_shows_registered_tasks():
    """list_envs prints the three Isaac Lab task names we register."""
    out = _run("list_envs.py")
    for task in ("Isaac-Cartpole-Direct-v0", "Isaac-Cartpole-v0", "Isaac-Ant-Direct-v0"):
        assert task in out


def test_list_envs_marks_upstream_ids():
    """list_envs also lists the ids the scripts accept from isaaclab_tasks, marked as upstream."""
    out = _run("list_envs.py")
    assert re.search(r"Isaac-Cartpole-Camera-Direct\s+upstream \(isaaclab_tasks\)", out), out[-2000:]


@pytest.fixture(scope="module")
def zero_run() -> subprocess.CompletedProcess:
    """zero_agent on 4 cartpoles (test device) for 320 steps (300-step episodes)."""
    argv = [
        "--task",
        "Isaac-Cartpole-Direct-v0",
        "--num_envs",
        "4",
        "--device",
        TEST_DEVICE,
        "--steps",
        "320",
        "--seed",
        "0",
    ]
    result = subprocess.run(
        [sys.executable, str(SCRIPTS / "zero_agent.py"), *argv], capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return result


def test_zero_agent_reports_env_steps_per_second(zero_run):
    """zero_agent resets every env once and reports a rate."""
    assert re.search(r"320 steps x 4 envs, 4 env resets", zero_run.stdout), zero_run.stdout[-2000:]
    rate = float(re.search(r"env-steps per second: ([0-9.]+)", zero_run.stdout).group(1))
    assert rate > 0.0


def test_zero_agent_prints_no_library_chatter(zero_run):
    """By default no Warp banner, module-load line or CUDA-driver warning (this test runs on CPU)."""
    output = zero_run.stdout + zero_run.stderr
    for chatter in ("Warp 1.", "Module ", "CUDA driver"):
        assert chatter not in output, output[-2000:]


def _run_failing(script: str, *args: str) -> str:
    result = subprocess.run(
        [sys.executable, str(SCRIPTS / script), *args], capture_output=True, text=True, timeout=600, check=False
    )
    assert result.returncode == 2, result.stdout[-2000:] + result.stderr[-2000:]
    return result.stderr


@pytest.mark.parametrize(("flag", "value"), [("--steps", "-5"), ("--steps", "0"), ("--num_envs", "0")])
def test_random_agent_rejects_non_positive_counts(flag, value):
    """random_agent exits with argparse's usage error naming the flag for --steps -5 / 0 and --num_envs 0."""
    err = _run_failing("random_agent.py", "--task", "Isaac-Cartpole-Direct-v0", flag, value)
    assert f"argument {flag}: must be at least 1, got {value}" in err, err[-2000:]


def test_zero_agent_rejects_negative_num_envs():
    """zero_agent --num_envs -1 exits with argparse's usage error naming --num_envs."""
    err = _run_failing("zero_agent.py", "--task", "Isaac-Cartpole-Direct-v0", "--num_envs", "-1")
    assert "argument --num_envs: must be at least 1, got -1" in err, err[-2000:]


def test_run_loop_rejects_negative_steps():
    """_loop.run(steps=-5) raises ValueError before stepping (no negative throughput)."""
    sys.path.insert(0, str(SCRIPTS))
    try:
        from _loop import run
    finally:
        sys.path.remove(str(SCRIPTS))
    with pytest.raises(ValueError, match="steps must be an integer >= 1"):
        run(None, lambda zeros: zeros, -5)
