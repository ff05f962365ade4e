"""Franka lift tasks: both run under zero_agent, and the scripted check lifts each object 5 cm without slipping.

The Panda comes from the gymnasium-robotics wheel (``pip download`` on first use, cached afterwards).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TASKS = ("Isaac-Lift-Soft-Franka-v0", "Isaac-Lift-Cloth-Franka-v0")


def _run(script: str, *args: str) -> str:
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / script), *args], capture_output=True, text=True, timeout=900
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout


@pytest.mark.parametrize("task", TASKS)
def test_zero_agent_runs(task):
    """zero_agent steps 4 CPU envs of the task and reports a rate."""
    out = _run("environments/zero_agent.py", "--task", task, "--num_envs", "4", "--device", "cpu", "--steps", "20")
    assert re.search(r"20 steps x 4 envs", out), out[-2000:]


@pytest.mark.parametrize("task", TASKS)
def test_scripted_grasp_lifts_without_slip(task):
    """check_soft_lift lifts the object's nodal mean at least 5 cm with the default tuning, and it does not slip."""
    out = _run("tools/check_soft_lift.py", "--task", task, "--device", "cpu")
    last = out.strip().splitlines()[-1]
    match = re.fullmatch(r"lift_height_m=(\S+) penetration_m=(\S+) slipped=(true|false)", last)
    assert match, out[-2000:]
    assert float(match.group(1)) >= 0.05
    assert match.group(3) == "false"
