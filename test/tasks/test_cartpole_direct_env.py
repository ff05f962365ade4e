"""The direct cartpole's Warp task terms give upstream's terminations, reward and observation on the same state."""

from __future__ import annotations

import math

import pytest
import torch
from conftest import TEST_DEVICE, cpu_only

NUM_ENVS = 6


@pytest.fixture(scope="module")
def env():
    """One direct cartpole of 6 envs on the test device, shared by the tests (each writes the state it needs)."""
    from isaaclab.sim import SimulationContext

    from isaaclab_contrib.tasks.cartpole.cartpole_direct_env_cfg import CartpoleEnvCfg, make_cartpole_direct_env

    SimulationContext.clear_instance()
    cfg = CartpoleEnvCfg()
    cfg.scene.num_envs = NUM_ENVS
    cfg.sim.device = TEST_DEVICE
    env = make_cartpole_direct_env(cfg)
    # eager steps and resets: the tests swap in upstream's hooks and change cfg values between steps, which a
    # recorded CUDA graph would not see (whole-step replay is checked by test/envs/test_graph_step.py)
    env.capture_env_step = env.capture_mask_reset = False
    env.reset(seed=0)
    yield env
    env.close()
    SimulationContext.clear_instance()


def _upstream():
    from isaaclab_contrib.tasks.cartpole.cartpole_direct_env import _upstream

    return _upstream


def _cart_and_pole(env) -> tuple[int, int]:
    """The joint indices of the cart and the pole, by the names the cfg gives them."""
    robot, cfg = env.cartpole, env.cfg
    return robot.find_joints(cfg.cart_dof_name)[0][0], robot.find_joints(cfg.pole_dof_name)[0][0]


def _write_joints(env, cart_pos, pole_pos, cart_vel, pole_vel) -> None:
    """Write per-env cart [m, m/s] and pole [rad, rad/s] positions and velocities into the simulation state."""
    robot = env.cartpole
    pos = torch.zeros((env.num_envs, robot.num_joints), device=TEST_DEVICE)
    vel = torch.zeros_like(pos)
    cart, pole = _cart_and_pole(env)
    pos[:, cart], pos[:, pole] = torch.tensor(cart_pos, device=TEST_DEVICE), torch.tensor(pole_pos, device=TEST_DEVICE)
    vel[:, cart], vel[:, pole] = torch.tensor(cart_vel, device=TEST_DEVICE), torch.tensor(pole_vel, device=TEST_DEVICE)
    robot.write_joint_position_to_sim_index(position=pos)
    robot.write_joint_velocity_to_sim_index(velocity=vel)


# out of bounds both ways (and one just inside); pole angles past +-pi, at odd multiples of pi, large
CART_POS = [0.5, 3.2, -3.5, 2.99, -1.0, 0.0]
POLE_POS = [0.1, math.pi, -math.pi, 3.0 * math.pi, 7.5, -4.0]
CART_VEL = [0.3, -2.0, 1.5, 0.0, -0.7, 4.0]
POLE_VEL = [-1.0, 0.5, 2.5, -3.0, 0.0, 6.0]


def _upstream_dones(env) -> tuple[torch.Tensor, torch.Tensor]:
    terminated, time_out = _upstream().CartpoleEnv._get_dones(env)  # private: the dones hook under test
    return terminated.clone(), time_out.clone()


def test_dones_match_upstream_out_of_bounds_and_time_out(env):
    """Out-of-bounds carts and episodes at or past the limit give upstream's terminated and time-out flags."""
    _write_joints(env, CART_POS, POLE_POS, CART_VEL, POLE_VEL)
    limit = env.max_episode_length
    env.episode_length_buf[:] = torch.tensor([0, limit - 1, limit, limit + 3, 5, limit], device=TEST_DEVICE)
    terminated, time_out = env._get_dones()  # private: the dones hook under test
    expected = _upstream_dones(env)
    assert torch.equal(terminated, expected[0]) and torch.equal(time_out, expected[1])
    assert terminated.tolist() == [False, True, True, False, False, False]
    assert time_out.tolist() == [False, False, True, True, False, True]


def test_rewards_match_upstream_with_terminated_envs(env):
    """Rewards equal upstream's ``compute_rewards`` with wrapped pole angles and some envs terminated."""
    _write_joints(env, CART_POS, POLE_POS, CART_VEL, POLE_VEL)
    env.reset_terminated[:] = torch.tensor([False, True, True, False, True, False], device=TEST_DEVICE)
    reward = env._get_rewards()  # private: the reward hook under test
    expected = _upstream().CartpoleEnv._get_rewards(env)  # private: the reward hook under test
    torch.testing.assert_close(reward, expected, rtol=1e-6, atol=1e-7)


