"""scripts/benchmarks/benchmark_envs.py on the test device, tiny sizes: the actions of an exported policy."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import torch
from conftest import TEST_DEVICE

REPO = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "benchmarks" / "benchmark_envs.py"
TASK = "Isaac-Cartpole-Direct-v0"


class _ConstantPolicy(torch.nn.Module):
    """Ones of a fixed width per env, as an exported policy maps observations to actions."""

    def __init__(self, width: int):
        super().__init__()
        self.width = width

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        return torch.ones((obs.shape[0], self.width), dtype=obs.dtype, device=obs.device)


def _policy_file(tmp_path: pathlib.Path, width: int) -> pathlib.Path:
    path = tmp_path / f"policy_{width}.pt"
    torch.jit.script(_ConstantPolicy(width)).save(str(path))
    return path


def _run(out: pathlib.Path, *extra: str) -> subprocess.CompletedProcess:
    """The benchmark for the cartpole at 4 envs, 2 timed steps, on the test device."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]))
    args = ["--device", TEST_DEVICE, "--num_envs", "4", "--steps", "2", "--warmup", "0", "--out", str(out), *extra]
    return subprocess.run([sys.executable, str(SCRIPT), *args], env=env, capture_output=True, text=True, timeout=900)


def test_row_names_the_policy_whose_actions_it_timed(tmp_path):
    """With --policy the row is timed with that policy's actions and names its file."""
    policy = _policy_file(tmp_path, width=1)
    result = _run(tmp_path / "envs.json", "--tasks", TASK, "--policy", str(policy))
    assert result.returncode == 0, result.stderr[-3000:]
    (row,) = json.loads((tmp_path / "envs.json").read_text())["results"]
    assert (row["task"], row["status"], row["actions"]) == (TASK, "ok", str(policy))
    assert row["env_steps_per_s"] > 0.0


def test_policy_actions_reach_the_env(tmp_path):
    """A policy with one action too many fails its row with the env's shape error (the actions are the policy's)."""
    result = _run(tmp_path / "envs.json", "--tasks", TASK, "--policy", str(_policy_file(tmp_path, width=2)))
    assert result.returncode == 1, result.stderr[-3000:]
    (row,) = json.loads((tmp_path / "envs.json").read_text())["results"]
    assert row["status"].startswith("error: ValueError") and "got (4, 2)" in row["status"], row["status"]
    assert (tmp_path / "envs.png").is_file()


def test_policy_needs_exactly_one_task(tmp_path):
    """--policy without --tasks, or with two tasks, is refused before any env is built."""
    policy = str(_policy_file(tmp_path, width=1))
    for tasks in ([], ["--tasks", TASK, "Isaac-Ant-Direct-v0"]):
        result = _run(tmp_path / "envs.json", *tasks, "--policy", policy)
        assert result.returncode == 2 and "--policy drives one task: name it with --tasks TASK" in result.stderr
