"""Newton's offline assets: Isaac Lab's asset root points at their cache unless the user chose one; made on use."""

from __future__ import annotations

import importlib.util
import json
import os
import pathlib
import subprocess
import sys

import pytest
from conftest import TEST_DEVICE

from isaaclab_contrib.upstream import offline_cache
from isaaclab_contrib.upstream.offline_asset_files import OFFLINE_ASSET_FILES

REPO = pathlib.Path(__file__).resolve().parents[2]

STEP_UPSTREAM_TASK = """
import json, sys, torch
from isaaclab_contrib.app.env_factory import make_env
env = make_env("Isaac-Cartpole-Direct", num_envs=2, device=sys.argv[1])
obs, _ = env.reset(seed=0)
for _ in range(3):
    obs, *_ = env.step(torch.zeros(env.action_space.shape, device=env.unwrapped.device))
print(json.dumps({"shape": list(obs["policy"].shape), "finite": bool(torch.isfinite(obs["policy"]).all())}))
env.close()
"""


@pytest.fixture
def no_user_root(monkeypatch, tmp_path):
    """Neither an asset root nor a region profile chosen; the cache root is ``tmp_path``."""
    monkeypatch.setenv("ISAACSIM_ASSET_ROOT", "")  # recorded, so the value a test sets is undone afterwards
    monkeypatch.delenv("ISAACSIM_ASSET_ROOT")
    monkeypatch.delenv("ISAACSIM_ASSET_REGION_PROFILE", raising=False)
    monkeypatch.setenv("ISAACLAB_NEWTON_ASSETS", str(tmp_path))


def test_unset_root_points_at_the_cache(no_user_root, tmp_path):
    """With nothing set, ISAACSIM_ASSET_ROOT becomes <cache root>/isaac_assets."""
    offline_cache.point_asset_root_at_cache()
    assert os.environ["ISAACSIM_ASSET_ROOT"] == str(tmp_path.absolute() / "isaac_assets")


@pytest.mark.parametrize(
    ("variable", "value", "root"),
    [
        ("ISAACSIM_ASSET_ROOT", "/data/isaac-sim-assets", "/data/isaac-sim-assets"),
        ("ISAACSIM_ASSET_REGION_PROFILE", "china", None),
    ],
)
def test_users_choice_wins(no_user_root, monkeypatch, variable, value, root):
    """A user-set asset root or region profile stays the only choice of the root."""
    monkeypatch.setenv(variable, value)
    offline_cache.point_asset_root_at_cache()
    assert os.environ.get("ISAACSIM_ASSET_ROOT") == root


def test_isaac_sim_installed_keeps_the_server(no_user_root, monkeypatch):
    """Where Isaac Sim's omni package is installed, the root is left to Isaac Lab (it fetches from the server)."""
    real = importlib.util.find_spec
    monkeypatch.setattr(
        offline_cache.importlib.util, "find_spec", lambda name: object() if name == "omni" else real(name)
    )
    offline_cache.point_asset_root_at_cache()
    assert "ISAACSIM_ASSET_ROOT" not in os.environ


def test_upstream_task_steps_on_a_clean_cache_without_set_up(tmp_path):
    """make_env builds and steps Isaac-Cartpole-Direct with no variable set, writing the cache on first use."""
    env = {k: v for k, v in os.environ.items() if k not in ("ISAACSIM_ASSET_ROOT", "ISAACSIM_ASSET_REGION_PROFILE")}
    env["ISAACLAB_NEWTON_ASSETS"] = str(tmp_path)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")])
    result = subprocess.run(
        [sys.executable, "-c", STEP_UPSTREAM_TASK, TEST_DEVICE], env=env, capture_output=True, text=True, timeout=900
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert json.loads(result.stdout.strip().splitlines()[-1]) == {"shape": [2, 4], "finite": True}
    assert all((tmp_path / "isaac_assets" / path).is_file() for path in OFFLINE_ASSET_FILES)