def test_observations_match_upstream(env):
    """The policy observation equals upstream's (positions, then velocities, relative to nonzero defaults)."""
    _write_joints(env, CART_POS, POLE_POS, CART_VEL, POLE_VEL)
    data = env.cartpole.data
    defaults = (data.default_joint_pos.torch, data.default_joint_vel.torch)
    saved = [tensor.clone() for tensor in defaults]
    try:
        for offset, tensor in zip((0.25, -0.5), defaults, strict=True):
            tensor += offset * torch.arange(1, tensor.shape[1] + 1, device=TEST_DEVICE)
        obs = env._get_observations()["policy"]  # private: the observation hook under test
        env.joint_pos, env.joint_vel = data.joint_pos.torch, data.joint_vel.torch
        expected = _upstream().CartpoleEnv._get_observations(env)["policy"]  # private: the observation hook under test
    finally:
        for tensor, value in zip(defaults, saved, strict=True):
            tensor.copy_(value)
    assert torch.equal(obs, expected)


def test_cfg_fields_are_read_at_each_call(env):
    """Changed reward scales, cart limit and episode length take effect on the next call, as upstream's."""
    _write_joints(env, CART_POS, POLE_POS, CART_VEL, POLE_VEL)
    env.reset_terminated[:] = torch.tensor([True, False, True, False, False, True], device=TEST_DEVICE)
    env.episode_length_buf[:] = 200  # within 5 s (300 steps), past 2.5 s
    cfg = env.cfg
    names = [f"rew_scale_{term}" for term in ("alive", "terminated", "pole_pos", "cart_vel", "pole_vel")]
    saved = {name: getattr(cfg, name) for name in (*names, "max_cart_pos", "episode_length_s")}
    try:
        first = env._get_rewards()  # private: the reward hook under test
        assert not env._get_dones()[1].any()  # private: the dones hook under test
        for name in saved:
            setattr(cfg, name, saved[name] * 0.5 + (0.25 if name.startswith("rew") else 0.0))
        reward = env._get_rewards()  # private: the reward hook under test
        # private: the reward hook under test
        torch.testing.assert_close(reward, _upstream().CartpoleEnv._get_rewards(env), rtol=1e-6, atol=1e-7)
        # private: the dones hook under test
        terminated, time_out = env._get_dones()  # writes core's reset_terminated / reset_time_outs
        expected = _upstream_dones(env)
        assert torch.equal(terminated, expected[0]) and torch.equal(time_out, expected[1])
        assert not torch.isclose(reward, first).any()
        assert time_out.all() and terminated.tolist() == [False, True, True, True, False, False]
    finally:
        for name, value in saved.items():
            setattr(cfg, name, value)


def test_returned_obs_and_reward_are_kept_across_the_next_step(env):
    """An eager step's observation and reward are not rewritten by the next step (learners keep them)."""
    env.reset(seed=1)
    generator = torch.Generator().manual_seed(2)
    obs, reward, *_ = env.step(2.0 * torch.rand((NUM_ENVS, 1), generator=generator).to(TEST_DEVICE) - 1.0)
    kept_obs, kept_reward = obs["policy"].clone(), reward.clone()
    next_obs, next_reward, *_ = env.step(2.0 * torch.rand((NUM_ENVS, 1), generator=generator).to(TEST_DEVICE) - 1.0)
    assert torch.equal(obs["policy"], kept_obs) and torch.equal(reward, kept_reward)
    assert not torch.equal(next_obs["policy"], kept_obs)


def _trajectory(env, steps: int) -> list[tuple[torch.Tensor, ...]]:
    """Reset with seed 3, then ``steps`` steps pushing the carts out of bounds: copies of what each step returned."""
    env.reset(seed=3)
    generator = torch.Generator().manual_seed(4)
    returned = []
    for _ in range(steps):
        obs, reward, terminated, time_out, _ = env.step(
            torch.rand((NUM_ENVS, 1), generator=generator).to(TEST_DEVICE) + 0.5
        )
        returned.append((obs["policy"].clone(), reward.clone(), terminated.clone(), time_out.clone()))
    return returned


