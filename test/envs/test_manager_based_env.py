"""Manager-based envs on Newton: the mask-reset step against core's step, event mask forms, unsupported terms."""

from __future__ import annotations

import math

import torch
from conftest import TEST_DEVICE, cpu_only

from .conftest import FIXED_RESET, _close, _make_env, assert_same_trajectories, record_step

TASK = "Isaac-Cartpole-v0"


def _trajectory(mask_reset: bool, steps: int = 9) -> list[dict[str, torch.Tensor]]:
    """Copies of what each of ``steps`` steps returned and logged, with 3-step staggered episodes."""
    import warp as wp

    from isaaclab_newton.physics import NewtonManager

    env = _make_env(TASK, 4, mask_on_cpu=mask_reset, **FIXED_RESET[TASK])
    try:
        assert (env.mask_reset_unavailable_reason() is None) is mask_reset
        env.cfg.episode_length_s = 3 * env.step_dt
        env.reset(seed=0)
        env.episode_length_buf[:] = torch.tensor([0, 1, 2, 0], device=TEST_DEVICE)
        generator = torch.Generator().manual_seed(1)
        out = []
        for _ in range(steps):
            action = 2.0 * torch.rand((4, 1), generator=generator) - 1.0
            reads = {
                "joint_q": lambda: wp.to_torch(NewtonManager.get_state_0().joint_q),
                "episode_length": lambda: env.episode_length_buf,
            }
            out.append(record_step(env, action, **reads))
        return out
    finally:
        _close(env)


@cpu_only("core's index-reset step is the CPU reset path (mask_reset_on_cpu=False); CUDA envs always reset by mask")
def test_mask_reset_step_matches_core_step():
    """Nine steps with resets: returns, episode logs, state and counters equal core's index-reset step."""
    core, masked = _trajectory(mask_reset=False), _trajectory(mask_reset=True)
    assert sum(int(step["time_out"].sum()) for step in core) >= 8, "the episodes must time out"
    assert_same_trajectories(core, masked, atol=1e-6, rtol=0.0)


def test_reset_events_sample_in_range_and_keep_other_envs():
    """The mask forms of the reset events spread the masked envs over their ranges and leave the others as they were."""
    env = _make_env(TASK, 16)
    try:
        env.reset(seed=0)
        robot = env.scene["robot"]
        for _ in range(3):
            env.step(torch.full((16, 1), 0.5, device=TEST_DEVICE))
        before_pos, before_vel = robot.data.joint_pos.torch.clone(), robot.data.joint_vel.torch.clone()
        mask = torch.tensor([True] * 12 + [False] * 4, device=TEST_DEVICE)
        env._reset_mask.copy_(mask)  # private: drives the mask reset under test
        env._reset_masked(env._reset_mask)  # private: drives the mask reset under test
        pos, vel = robot.data.joint_pos.torch, robot.data.joint_vel.torch
        assert torch.equal(pos[~mask], before_pos[~mask]) and torch.equal(vel[~mask], before_vel[~mask])
        assert (env.episode_length_buf[mask] == 0).all() and (env.episode_length_buf[~mask] == 3).all()
        cart, pole = robot.find_joints("slider_to_cart")[0][0], robot.find_joints("cart_to_pole")[0][0]
        events = env.cfg.events
        for joint, term in ((cart, events.reset_cart_position), (pole, events.reset_pole_position)):
            for values, key in ((pos[mask, joint], "position_range"), (vel[mask, joint], "velocity_range")):
                low, high = term.params[key]
                assert ((values >= low - 1e-6) & (values <= high + 1e-6)).all(), f"{key} outside [{low}, {high}]"
                assert values.std() > 0.3 * (high - low) / math.sqrt(12.0), "samples must differ between envs"
        assert torch.equal(env.action_manager.action[mask], torch.zeros((12, 1), device=TEST_DEVICE))
    finally:
        _close(env)


def test_reset_event_without_mask_form_steps_through_core():
    """A reset event with no mask form names itself in the reason, and the env still resets through core's path."""
    from isaaclab.managers import EventTermCfg

    calls = []

    def count_resets(env, env_ids):
        calls.append(len(range(env.num_envs)[env_ids]) if isinstance(env_ids, slice) else len(env_ids))

    env = _make_env(TASK, 4, **{"events.count_resets": EventTermCfg(func=count_resets, mode="reset")})
    try:
        reason = env.mask_reset_unavailable_reason()
        assert reason is not None and "'count_resets'" in reason and "mask form" in reason
        env.cfg.episode_length_s = 2 * env.step_dt
        env.reset(seed=0)
        calls.clear()
        for _ in range(4):
            env.step(torch.zeros((4, 1), device=TEST_DEVICE))
        assert calls == [4, 4], "core's path resets every env at each time-out, through the event"
    finally:
        _close(env)


def test_reset_event_with_its_own_mask_form_resets_by_mask():
    """An event function that declares ``mask_form`` keeps the mask path: steps call the form with the done mask."""
    from isaaclab.managers import EventTermCfg

    masks, index_calls = [], []

    def nudge(env, env_ids, offset):
        index_calls.append(env_ids)  # env.reset() resets every env through core's index path

    def nudge_mask(env, env_mask, offset):
        masks.append(env_mask.clone())

    nudge.mask_form = nudge_mask
    term = EventTermCfg(func=nudge, mode="reset", params={"offset": 0.1})
    env = _make_env(TASK, 4, **{"events.nudge": term})
    # eager steps on CUDA too: the test counts the Python calls of the mask form, which graph replays do not make
    env.capture_env_step = env.capture_mask_reset = False
    try:
        assert env.mask_reset_unavailable_reason() is None
        env.cfg.episode_length_s = 3 * env.step_dt
        env.reset(seed=0)
        env.episode_length_buf[:] = torch.tensor([0, 1, 2, 0], device=TEST_DEVICE)
        masks.clear()
        index_calls.clear()
        for _ in range(3):
            env.step(torch.zeros((4, 1), device=TEST_DEVICE))
        assert index_calls == [], "steps reset by mask only"
        assert [mask.tolist() for mask in masks] == [  # 3-step episodes from lengths 0, 1, 2, 0
            [False, False, True, False],
            [False, True, False, False],
            [True, False, False, True],
        ]
    finally:
        _close(env)
