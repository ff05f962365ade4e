"""Upstream's ARL track-position env (ThrustAction, Multirotor, ARL thruster cfg) built and stepped on Newton."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

RUNNER = pathlib.Path(__file__).with_name("arl_drone_runner.py")
REPO = pathlib.Path(__file__).resolve().parents[2]


def test_track_position_env_steps_and_thrusts_follow_the_actions():
    """Action 0.5 (scale 3 N, offset 3 N) settles every rotor of an env not reset in the run at 4.5 N within 1 %;
    observations stay finite."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]))
    result = subprocess.run(
        [sys.executable, str(RUNNER), "0.5", "15", "2"], env=env, capture_output=True, text=True, timeout=900
    )
    assert result.returncode == 0, result.stderr[-3000:]
    out = json.loads(result.stdout.strip().splitlines()[-1])
    assert out["finite"]
    assert out["obs_shape"] == [2, 17]
    assert out["thruster_names"] == ["back_left_prop", "back_right_prop", "front_left_prop", "front_right_prop"]
    # an env the task reset during the run (its random start drifted out of bounds) restarts its rotors at rest
    settled = [row for row, length in zip(out["thrust"], out["episode_length"], strict=True) if length == 15]
    assert settled, out
    assert all(abs(f - 4.5) < 0.045 for row in settled for f in row), out
