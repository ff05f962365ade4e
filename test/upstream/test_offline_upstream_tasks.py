"""Upstream ``isaaclab_tasks`` configs, unmodified, run on the assets written by ``make_offline_assets.py``."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import pytest
from conftest import TEST_DEVICE

REPO = pathlib.Path(__file__).resolve().parents[2]
RUNNER = pathlib.Path(__file__).with_name("upstream_offline_runner.py")

# task, physics preset, env steps, observation size
RUNS = [
    ("Isaac-Cartpole-Direct", "newton_mjwarp", 300, 4),
    ("Isaac-Cartpole", "newton_mjwarp", 300, 4),
    ("Isaac-Ant-Direct", "newton_mjwarp", 30, 60),
    ("Isaac-Humanoid-Direct", "newton_mjwarp", 30, 87),
    ("Isaac-Ant", "newton_mjwarp", 20, 60),
    ("Isaac-Humanoid", "newton_mjwarp", 20, 87),
    ("IsaacContrib-Cartpole-Showcase-Direct", "newton_mjwarp", 20, 4),
    ("Isaac-Cartpole-Direct", "newton_kamino", 20, 4),
]


def test_script_writes_asset_server_layout(asset_root):
    """The cartpole, ground plane, ant and humanoid land where ISAACLAB_NUCLEUS_DIR / ISAAC_NUCLEUS_DIR point."""
    expected = [
        "Isaac/IsaacLab/Robots/Classic/Cartpole/cartpole.usd",
        "Isaac/IsaacLab/Environments/Grid/default_ground_plane_checker_v1/default_ground_plane.usda",
        "Isaac/Robots/IsaacSim/Ant/ant_instanceable.usd",
        "Isaac/Robots/IsaacSim/Humanoid/humanoid_instanceable.usd",
    ]
    assert all((asset_root / path).is_file() for path in expected)


def _env(asset_root: pathlib.Path) -> dict[str, str]:
    env = dict(os.environ, ISAACSIM_ASSET_ROOT=str(asset_root))
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")])
    return env


@pytest.mark.parametrize(("task", "preset", "steps", "obs_size"), RUNS)
def test_upstream_task_steps_on_offline_assets(asset_root, task, preset, steps, obs_size):
    """The task builds on the preset's manager with 16 CPU envs and keeps observations finite while stepping."""
    result = subprocess.run(
        [sys.executable, str(RUNNER), task, str(steps), "16", preset],
        env=_env(asset_root),
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    report = json.loads(result.stdout.strip().splitlines()[-1])
    manager = {"newton_mjwarp": "NewtonMJWarpManager", "newton_kamino": "NewtonKaminoManager"}[preset]
    assert report == {"manager": manager, "obs_shape": [16, obs_size], "finite": True, "steps": steps}


# camera task, presets, env steps, policy observation shape per env (frame stack 2)
CAMERA_RUNS = [
    ("Isaac-Cartpole-Camera-Direct", "newton_mjwarp", [6, 96, 96]),
    ("Isaac-Cartpole-Camera", "newton_mjwarp,depth", [2, 96, 96]),
]


@pytest.mark.parametrize(("task", "presets", "shape"), CAMERA_RUNS)
def test_upstream_camera_task_steps_on_offline_assets(asset_root, task, presets, shape):
    """The cartpole camera task builds with 4 CPU envs, renders through Newton's camera and stays finite."""
    result = subprocess.run(
        [sys.executable, str(RUNNER), task, "5", "4", presets],
        env=_env(asset_root),
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report == {"manager": "NewtonMJWarpManager", "obs_shape": [4, *shape], "finite": True, "steps": 5}


def test_random_agent_script_runs_upstream_task(asset_root):
    """scripts/environments/random_agent.py runs an isaaclab_tasks task on the offline assets (docs/assets.md)."""
    script = REPO / "scripts" / "environments" / "random_agent.py"
    args = ["--task", "Isaac-Cartpole-Direct", "--num_envs", "4", "--device", TEST_DEVICE, "--steps", "20"]
    result = subprocess.run(
        [sys.executable, str(script), *args], env=_env(asset_root), capture_output=True, text=True, timeout=900
    )
    assert result.returncode == 0, result.stderr[-3000:]
