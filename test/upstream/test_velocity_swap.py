"""Upstream's velocity configs with only the robot (and its name patterns) swapped build and step on Newton."""

from __future__ import annotations

import pytest
import torch
from conftest import TEST_DEVICE

NUM_ENVS = 4
STEPS = 10


def test_g1_swap_renames_arm_and_torso_patterns_and_drops_finger_term():
    """Upstream's G1 arm and torso joint patterns read as the 29-joint model's; the finger term is removed."""
    import isaaclab_contrib.tasks  # noqa: F401
    from isaaclab_contrib.upstream.velocity_swap import G1_SWAP, load_upstream_velocity_cfg, swap_robot

    cfg = swap_robot(load_upstream_velocity_cfg("g1", "G1RoughEnvCfg"), G1_SWAP)
    arms = cfg.rewards.joint_deviation_arms.params["asset_cfg"].joint_names
    assert arms == [".*_shoulder_pitch_joint", ".*_shoulder_roll_joint", ".*_shoulder_yaw_joint", ".*_elbow_joint"] + [
        ".*_wrist_.*"
    ]
    assert cfg.rewards.joint_deviation_torso.params["asset_cfg"].joint_names == "waist_.*"
    assert cfg.rewards.joint_deviation_fingers is None


@pytest.mark.parametrize(
    ("folder", "cfg_class", "swap", "task", "num_joints"),
    [
        ("go2", "UnitreeGo2RoughEnvCfg", "GO1_SWAP", "Isaac-Velocity-Rough-Unitree-Go1-v0", 12),
        ("g1", "G1RoughEnvCfg", "G1_SWAP", "Isaac-Velocity-Rough-G1-v0", 29),
    ],
)
def test_upstream_rough_cfg_with_offline_robot_steps(folder, cfg_class, swap, task, num_joints):
    """4 CPU envs of upstream's rough config (its terrain, height scan, events, contacts) step finite on our robot."""
    from isaaclab_contrib.app.env_factory import make_env
    from isaaclab_contrib.upstream import velocity_swap

    cfg = velocity_swap.swap_robot(
        velocity_swap.load_upstream_velocity_cfg(folder, cfg_class), getattr(velocity_swap, swap)
    )
    env = make_env(task, cfg=cfg, num_envs=NUM_ENVS, device=TEST_DEVICE)
    try:
        obs, _ = env.reset(seed=0)
        assert env.unwrapped.scene["robot"].num_joints == num_joints
        generator = torch.Generator().manual_seed(0)
        for _ in range(STEPS):
            action = 2.0 * torch.rand(env.unwrapped.action_space.shape, generator=generator).to(TEST_DEVICE) - 1.0
            obs, reward, _, _, _ = env.step(action)
            assert torch.isfinite(obs["policy"]).all() and torch.isfinite(reward).all()
        assert env.unwrapped.scene["height_scanner"].data.ray_hits_w.shape[0] == NUM_ENVS
    finally:
        env.close()
