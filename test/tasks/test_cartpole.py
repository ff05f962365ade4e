"""Cartpole tasks on Newton: 16 envs step 300 times without NaN, with Isaac Lab's observation shape."""

from __future__ import annotations

import pytest
import torch


@pytest.mark.parametrize("task", ["Isaac-Cartpole-Direct-v0", "Isaac-Cartpole-v0"])
def test_cartpole_steps_300_without_nan(task):
    """300 env steps with random actions keep observations finite and shaped (16, 4)."""
    import gymnasium as gym
    from isaaclab.sim import SimulationContext

    import isaaclab_contrib.tasks  # noqa: F401
    from isaaclab_contrib.tasks.registry import load_env_cfg

    SimulationContext.clear_instance()
    cfg = load_env_cfg(task)
    cfg.scene.num_envs = 16
    cfg.sim.device = "cpu"
    env = gym.make(task, cfg=cfg)
    try:
        obs, _ = env.reset(seed=0)
        assert obs["policy"].shape == (16, 4)
        assert (obs["policy"].std(dim=0) > 0.05).all(), "reset must randomize cart/pole positions and velocities"
        generator = torch.Generator().manual_seed(0)
        for _ in range(300):
            action = 2.0 * torch.rand((16, 1), generator=generator) - 1.0
            obs, reward, terminated, truncated, _ = env.step(action)
            assert torch.isfinite(obs["policy"]).all()
            assert torch.isfinite(reward).all()
        assert obs["policy"].shape == (16, 4)
    finally:
        env.close()
        SimulationContext.clear_instance()
