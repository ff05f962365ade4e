"""Go1 flat velocity task on the mask path: interval pushes by device timers, root resets and commands by mask."""

from __future__ import annotations

import pytest
import torch
from conftest import TEST_DEVICE

from .conftest import _close, _make_env

TASK = "Isaac-Velocity-Flat-Unitree-Go1-v0"
NUM_ENVS = 4


@pytest.fixture(scope="module")
def env():
    env = _make_env(TASK, NUM_ENVS)
    env.reset(seed=0)
    env.step(torch.zeros(NUM_ENVS, env.action_space.shape[-1], device=TEST_DEVICE))
    yield env
    _close(env)


def test_task_resets_by_mask(env):
    """Commands, interval pushes and every event of the task have mask forms: nothing sends it to core's path."""
    assert env.mask_reset_unavailable_reason() is None


def test_push_changes_exactly_the_due_envs(env):
    """Envs 0 and 2, whose push timers run out this step, get a planar kick within ±0.5 m/s and a new interval."""
    from isaaclab_contrib.envs.mask_intervals import apply_interval_events_mask

    robot = env.scene["robot"]
    time_left = env.event_manager._interval_term_time_left[0]  # private: core's interval timers, no public read
    time_left[:] = torch.tensor([0.01, 100.0, 0.01, 100.0], device=TEST_DEVICE)
    before = robot.data.root_vel_w.torch.clone()
    apply_interval_events_mask(env, env.step_dt)
    after = robot.data.root_vel_w.torch
    due = torch.tensor([True, False, True, False], device=TEST_DEVICE)
    assert torch.equal(after[~due], before[~due])
    kick = after[due] - before[due]
    assert (kick[:, :2].abs() > 0).all() and (kick[:, :2].abs() <= 0.5 + 1e-5).all()
    torch.testing.assert_close(kick[:, 2:], torch.zeros(2, 4, device=TEST_DEVICE), atol=1e-5, rtol=0.0)
    low, high = env.cfg.events.push_robot.interval_range_s
    assert ((time_left[due] >= low) & (time_left[due] <= high)).all()
    torch.testing.assert_close(time_left[~due], torch.full((2,), 100.0 - env.step_dt, device=TEST_DEVICE))


def test_reset_places_the_masked_robots_around_their_origins(env):
    """A mask reset of envs 1 and 3 puts their roots within the pose range of their origins, the others untouched."""
    robot = env.scene["robot"]
    before = robot.data.root_pose_w.torch.clone()
    mask = torch.tensor([False, True, False, True], device=TEST_DEVICE)
    env._reset_mask.copy_(mask)  # private: drives the mask reset under test
    env._reset_masked(env._reset_mask)  # private: drives the mask reset under test
    pose = robot.data.root_pose_w.torch
    assert torch.equal(pose[~mask], before[~mask])
    offset = pose[mask, :3] - env.scene.env_origins[mask] - robot.data.default_root_pose.torch[mask, :3]
    assert (offset[:, :2].abs() <= 0.5 + 1e-5).all()
    torch.testing.assert_close(offset[:, 2], torch.zeros(2, device=TEST_DEVICE), atol=1e-5, rtol=0.0)
    command = env.command_manager.get_term("base_velocity")
    assert command.command_counter[mask].tolist() == [1, 1]
    assert (command.time_left[mask] == 10.0).all()


def test_external_force_is_set_for_the_masked_envs_and_bodies_only(env):
    """A nonzero force range sets the trunk's permanent force of envs 0 and 1 within range; other envs and bodies 0."""
    import warp as wp
    from isaaclab.managers import SceneEntityCfg

    from isaaclab_contrib.envs.mask_events import apply_external_force_torque_mask

    robot = env.scene["robot"]
    asset_cfg = SceneEntityCfg("robot", body_names="trunk")
    asset_cfg.resolve(env.scene)
    composer = robot.permanent_wrench_composer
    mask = torch.tensor([True, True, False, False], device=TEST_DEVICE)
    try:
        apply_external_force_torque_mask(env, mask, (1.0, 2.0), (0.0, 0.0), asset_cfg=asset_cfg)
        force = wp.to_torch(composer.local_force_b)
        trunk = asset_cfg.body_ids[0]
        assert ((force[mask, trunk] >= 1.0) & (force[mask, trunk] <= 2.0)).all()
        others = torch.ones(robot.num_bodies, dtype=torch.bool, device=TEST_DEVICE)
        others[trunk] = False
        assert not force[~mask].any() and not force[mask][:, others].any()
    finally:
        composer.reset()
