"""Velocity-tracking tasks (Isaac Lab's velocity MDP on the mjlab Unitree robots): 300 random-action steps, finite."""

from __future__ import annotations

import pytest
import torch

NUM_ENVS = 16
STEPS = 300


TASKS = [
    "Isaac-Velocity-Flat-Unitree-Go1-v0",
    "Isaac-Velocity-Rough-Unitree-Go1-v0",
    "Isaac-Velocity-Flat-G1-v0",
    "Isaac-Velocity-Rough-G1-v0",
]


@pytest.mark.parametrize("task", TASKS)
def test_random_actions_stay_finite(task):
    """16 envs on CPU take 300 uniform random actions in [-1, 1]; observations and rewards stay finite."""
    import gymnasium as gym

    import isaaclab_contrib.tasks  # noqa: F401
    from isaaclab_contrib.tasks.registry import load_env_cfg

    cfg = load_env_cfg(task)
    cfg.scene.num_envs = NUM_ENVS
    cfg.sim.device = "cpu"
    env = gym.make(task, cfg=cfg)
    try:
        obs, _ = env.reset(seed=0)
        shape = env.unwrapped.action_space.shape
        generator = torch.Generator().manual_seed(0)
        for _ in range(STEPS):
            obs, reward, _, _, _ = env.step(2.0 * torch.rand(shape, generator=generator) - 1.0)
            assert torch.isfinite(obs["policy"]).all() and torch.isfinite(reward).all()
        assert env.unwrapped.common_step_counter == STEPS
    finally:
        env.close()
