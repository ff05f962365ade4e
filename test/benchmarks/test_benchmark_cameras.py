"""scripts/benchmarks/benchmark_cameras.py on the test device, tiny sizes: one command, one JSON row per measurement."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import pytest
from conftest import ON_CUDA, TEST_DEVICE

REPO = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "benchmarks" / "benchmark_cameras.py"


def test_writes_rates_and_their_ceiling_per_data_type(asset_root, tmp_path):
    """Each row has the camera task's, the no-camera task's and the raw render's rates, ceiling and ratio."""
    out = tmp_path / "cameras.json"
    args = ["--device", TEST_DEVICE, "--resolutions", "16", "--num_envs", "2", "--data_types", "depth", "--steps", "2"]
    env = dict(os.environ, ISAACSIM_ASSET_ROOT=str(asset_root))
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")])
    result = subprocess.run(
        [sys.executable, str(SCRIPT), *args, "--warmup", "3", "--out", str(out)],
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    (row,) = json.loads(out.read_text())
    assert (row["task"], row["data_type"], row["resolution"], row["num_envs"]) == (
        "Isaac-Cartpole-Camera-Direct",
        "depth",
        16,
        2,
    )
    rates = (row["env_steps_per_s"], row["raw_views_per_s"], row["no_camera_env_steps_per_s"])
    assert all(rate > 0.0 for rate in rates)
    assert row["ceiling"] == pytest.approx(1.0 / (1.0 / rates[2] + 1.0 / rates[1]))
    assert row["ratio"] == pytest.approx(rates[0] / row["ceiling"])
    if ON_CUDA:  # the camera task's whole step, rendering included, replays from a CUDA graph
        assert row["graph_step"] is None
    else:
        assert row["graph_step"].startswith("not on CUDA")
