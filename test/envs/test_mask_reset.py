"""Mask-native resets of the direct tasks: same result as core's index path, sampled in range, no host syncs."""

from __future__ import annotations

import math

import pytest
import torch
from conftest import TEST_DEVICE, cpu_only

from .conftest import DIRECT_TASKS, FIXED_RESET, _assert_same, _close, _drive, _make_env, _mark_done, _robot, _snapshot


@pytest.mark.parametrize("task", DIRECT_TASKS)
def test_mask_reset_matches_index_reset(task):
    """From the same state, the mask reset leaves state, buffers, log and observation equal to core's index reset."""
    from isaaclab_contrib.envs.mask_reset import MaskResetMixin

    results = []
    for path in ("index", "mask"):
        env = _make_env(task, 4, **FIXED_RESET[task])
        try:
            _drive(env, 6)
            before = _snapshot(env)
            _mark_done(env)
            if path == "index":
                ids = super(MaskResetMixin, env)._reset_envs_from_buffer()  # private: core's reset hook under test
                assert ids.tolist() == [0, 1, 3]
            else:
                assert env._reset_envs_from_buffer() is None  # private: core's reset hook under test
            results.append((before, _snapshot(env)))
        finally:
            _close(env)
    (before_index, after_index), (before_mask, after_mask) = results
    _assert_same(before_index, before_mask)
    assert not torch.equal(before_index["state.joint_q"], after_index["state.joint_q"]), "the reset must change state"
    assert after_mask["success_rate"].item() == pytest.approx(2.0 / 3.0)
    _assert_same(after_index, after_mask)


@pytest.mark.parametrize("task", DIRECT_TASKS)
def test_mask_reset_samples_in_range_and_keeps_other_envs(task):
    """Masked envs get default root state and joint offsets spread over the configured ranges; others are kept."""
    num_envs = 8
    env = _make_env(task, num_envs)
    try:
        _drive(env, 4)
        before = _snapshot(env)
        mask = torch.tensor([True] * 6 + [False] * 2, device=TEST_DEVICE)
        env.reset_buf = mask.clone()
        assert env._reset_envs_from_buffer() is None  # private: core's reset hook under test
        after = _snapshot(env)
        robot, cfg = _robot(env), env.cfg
        for name in ("joint_pos", "joint_vel", "root_pose_w", "body_link_pose_w", "obs", "episode_length_buf"):
            assert torch.equal(after[name][~mask], before[name][~mask]), f"{name} of a kept env changed"
        assert (after["episode_length_buf"][mask] == 0).all()

        root_pose = robot.data.default_root_pose.torch.clone()
        root_pose[:, :3] += env.scene.env_origins
        torch.testing.assert_close(after["root_pose_w"][mask], root_pose[mask], atol=1e-5, rtol=0.0)

        offset_pos = after["joint_pos"][mask] - robot.data.default_joint_pos.torch[mask]
        offset_vel = after["joint_vel"][mask] - robot.data.default_joint_vel.torch[mask]
        limits = robot.data.soft_joint_pos_limits.torch[mask]
        clamped = (after["joint_pos"][mask] <= limits[..., 0] + 1e-6) | (
            after["joint_pos"][mask] >= limits[..., 1] - 1e-6
        )
        if "cartpole" in env.scene.articulations:
            cart, pole = robot.find_joints(cfg.cart_dof_name)[0][0], robot.find_joints(cfg.pole_dof_name)[0][0]
            checks = [
                (offset_pos[:, cart], cfg.initial_cart_position_range, clamped[:, cart]),
                (offset_vel[:, cart], cfg.initial_cart_velocity_range, None),
                (offset_pos[:, pole], cfg.initial_pole_angle_range, clamped[:, pole]),
                (offset_vel[:, pole], cfg.initial_pole_velocity_range, None),
            ]
        else:
            checks = [
                (offset_pos.flatten(), cfg.initial_joint_pos_range, clamped.flatten()),
                (offset_vel.flatten(), cfg.initial_joint_vel_range, None),
            ]
        for values, (low, high), at_limit in checks:
            free = values if at_limit is None else values[~at_limit]
            assert ((free >= low - 1e-6) & (free <= high + 1e-6)).all(), f"offsets outside [{low}, {high}]: {free}"
            # a uniform sample's standard deviation is (high - low) / sqrt(12); allow a wide margin for few samples
            assert free.std() > 0.3 * (high - low) / math.sqrt(12.0), "offsets must differ between envs"
    finally:
        _close(env)


