"""Velocity-tracking tasks (Isaac Lab's velocity MDP on the mjlab Unitree robots): 300 random-action steps, finite,
with resets, command resampling, pushes and the terrain curriculum on the mask path."""

from __future__ import annotations

import pytest
import torch
from conftest import TEST_DEVICE

NUM_ENVS = 16
STEPS = 300
EPISODE_STEPS = 60  # 5 episodes per env in the run: resets, commands and the curriculum by mask
PUSH_INTERVAL_S = (0.5, 1.0)  # pushes every 25 to 50 steps instead of upstream's 10 to 15 s


TASKS = [
    "Isaac-Velocity-Flat-Unitree-Go1-v0",
    "Isaac-Velocity-Rough-Unitree-Go1-v0",
    "Isaac-Velocity-Flat-G1-v0",
    "Isaac-Velocity-Rough-G1-v0",
]


@pytest.mark.parametrize("task", TASKS)
def test_random_actions_stay_finite(task):
    """16 envs on the test device take 300 uniform random actions in [-1, 1] on the mask path; observations and
    rewards stay finite, every env resets by time-out and gets pushed."""
    from isaaclab_contrib.app.env_factory import load_env_cfg, make_env

    cfg = load_env_cfg(task)
    cfg.episode_length_s = EPISODE_STEPS * cfg.sim.dt * cfg.decimation
    cfg.events.push_robot.interval_range_s = PUSH_INTERVAL_S
    generator_cfg = cfg.scene.terrain.terrain_generator
    if generator_cfg is not None:  # every sub-terrain type, 4 levels: the 10 x 20 grid only costs build time here
        generator_cfg.num_rows, generator_cfg.num_cols = 4, len(generator_cfg.sub_terrains)
    env = make_env(task, cfg=cfg, num_envs=NUM_ENVS, device=TEST_DEVICE)
    try:
        base = env.unwrapped
        base.mask_reset_on_cpu = True
        assert base.mask_reset_unavailable_reason() is None
        obs, _ = env.reset(seed=0)
        shape = base.action_space.shape
        generator = torch.Generator().manual_seed(0)
        resets = torch.zeros(NUM_ENVS, dtype=torch.long, device=TEST_DEVICE)
        for _ in range(STEPS):
            obs, reward, terminated, time_out, _ = env.step(
                2.0 * torch.rand(shape, generator=generator).to(TEST_DEVICE) - 1.0
            )
            assert torch.isfinite(obs["policy"]).all() and torch.isfinite(reward).all()
            resets += terminated | time_out
        assert base.common_step_counter == STEPS
        assert (resets >= STEPS // EPISODE_STEPS - 1).all(), "every env must end episodes and reset by mask"
        # private: core's interval timers, no public read
        push_time_left = base.event_manager._interval_term_time_left[0]
        assert (push_time_left <= PUSH_INTERVAL_S[1]).all(), "every env's push timer must have run out and restarted"
    finally:
        env.close()
