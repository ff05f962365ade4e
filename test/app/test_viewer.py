"""The live viewer: a viser page that headless Chromium draws the robot on, and .viser recordings read back."""

from __future__ import annotations

import shutil
import socket
import subprocess
from pathlib import Path

import numpy as np
import pytest
import torch
from conftest import TEST_DEVICE
from PIL import Image

from isaaclab_contrib.app.env_factory import make_env
from isaaclab_contrib.viewer import LiveViewer, LiveViewerCfg, read_viser_recording
from isaaclab_newton.physics import NewtonManager

TASK = "Isaac-Cartpole-Direct-v0"
WINDOW = (1000, 700)
"""Screenshot size [px] (width, height)."""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _chromium() -> str:
    """Debian's Chromium, or a failure that names the install (CI installs it with ``./isaaclab.sh --install``)."""
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        pytest.fail("Chromium is missing: run `./isaaclab.sh --install` (it installs Debian's chromium package).")
    return path


def _screenshot(url: str, out: Path) -> np.ndarray:
    """An RGB screenshot (H, W, 3) of ``url`` by headless Chromium (software WebGL), after the page settles."""
    profile = out.with_suffix(".profile")
    subprocess.run(
        [
            _chromium(),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--enable-unsafe-swiftshader",  # software WebGL (newer Chromium no longer falls back to it by itself)
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={profile}",
            f"--screenshot={out}",
            f"--window-size={WINDOW[0]},{WINDOW[1]}",
            "--virtual-time-budget=8000",
            url,
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    return np.asarray(Image.open(out).convert("RGB"), dtype=np.int16)


def _step(env, steps: int) -> None:
    unwrapped = env.unwrapped
    actions = torch.zeros((unwrapped.num_envs, *unwrapped.single_action_space.shape), device=unwrapped.device)
    for _ in range(steps):
        env.step(actions)


def test_viser_page_draws_the_robot(tmp_path):
    """Headless Chromium sees the cartpole on the viser page: the image centre differs from the scene without it."""
    viewer = LiveViewerCfg(
        backend="viser", num_envs=1, port=_free_port(), camera_eye=(0.0, -5.0, 2.5), camera_target=(0.0, 0.0, 2.0)
    )  # the cart stands 2 m high: it is the centre of the page
    env = make_env(TASK, num_envs=4, device=TEST_DEVICE, viewer=viewer)
    try:
        assert isinstance(env, LiveViewer)
        env.reset()
        _step(env, 2)
        env.draw()
        with_robot = _screenshot(env.url, tmp_path / "robot.png")
        env.viewer.set_visible_worlds([])  # the ground alone
        env.draw()
        empty = _screenshot(env.url, tmp_path / "empty.png")
    finally:
        env.close()
    height, width = empty.shape[:2]
    centre = (slice(height // 4, 3 * height // 4), slice(3 * width // 10, 6 * width // 10))  # left of the panel
    changed = np.abs(with_robot - empty).max(axis=-1)[centre] > 40
    assert changed.mean() > 0.01, f"{changed.mean():.4f} of the centre differs from the empty scene"


def test_viser_recording_holds_frames_and_bodies(tmp_path):
    """A .viser recording has one frame on reset and one per 1/rate_hz of simulated time, and the drawn envs' bodies."""
    path = tmp_path / "cartpole.viser"
    viewer = LiveViewerCfg(backend="viser", num_envs=2, port=_free_port(), rate_hz=30.0, record=str(path))
    env = make_env(TASK, num_envs=4, device=TEST_DEVICE, viewer=viewer)
    model = NewtonManager.get_model()
    bodies_per_env = model.body_count // model.world_count  # one visual shape each: rail, cart, pole
    stride = env.record_stride
    try:
        env.reset()
        _step(env, 6 * stride)
    finally:
        env.close()
    recording = read_viser_recording(path)
    assert stride == round(1.0 / (30.0 * env.unwrapped.step_dt))
    assert recording.frames == 1 + 6
    assert sum(recording.shape_instances.values()) == 2 * bodies_per_env
    assert all(count == 2 for count in recording.shape_instances.values())
