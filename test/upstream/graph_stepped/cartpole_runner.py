"""Build upstream's cartpole camera task through its graph-stepped spec on CPU and check its mask reset.

Run in a subprocess (it imports ``isaaclab_tasks``' registry; no tests here). ``ISAACSIM_ASSET_ROOT`` must be set.
Usage: ``python cartpole_runner.py`` prints one JSON line.
"""

from __future__ import annotations

import json
import os


def run() -> dict:
    """4 CPU envs, 32x32 RGB, resets by mask; env 0 times out on the third step while the others keep going."""
    import torch

    from isaaclab_contrib.app.env_factory import load_env_cfg, make_env
    from isaaclab_contrib.upstream.graph_stepped.cartpole import CartpoleCameraGraphStepEnv

    task = "Isaac-Cartpole-Camera-Direct"
    cfg = load_env_cfg(task, solver="mjwarp")
    cfg.scene.tiled_camera.width = cfg.scene.tiled_camera.height = 32
    CartpoleCameraGraphStepEnv.mask_reset_on_cpu = True
    device = os.environ.get("ISAACLAB_NEWTON_TEST_DEVICE", "cpu")  # the suite's test device
    env = make_env(task, cfg=cfg, num_envs=4, device=device)  # the graph-stepped spec, as for every upstream id
    try:
        unwrapped = env.unwrapped
        env.reset(seed=0)
        action = torch.ones(env.action_space.shape)  # full push: every pole swings, so consecutive frames differ
        for _ in range(2):
            env.step(action)
        unwrapped.episode_length_buf[0] = unwrapped.max_episode_length - 1
        obs, *_ = env.step(action)
        frames = obs["policy"]  # (N, 2 * 3, H, W): the older frame, then the newer one
        same = [bool(torch.equal(frames[i, :3], frames[i, 3:])) for i in range(4)]
        return {
            "class": type(unwrapped).__name__,
            "mask_reset": unwrapped.mask_reset_unavailable_reason() is None,
            "episode_length": unwrapped.episode_length_buf.tolist(),
            "frames_equal": same,
        }
    finally:
        env.close()


if __name__ == "__main__":
    print(json.dumps(run()))
