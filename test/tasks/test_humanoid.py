"""Isaac-Humanoid-Direct-v0 on Newton's MJCF humanoid (multi-axis hips, ankles, shoulders, abdomen)."""

from __future__ import annotations

import torch
from conftest import TEST_DEVICE


def test_humanoid_direct_env_steps_without_nan():
    """16 humanoids: observations (16, 87) stay finite over 150 random-action steps, with 21 joints split per axis."""
    from isaaclab.sim import SimulationContext

    from isaaclab_contrib.app.env_factory import make_env

    SimulationContext.clear_instance()
    env = make_env("Isaac-Humanoid-Direct-v0", num_envs=16, device=TEST_DEVICE)
    try:
        robot = env.unwrapped.scene["robot"]
        assert robot.num_joints == 21
        assert robot.joint_names[:2] == ["abdomen_z_abdomen_y:0", "abdomen_z_abdomen_y:1"]
        obs, _ = env.reset(seed=0)
        assert obs["policy"].shape == (16, 87)
        generator = torch.Generator().manual_seed(0)
        for _ in range(150):
            action = 2.0 * torch.rand((16, 21), generator=generator).to(TEST_DEVICE) - 1.0
            obs, *_ = env.step(action)
            assert torch.isfinite(obs["policy"]).all()
    finally:
        env.close()
