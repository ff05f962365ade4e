"""scripts/tools/measure_manipulation.py: one episode per env, the task's measure read before the env's reset."""

from __future__ import annotations

import re
import runpy
from pathlib import Path

import pytest
import torch
from conftest import TEST_DEVICE

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "tools" / "measure_manipulation.py"


class _ZeroPolicy(torch.nn.Module):
    """Zero actions of a fixed size, whatever the observation."""

    def __init__(self, num_actions: int):
        super().__init__()
        self.num_actions = num_actions

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        return torch.zeros(obs.shape[0], self.num_actions, device=obs.device)


def test_lift_with_zero_actions_leaves_the_cube_below_every_target(tmp_path, capsys):
    """Zero arm offsets never lift the cube: it rests 2.5 cm high, every target is 25-50 cm high, so the goal
    distance is at least 0.2 m, no episode succeeds and none is terminated early."""
    policy = tmp_path / "policy.pt"
    torch.jit.script(_ZeroPolicy(8)).save(str(policy))
    main = runpy.run_path(str(SCRIPT))["main"]
    main(["--task", "Isaac-Lift-Cube-Franka-v0", "--num_envs", "2", "--device", TEST_DEVICE, "--policy", str(policy)])
    line = capsys.readouterr().out.strip().splitlines()[-1]
    match = re.fullmatch(r"goal_distance_m_mean=([0-9.]+) success=(\d+)/2 terminated=(\d+)", line)
    assert match, line
    assert float(match[1]) >= 0.2 and match[2] == "0" and match[3] == "0"


def test_unjudged_task_is_refused_by_name(tmp_path):
    """A task the script has no measure for is refused, naming the tasks it judges."""
    main = runpy.run_path(str(SCRIPT))["main"]
    with pytest.raises(SystemExit, match="judges Isaac-Reach-Franka-v0"):
        main(["--task", "Isaac-Cartpole-Direct-v0", "--device", "cpu", "--policy", __file__])