@pytest.mark.parametrize(
    "mask_reset",
    [pytest.param(False, marks=cpu_only("CUDA envs always reset by mask: no index-reset path")), True],
    ids=["index_reset", "mask_reset"],
)
def test_steps_with_resets_match_upstream_hooks(env, mask_reset):
    """35 steps (carts driven out of bounds, reset) return what the same steps with upstream's hooks return."""
    env.mask_reset_on_cpu = mask_reset  # the mask reset is the CUDA path
    hooks = ("_pre_physics_step", "_apply_action", "_get_dones", "_get_rewards", "_get_observations")
    upstream = _upstream().CartpoleEnv
    try:
        ours = _trajectory(env, 35)
        for name in hooks:
            setattr(env, name, getattr(upstream, name).__get__(env))
        theirs = _trajectory(env, 35)
    finally:
        for name in hooks:
            vars(env).pop(name, None)
        env.mask_reset_on_cpu = False
    assert any(terminated.any() for _, _, terminated, _ in ours), "some carts must leave the rail"
    for step, (a, b) in enumerate(zip(ours, theirs, strict=True)):
        assert torch.equal(a[0], b[0]), f"observation differs at step {step}"
        torch.testing.assert_close(a[1], b[1], rtol=1e-6, atol=1e-7, msg=f"reward differs at step {step}")
        assert torch.equal(a[2], b[2]) and torch.equal(a[3], b[3]), f"dones differ at step {step}"


def test_masked_reset_state_is_upstream_formula_on_the_same_draw(env):
    """Reset joints are default + uniform offsets in the cfg ranges, clamped to the soft limits; others kept."""
    robot, cfg = env.cartpole, env.cfg
    data = robot.data
    _write_joints(env, CART_POS, POLE_POS, CART_VEL, POLE_VEL)
    before = (data.joint_pos.torch.clone(), data.joint_vel.torch.clone())
    vel_limits = data.soft_joint_vel_limits.torch
    saved = (vel_limits.clone(), cfg.initial_cart_position_range, cfg.initial_cart_velocity_range)
    mask = torch.tensor([True, False, True, True, False, True], device=TEST_DEVICE)
    try:
        vel_limits[:] = 0.4  # [m/s, rad/s] below the sampled cart speeds: the velocity clamp acts
        cfg.initial_cart_position_range = (-6.0, 6.0)  # [m] past the rail's soft limits: the position clamp acts
        cfg.initial_cart_velocity_range = (0.1, 0.9)
        torch.manual_seed(11)
        env._write_masked_sim_state(mask)  # private: the mask reset hook under test
        torch.manual_seed(11)
        uniform = torch.rand((2, env.num_envs, robot.num_joints), device=TEST_DEVICE)
        cart, pole = _cart_and_pole(env)
        ranges = {
            (0, cart): cfg.initial_cart_position_range,
            (0, pole): cfg.initial_pole_angle_range,
            (1, cart): cfg.initial_cart_velocity_range,
            (1, pole): cfg.initial_pole_velocity_range,
        }
        offsets = torch.zeros_like(uniform)
        for (row, joint), (low, high) in ranges.items():
            offsets[row, :, joint] = (high - low) * uniform[row, :, joint] + low
        limits = data.soft_joint_pos_limits.torch
        expected_pos = (data.default_joint_pos.torch + offsets[0]).clamp_(limits[..., 0], limits[..., 1])
        expected_vel = (data.default_joint_vel.torch + offsets[1]).clamp_(-vel_limits, vel_limits)
        pos, vel = data.joint_pos.torch, data.joint_vel.torch
    finally:
        vel_limits.copy_(saved[0])
        cfg.initial_cart_position_range, cfg.initial_cart_velocity_range = saved[1:]
    torch.testing.assert_close(pos[mask], expected_pos[mask], rtol=0.0, atol=1e-6)
    torch.testing.assert_close(vel[mask], expected_vel[mask], rtol=0.0, atol=1e-6)
    assert torch.equal(pos[~mask], before[0][~mask]) and torch.equal(vel[~mask], before[1][~mask])
    assert (pos[mask, cart] == limits[mask, cart, 0]).any() or (pos[mask, cart] == limits[mask, cart, 1]).any()
    assert (vel[mask, cart] == 0.4).any()
    root_pose = data.default_root_pose.torch.clone()
    root_pose[:, :3] += env.scene.env_origins
    assert torch.equal(env._reset_state.root_pose, root_pose)  # private: the reset sampler under test
