"""Upstream's cartpole camera task through its graph-stepped spec: built from upstream's code, reset by mask."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

REPO = pathlib.Path(__file__).resolve().parents[3]
RUNNER = pathlib.Path(__file__).with_name("cartpole_runner.py")


def test_masked_reset_restarts_the_frame_stack_of_reset_envs_only(asset_root):
    """An env that times out starts its frame stack from one frame (both slots equal); the others keep two frames."""
    env = dict(os.environ, ISAACSIM_ASSET_ROOT=str(asset_root))
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")])
    result = subprocess.run([sys.executable, str(RUNNER)], env=env, capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stderr[-3000:]
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report == {
        "class": "CartpoleCameraGraphStepEnv",
        "mask_reset": True,
        "episode_length": [0, 3, 3, 3],
        "frames_equal": [True, False, False, False],
    }
