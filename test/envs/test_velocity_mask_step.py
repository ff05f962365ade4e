"""Go1 flat velocity task: the mask-reset step against core's index-reset step, with every random range fixed."""

from __future__ import annotations

import torch
from conftest import TEST_DEVICE, cpu_only

from .conftest import _close, _make_env, assert_same_trajectories, record_step

TASK = "Isaac-Velocity-Flat-Unitree-Go1-v0"
NUM_ENVS = 4
# Degenerate ranges: resets, commands and startup randomization become functions of the defaults alone.
FIXED = {
    "events.add_base_mass.params.mass_distribution_params": (1.0, 1.0),
    "events.base_com.params.com_range": {"x": (0.0, 0.0), "y": (0.0, 0.0), "z": (0.0, 0.0)},
    "events.reset_base.params.pose_range": {"x": (0.1, 0.1), "yaw": (0.2, 0.2)},
    "events.reset_base.params.velocity_range": {"x": (0.1, 0.1)},
    "events.reset_robot_joints.params.position_range": (1.1, 1.1),
    "commands.base_velocity.ranges.lin_vel_x": (0.5, 0.5),
    "commands.base_velocity.ranges.lin_vel_y": (0.2, 0.2),
    "commands.base_velocity.ranges.ang_vel_z": (0.4, 0.4),
    "commands.base_velocity.ranges.heading": (0.3, 0.3),
    "commands.base_velocity.rel_standing_envs": 0.0,
    "observations.policy.enable_corruption": False,
}


def _trajectory(mask_reset: bool, steps: int = 7) -> list[dict[str, torch.Tensor]]:
    """What each of ``steps`` steps returned and logged, with staggered 3-step episodes."""
    env = _make_env(TASK, NUM_ENVS, mask_on_cpu=mask_reset, **FIXED)
    try:
        assert (env.mask_reset_unavailable_reason() is None) is mask_reset
        env.cfg.episode_length_s = 3 * env.step_dt
        env.reset(seed=0)
        env.episode_length_buf[:] = torch.tensor([0, 1, 2, 0], device=TEST_DEVICE)
        generator = torch.Generator().manual_seed(1)
        command = env.command_manager.get_term("base_velocity")
        out = []
        for _ in range(steps):
            action = 0.3 * (2.0 * torch.rand((NUM_ENVS, env.action_space.shape[-1]), generator=generator) - 1.0)
            reads = {
                "root_pose_w": lambda: env.scene["robot"].data.root_pose_w.torch,
                "command": lambda: command.command,
                "command_counter": lambda: command.command_counter,
            }
            out.append(record_step(env, action, **reads))
        return out
    finally:
        _close(env)


@cpu_only("core's index-reset step is the CPU reset path (mask_reset_on_cpu=False); CUDA envs always reset by mask")
def test_mask_reset_step_matches_core_step():
    """Seven steps with resets: returns, logs, root poses and commands equal core's index-reset step."""
    core, masked = _trajectory(mask_reset=False), _trajectory(mask_reset=True)
    assert sum(int(step["time_out"].sum()) for step in core) >= 6, "the episodes must time out"
    assert_same_trajectories(core, masked, atol=1e-5, rtol=1e-5)