@pytest.mark.parametrize(
    "task", [*DIRECT_TASKS, "Isaac-Cartpole-v0", "Isaac-Lift-Soft-Franka-v0", "Isaac-Lift-Cloth-Franka-v0"]
)
def test_step_with_resets_reads_no_device_data(task, monkeypatch):
    """50 steps with staggered 3-step episodes call no nonzero, item, tolist or bool/int/float/index of a tensor."""

    env = _make_env(task, 4)
    try:
        env.cfg.episode_length_s = 3 * env.step_dt
        env.reset(seed=0)
        env.episode_length_buf[:] = torch.tensor([0, 1, 2, 0], device=TEST_DEVICE)
        actions = torch.zeros((env.num_envs, env.action_space.shape[-1]), device=TEST_DEVICE)
        done = torch.zeros(env.num_envs, dtype=torch.long, device=TEST_DEVICE)

        def forbidden(name):
            def fn(*args, **kwargs):
                raise AssertionError(f"{name} called from env.step()")

            return fn

        # not .numpy()/.cpu(): on CPU Warp passes torch tensors to kernels through __array__ (no device to sync)
        for name in ("nonzero", "item", "tolist", "__bool__", "__int__", "__float__", "__index__"):
            monkeypatch.setattr(torch.Tensor, name, forbidden(f"Tensor.{name}"))
        monkeypatch.setattr(torch, "nonzero", forbidden("torch.nonzero"))
        for _ in range(50):
            _, _, terminated, truncated, _ = env.step(actions)
            done += terminated | truncated
        monkeypatch.undo()
        assert (done >= 50 // 3).all(), f"every env must reset about every 3 steps, got {done}"
    finally:
        monkeypatch.undo()
        _close(env)


def test_final_obs_uses_core_index_reset():
    """With ``compute_final_obs`` the step returns through core's index path and exposes the terminal obs."""
    env = _make_env("Isaac-Cartpole-Direct-v0", 4, compute_final_obs=True)
    try:
        env.reset(seed=0)
        env.reset_time_outs[:] = torch.tensor([False, True, False, False], device=TEST_DEVICE)
        env.reset_terminated[:] = False
        env.reset_buf = env.reset_time_outs.clone()
        ids = env._reset_envs_from_buffer()  # private: core's reset hook under test
        assert ids.tolist() == [1]
        assert env.extras["final_obs"]["policy"].shape == (4, 4)
    finally:
        _close(env)


@cpu_only("mask_reset_on_cpu chooses the CPU reset path; CUDA always resets by mask")
def test_cpu_resets_by_index_unless_opted_in():
    """On CPU the mask path is opt-in: by default the step resets through core's index path."""
    env = _make_env("Isaac-Cartpole-Direct-v0", 4, mask_on_cpu=False)
    try:
        env.reset(seed=0)
        env.reset_buf = torch.tensor([False, False, True, False], device=TEST_DEVICE)
        assert env._reset_envs_from_buffer().tolist() == [2]  # private: core's reset hook under test
        env.mask_reset_on_cpu = True
        assert env._reset_envs_from_buffer() is None  # private: core's reset hook under test
    finally:
        _close(env)


@pytest.mark.parametrize("task", ["Isaac-Cartpole-Direct-v0", "Isaac-Cartpole-v0"])
def test_returned_episode_log_is_not_rewritten_by_later_steps(task):
    """The ``extras["log"]`` a mask-reset step returns keeps its values when later steps reset other envs."""
    env = _make_env(task, 4)
    try:
        env.cfg.episode_length_s = 3 * env.step_dt
        env.reset(seed=0)
        env.episode_length_buf[:] = torch.tensor([0, 1, 2, 0], device=TEST_DEVICE)
        actions = torch.zeros((env.num_envs, env.action_space.shape[-1]), device=TEST_DEVICE)
        held = []
        for _ in range(7):
            log = env.step(actions)[4]["log"]
            held.append((log, {name: torch.as_tensor(value).clone() for name, value in log.items()}))
        for step, (log, copy) in enumerate(held):
            for name, value in copy.items():
                assert torch.equal(torch.as_tensor(log[name]), value), f"step {step}: {name} was rewritten"
        for name in held[0][1]:
            addresses = [log[name].data_ptr() for log, _ in held]
            assert len(set(addresses)) == len(addresses), f"{name}: steps returned the same tensor"
    finally:
        _close(env)


@pytest.fixture(scope="module")
def cartpole():
    """A direct cartpole of 6 envs on the test device (mask path opted in on CPU), shared by the success-rate tests."""
    env = _make_env("Isaac-Cartpole-Direct-v0", 6)
    env.reset(seed=0)
    yield env
    _close(env)


def test_success_rate_is_mean_time_out_of_the_masked_envs(cartpole):
    """The logged rate equals ``reset_time_outs[mask].float().mean()`` for the reset mask and for other masks."""
    env = cartpole
    generator = torch.Generator().manual_seed(5)
    for trial in range(8):
        mask = (torch.rand(env.num_envs, generator=generator) < 0.6).to(env.device)
        mask[trial % env.num_envs] = True  # at least one env resets
        env.reset_time_outs[:] = torch.rand(env.num_envs, generator=generator) < 0.5
        expected = env.reset_time_outs[mask].float().mean()
        if trial % 2:
            env._reset_mask.copy_(mask)  # private: drives the mask reset under test
            mask = env._reset_mask  # private: drives the mask reset under test
        env._log_masked_success_rate(mask)  # private: the success-rate log under test
        rate = env.extras["log"]["Metrics/success_rate"]
        assert rate.dim() == 0 and rate.dtype == torch.float32
        assert torch.equal(rate, expected), f"trial {trial}: {rate} != {expected}"


def test_success_rate_is_kept_when_no_env_resets(cartpole):
    """A mask without set envs leaves the last logged rate (and its tensor) as it was."""
    env = cartpole
    env.reset_time_outs[:] = torch.tensor([True, False, False, True, True, False], device=TEST_DEVICE)
    # private: the success-rate log under test
    env._log_masked_success_rate(torch.tensor([True, True, False, True, False, False], device=TEST_DEVICE))
    rate = env.extras["log"]["Metrics/success_rate"]
    assert rate.item() == pytest.approx(2.0 / 3.0)
    env.reset_time_outs[:] = True
    env._reset_mask.zero_()  # private: drives the mask reset under test
    env._log_masked_success_rate(env._reset_mask)  # private: the success-rate log under test
    assert env.extras["log"]["Metrics/success_rate"] is rate
    assert rate.item() == pytest.approx(2.0 / 3.0)
    # private: the success-rate log under test
    env._log_masked_success_rate(torch.tensor([False, False, False, False, False, True], device=TEST_DEVICE))
    assert rate.item() == 1.0
