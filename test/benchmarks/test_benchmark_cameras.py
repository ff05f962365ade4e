"""scripts/benchmarks/benchmark_cameras.py on the test device, tiny sizes: one command, one JSON row per measurement."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import pytest
from conftest import ON_CUDA, TEST_DEVICE, cuda_only

REPO = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "benchmarks" / "benchmark_cameras.py"


def _run(asset_root: pathlib.Path, out: pathlib.Path, *extra: str) -> dict:
    """The one row of a tiny depth run (2 envs, 16 px, 2 timed steps) on the test device."""
    args = ["--device", TEST_DEVICE, "--resolutions", "16", "--num_envs", "2", "--data_types", "depth", "--steps", "2"]
    env = dict(os.environ, ISAACSIM_ASSET_ROOT=str(asset_root))
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")])
    result = subprocess.run(
        [sys.executable, str(SCRIPT), *args, "--warmup", "3", "--out", str(out), *extra],
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    (row,) = json.loads(out.read_text())
    return row


def test_writes_rates_and_their_ceiling_per_data_type(asset_root, tmp_path):
    """Each row has the camera task's, the no-camera task's and the raw render's rates, ceiling and ratio."""
    row = _run(asset_root, tmp_path / "cameras.json")
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


@cuda_only("--kernels profiles CUDA kernels")
def test_kernels_name_the_render_kernel_and_sum_the_step(asset_root, tmp_path):
    """--kernels lists kernels by device time per step, most first, the render among them, within the step's total."""
    # at 2 envs of 16 px the render is one of the step's many small kernels: ask for more than the step launches
    row = _run(asset_root, tmp_path / "cameras.json", "--kernels", "500")
    kernels = row["kernels"]
    assert 0 < len(kernels) <= 500
    assert any("render_megakernel" in kernel["kernel"] for kernel in kernels), kernels
    times = [kernel["us_per_step"] for kernel in kernels]
    assert times == sorted(times, reverse=True)
    assert 0.0 < sum(times) <= 1e3 * row["kernel_ms_per_step"] * (1.0 + 1e-9)
