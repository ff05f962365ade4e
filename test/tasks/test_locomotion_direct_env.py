"""The direct locomotion task's Warp terms give upstream's derived state, dones, efforts, reward and observation."""

from __future__ import annotations

import pytest
import torch
from conftest import ON_CUDA, TEST_DEVICE, cpu_only

NUM_ENVS = 8
TASKS = ["Isaac-Ant-Direct-v0", "Isaac-Humanoid-Direct-v0"]

# float32 round-off: atan2 (roll, yaw, angle to target) and the heading projection differ from torch's by an ulp
ANGLE_TOL = {"rtol": 1e-6, "atol": 2.5e-7}
# CUDA contracts the Warp kernels' multiply-adds (FMA): values such as the potentials (about -6e4, float32 ulp 0.004)
# can differ from torch's by an ulp, and the progress reward is a difference of two of them
CUDA_TOL = {"rtol": 1e-6, "atol": 1e-6}
REWARD_TOL = {"rtol": 1e-6, "atol": 2e-2} if ON_CUDA else {"rtol": 1e-6, "atol": 1e-6}


@pytest.fixture(scope="module", params=TASKS)
def env(request):
    """One locomotion env of 8 envs on the test device per task, shared by the tests (each writes the state it
    needs)."""
    from isaaclab.sim import SimulationContext

    from isaaclab_contrib.app.env_factory import make_env

    SimulationContext.clear_instance()
    env = make_env(request.param, num_envs=NUM_ENVS, device=TEST_DEVICE).unwrapped
    # eager steps and resets: the tests swap in upstream's hooks and change cfg values between steps, which a
    # recorded CUDA graph would not see (whole-step replay is checked by test/envs/test_graph_step.py)
    env.capture_env_step = env.capture_mask_reset = False
    env.reset(seed=0)
    yield env
    env.close()
    SimulationContext.clear_instance()


def _upstream():
    from isaaclab_contrib.tasks.locomotion_direct_env import _upstream

    return _upstream.LocomotionDirectEnv


def _derived_names() -> tuple[str, ...]:
    from isaaclab_contrib.tasks.locomotion_direct_env import _DERIVED

    return _DERIVED


def _uniform(generator, low: float, high: float, *shape: int) -> torch.Tensor:
    return low + (high - low) * torch.rand(shape, generator=generator).to(TEST_DEVICE)


def _write_random_state(env, seed: int) -> None:
    """Random root poses (one torso on the target's vertical, one yawed by pi), twists and joint states.

    Joint positions reach 10 % of the range beyond the soft limits (the limit cost applies there).
    """
    generator = torch.Generator().manual_seed(seed)
    robot, n = env.robot, env.num_envs
    pose = torch.zeros((n, 7), device=TEST_DEVICE)
    offsets = torch.stack([_uniform(generator, -3.0, 3.0, n), _uniform(generator, -3.0, 3.0, n)], -1)
    pose[:, :2] = env.scene.env_origins[:, :2] + offsets
    pose[:, 2] = _uniform(generator, 0.2, 1.5, n)
    quat = torch.randn((n, 4), generator=generator).to(TEST_DEVICE)
    pose[:, 3:] = quat / quat.norm(dim=-1, keepdim=True)
    pose[0, :2] = env.targets[0, :2]
    pose[1, 3:] = torch.tensor([0.0, 0.0, 1.0, 0.0], device=TEST_DEVICE)
    robot.write_root_pose_to_sim_index(root_pose=pose)
    robot.write_root_velocity_to_sim_index(root_velocity=_uniform(generator, -3.0, 3.0, n, 6))
    limits = robot.data.soft_joint_pos_limits.torch
    low, span = limits[..., 0], limits[..., 1] - limits[..., 0]
    robot.write_joint_position_to_sim_index(
        position=low - 0.1 * span + 1.2 * span * torch.rand(low.shape, generator=generator).to(TEST_DEVICE)
    )
    robot.write_joint_velocity_to_sim_index(velocity=_uniform(generator, -5.0, 5.0, *low.shape))
    env.potentials.copy_(_uniform(generator, -7.0e4, -5.0e4, n))
    env.actions.copy_(_uniform(generator, -1.5, 1.5, *env.actions.shape))
    env.reset_terminated[:] = torch.arange(n, device=TEST_DEVICE) % 3 == 1
    wrench = env.joint_wrench.data
    wrench.force.torch[:] = _uniform(generator, -100.0, 100.0, *wrench.force.torch.shape)
    wrench.torque.torch[:] = _uniform(generator, -10.0, 10.0, *wrench.torque.torch.shape)


def _derived(env) -> dict[str, torch.Tensor]:
    return {name: getattr(env, name).clone() for name in _derived_names()}


def _upstream_derived(env, potentials: torch.Tensor) -> dict[str, torch.Tensor]:
    """Upstream's ``_compute_intermediate_values`` from ``potentials``; the env's buffers are kept as they were."""
    kept = {name: getattr(env, name) for name in _derived_names()}
    try:
        env.potentials = potentials.clone()
        _upstream()._compute_intermediate_values(env)  # private: the derived-state hook under test
        return _derived(env)
    finally:
        for name, value in kept.items():
            setattr(env, name, value)


def _assert_derived_close(ours: dict, theirs: dict) -> None:
    for name in _derived_names():
        if name in ("roll", "yaw", "angle_to_target", "heading_proj"):
            torch.testing.assert_close(ours[name], theirs[name], **ANGLE_TOL, msg=name)
        elif ON_CUDA:
            torch.testing.assert_close(ours[name], theirs[name], **CUDA_TOL, msg=name)
        else:
            assert torch.equal(ours[name], theirs[name]), f"{name} differs:\n{ours[name]}\n{theirs[name]}"


def test_derived_state_matches_upstream(env):
    """Torso state, projections, angles, scaled joints and potentials equal upstream's, nonzero default joint vel."""
    default_vel = env.robot.data.default_joint_vel.torch
    saved = default_vel.clone()
    try:
        default_vel += 0.3 * torch.arange(1, default_vel.shape[1] + 1, device=TEST_DEVICE)
        for seed in range(3):
            _write_random_state(env, seed)
            potentials = env.potentials.clone()
            env._compute_intermediate_values()  # private: the derived-state hook under test
            ours = _derived(env)
            _assert_derived_close(ours, _upstream_derived(env, potentials))
            assert torch.equal(ours["prev_potentials"], potentials)
    finally:
        default_vel.copy_(saved)
    assert ours["heading_proj"][0] == 0.0, "a torso on the target's vertical has no heading to it"
    assert (ours["dof_pos_scaled"].abs() > 1.0).any(), "some joints must lie beyond their soft limits"


def test_derived_state_kernel_reads_strided_data():
    """Root and joint data given as strided views (columns of wider state arrays) give what contiguous copies give."""
    import warp as wp

    from isaaclab_contrib.tasks.locomotion_kernels import DerivedState, StateInputs, locomotion_derived_state_kernel

    wp.init()
    names = (  # the struct's fields, in the order of the outputs below
        "torso_position", "vel_loc", "angvel_loc", "up_proj", "heading_proj", "roll", "yaw", "angle_to_target",
        "dof_pos_scaled", "dof_vel", "potentials", "prev_potentials",
    )  # fmt: skip
    n, j = 5, 4
    generator = torch.Generator().manual_seed(10)
    state = torch.randn((n, 19), generator=generator).to(
        TEST_DEVICE
    )  # pose (7), body-frame twist (6), gravity (3), forward (3)
    state[:, 3:7] /= state[:, 3:7].norm(dim=-1, keepdim=True)
    joints = torch.randn((n, 3 * j), generator=generator).to(
        TEST_DEVICE
    )  # positions, velocities, default velocities interleaved
    limits = torch.sort(
        torch.randn((n, j, 3), generator=generator).to(TEST_DEVICE), dim=-1
    ).values  # (lower, upper, unused)
    columns = {
        "root_pos_w": (state[:, 0:3], wp.vec3f),
        "root_quat_w": (state[:, 3:7], wp.quatf),
        "root_lin_vel_b": (state[:, 7:10], wp.vec3f),
        "root_ang_vel_b": (state[:, 10:13], wp.vec3f),
        "projected_gravity_b": (state[:, 13:16], wp.vec3f),
        "forward_b": (state[:, 16:19], wp.vec3f),
        "joint_pos": (joints[:, 0::3], wp.float32),
        "joint_vel": (joints[:, 1::3], wp.float32),
        "default_joint_vel": (joints[:, 2::3], wp.float32),
        "soft_joint_pos_limits": (limits[..., :2], wp.vec2f),
    }
    targets = torch.randn((n, 3), generator=generator).to(TEST_DEVICE)
    potentials = torch.randn(n, generator=generator).to(TEST_DEVICE)

    def run(arrays: list) -> list[torch.Tensor]:
        outputs = [torch.zeros((n, width), device=TEST_DEVICE) for width in (3, 3, 3)] + [
            torch.zeros(n, device=TEST_DEVICE) for _ in range(5)
        ]
        outputs += [
            torch.zeros((n, j), device=TEST_DEVICE),
            torch.zeros((n, j), device=TEST_DEVICE),
            torch.zeros(n, device=TEST_DEVICE),
            torch.zeros(n, device=TEST_DEVICE),
        ]
        derived = DerivedState()
        for name, output in zip(names, outputs, strict=True):
            setattr(derived, name, wp.from_torch(output))
        inputs = StateInputs()
        task_arrays = [wp.from_torch(targets), wp.from_torch(potentials)]
        for name, array in zip(StateInputs.vars, [*arrays, *task_arrays], strict=True):
            setattr(inputs, name, array)
        wp.launch(locomotion_derived_state_kernel, dim=n, inputs=[inputs, 0.0166667, derived])
        return outputs

    strided = run([wp.from_torch(view, dtype=dtype) for view, dtype in columns.values()])
    assert not all(view.is_contiguous() for view, _ in columns.values())
    contiguous = run([wp.from_torch(view.contiguous(), dtype=dtype) for view, dtype in columns.values()])
    for a, b in zip(strided, contiguous, strict=True):
        assert torch.equal(a, b)
    assert torch.equal(strided[0], state[:, 0:3]) and torch.equal(strided[9], joints[:, 1::3] - joints[:, 2::3])


def test_dones_match_upstream_termination_height_and_time_out(env):
    """Torsos below ``termination_height`` and episodes at or past the limit give upstream's dones."""
    _write_random_state(env, 3)
    limit = env.max_episode_length
    env.episode_length_buf[:] = torch.tensor([0, limit - 1, limit, limit + 3, 5, limit, 1, 2], device=TEST_DEVICE)
    height = env.robot.data.root_pos_w.torch[:, 2].clone()
    saved = env.cfg.termination_height
    try:
        env.cfg.termination_height = float(height.median())
        died, time_out = env._get_dones()  # private: the dones hook under test
        assert torch.equal(died, height < env.cfg.termination_height) and died.any() and not died.all()
        assert time_out.tolist() == [False, False, True, True, False, True, False, False]
        potentials = env.prev_potentials.clone()
        ours = _derived(env)
        theirs = _upstream()._get_dones(env)  # private: the dones hook under test
        assert torch.equal(died, theirs[0]) and torch.equal(time_out, theirs[1])
    finally:
        env.cfg.termination_height = saved
    _assert_derived_close(ours, _upstream_derived(env, potentials))


def test_efforts_match_upstream(env):
    """Joint effort targets are upstream's ``action_scale * gear * clamp(action, -1, 1)`` [N m], actions kept."""
    actions = _uniform(torch.Generator().manual_seed(4), -2.0, 2.0, *env.actions.shape)
    effort = env.robot.actuators.target_command.effort.torch
    env._pre_physics_step(actions)  # private: the action hook under test
    ours, kept = effort.clone(), env.actions.clone()
    buffer = env.actions
    try:
        _upstream()._pre_physics_step(env, actions)  # private: the action hook under test
    finally:
        env.actions = buffer
    assert torch.equal(ours, effort) and torch.equal(kept, actions)
    assert (ours.abs() > 0.0).all() and ours.abs().max() <= env.action_scale * env.joint_gears.max()


def test_rewards_match_upstream_with_terminated_envs(env):
    """Rewards equal upstream's ``compute_rewards``: progress, upright, heading, costs, joint limits, death."""
    _write_random_state(env, 5)
    env._compute_intermediate_values()  # private: the derived-state hook under test
    reward = env._get_rewards()  # private: the reward hook under test
    # private: the reward hook under test
    torch.testing.assert_close(reward, _upstream()._get_rewards(env), rtol=1e-6, atol=1e-6)
    assert env.reset_terminated.any() and (~env.reset_terminated).any()


def test_observations_match_upstream(env):
    """The policy observation equals upstream's (wrapped angles, scaled joints, feet wrenches, actions)."""
    _write_random_state(env, 6)
    env._compute_intermediate_values()  # private: the derived-state hook under test
    obs = env._get_observations()["policy"]  # private: the observation hook under test
    assert obs.shape == (env.num_envs, env.cfg.observation_space)
    # private: the observation hook under test
    torch.testing.assert_close(obs, _upstream()._get_observations(env)["policy"], **ANGLE_TOL)


def test_cfg_fields_are_read_at_each_call(env):
    """Changed reward weights, observation scales and action scale take effect on the next call, as upstream's."""
    _write_random_state(env, 7)
    env._compute_intermediate_values()  # private: the derived-state hook under test
    cfg = env.cfg
    names = (
        "up_weight", "heading_weight", "actions_cost_scale", "energy_cost_scale", "joint_pos_limits_cost_scale",
        "joint_pos_limits_threshold", "death_cost", "alive_reward_scale", "angular_velocity_scale", "dof_vel_scale",
        "contact_force_scale",
    )  # fmt: skip
    saved = {name: getattr(cfg, name) for name in names}
    saved_scale = env.action_scale
    # private: the reward hook under test
    first_reward, first_obs = env._get_rewards(), env._get_observations()["policy"]
    try:
        for name in names:
            setattr(cfg, name, saved[name] * 0.5 if name == "joint_pos_limits_threshold" else saved[name] * 1.5 + 0.1)
        env.action_scale = 0.5 * saved_scale
        reward, obs = env._get_rewards(), env._get_observations()["policy"]  # private: the reward hook under test
        # private: the reward hook under test
        torch.testing.assert_close(reward, _upstream()._get_rewards(env), rtol=1e-6, atol=1e-6)
        # private: the observation hook under test
        torch.testing.assert_close(obs, _upstream()._get_observations(env)["policy"], **ANGLE_TOL)
        actions = env.actions.clone()
        env._pre_physics_step(actions)  # private: the action hook under test
        effort = env.robot.actuators.target_command.effort.torch
        torch.testing.assert_close(effort, 0.5 * saved_scale * env.joint_gears * actions.clamp(-1.0, 1.0))
    finally:
        for name, value in saved.items():
            setattr(cfg, name, value)
        env.action_scale = saved_scale
    assert not torch.isclose(reward, first_reward).any() and not torch.equal(obs, first_obs)


def test_task_attributes_stay_bound_across_steps(env):
    """Upstream's derived attributes and ``actions`` are the same tensors on every step (no per-step tensors)."""
    env.mask_reset_on_cpu = True  # the CUDA path: the task's reset runs on every step
    try:
        env.reset(seed=1)
        actions = torch.zeros(env.actions.shape, device=TEST_DEVICE)
        env.step(actions)
        bound = {name: getattr(env, name) for name in (*_derived_names(), "actions")}
        for _ in range(2):
            env.step(actions)
    finally:
        env.mask_reset_on_cpu = False
    assert all(getattr(env, name) is tensor for name, tensor in bound.items())


def test_returned_obs_and_reward_are_kept_across_the_next_step(env):
    """An eager step's observation and reward are not rewritten by the next step (learners keep them)."""
    env.reset(seed=1)
    generator = torch.Generator().manual_seed(2)
    obs, reward, *_ = env.step(_uniform(generator, -1.0, 1.0, *env.actions.shape))
    kept_obs, kept_reward = obs["policy"].clone(), reward.clone()
    next_obs, next_reward, *_ = env.step(_uniform(generator, -1.0, 1.0, *env.actions.shape))
    assert torch.equal(obs["policy"], kept_obs) and torch.equal(reward, kept_reward)
    assert not torch.equal(next_obs["policy"], kept_obs)


def _torch_reset_masked_task(env, mask: torch.Tensor) -> None:
    """The mask reset's task part in torch, with upstream's ``_compute_intermediate_values`` (the reference)."""
    env._log_masked_success_rate(mask)  # private: the success-rate log under test
    env.actions.masked_fill_(mask[:, None], 0.0)
    to_target = env.targets - (env.robot.data.default_root_pose.torch[:, :3] + env.scene.env_origins)
    to_target[:, 2] = 0.0
    fresh = -torch.linalg.norm(to_target, ord=2, dim=-1) / env.step_dt
    env.potentials = torch.where(mask, fresh, env.potentials)
    _upstream()._compute_intermediate_values(env)  # private: the derived-state hook under test


def test_task_reset_matches_the_torch_reference(env):
    """The mask reset's task part zeroes masked actions and restarts their potentials, as the torch reference does."""
    for seed, mask in (
        (11, torch.arange(NUM_ENVS, device=TEST_DEVICE) % 2 == 0),
        (12, torch.arange(NUM_ENVS, device=TEST_DEVICE) < 3),
    ):
        _write_random_state(env, seed)
        actions, potentials = env.actions.clone(), env.potentials.clone()
        env._reset_masked_task(mask.clone())  # private: the mask reset hook under test; a new mask tensor on each call
        ours = _derived(env) | {"actions": env.actions.clone()}
        kept = {name: getattr(env, name) for name in (*_derived_names(), "actions")}
        try:
            env.actions, env.potentials = actions.clone(), potentials.clone()
            _torch_reset_masked_task(env, mask)
            theirs = _derived(env) | {"actions": env.actions.clone()}
        finally:
            vars(env).update(kept)
        _assert_derived_close(ours, theirs)
        assert torch.equal(ours["actions"], theirs["actions"]) and (ours["actions"][mask] == 0.0).all()
        assert torch.equal(ours["actions"][~mask], actions[~mask])
        assert torch.equal(ours["prev_potentials"][~mask], potentials[~mask])


STEPS = 12
DEATH_STEP = 7  # every torso is below the raised termination height on this step


def _trajectory(env) -> list[tuple[torch.Tensor, ...]]:
    """Reset with seed 3, staggered 4-step episodes, every env dying on one step: copies of what each step returned."""
    env.reset(seed=3)
    env.episode_length_buf[:] = torch.arange(env.num_envs, device=TEST_DEVICE) % 4
    generator = torch.Generator().manual_seed(4)
    saved = env.cfg.termination_height
    returned = []
    try:
        for step in range(STEPS):
            env.cfg.termination_height = 100.0 if step == DEATH_STEP else saved
            obs, reward, terminated, time_out, _ = env.step(_uniform(generator, -1.0, 1.0, *env.actions.shape))
            returned.append((obs["policy"].clone(), reward.clone(), terminated.clone(), time_out.clone()))
    finally:
        env.cfg.termination_height = saved
    return returned


@pytest.mark.parametrize(
    "mask_reset",
    [pytest.param(False, marks=cpu_only("CUDA envs always reset by mask: no index-reset path")), True],
    ids=["index_reset", "mask_reset"],
)
def test_steps_with_resets_match_upstream_hooks(env, mask_reset):
    """12 steps with time-outs and deaths return what the same steps with upstream's torch hooks return."""
    saved_length = env.cfg.episode_length_s
    env.cfg.episode_length_s = 3.5 * env.step_dt  # 4 steps
    env.mask_reset_on_cpu = mask_reset  # the mask reset is the CUDA path
    upstream = _upstream()
    hooks = {
        name: getattr(upstream, name).__get__(env)
        for name in (
            "_pre_physics_step", "_apply_action", "_compute_intermediate_values", "_get_dones", "_get_rewards",
            "_get_observations",
        )
    }  # fmt: skip
    hooks["_reset_masked_task"] = lambda mask: _torch_reset_masked_task(env, mask)
    kept = {name: getattr(env, name) for name in (*_derived_names(), "actions")}
    try:
        ours = _trajectory(env)
        vars(env).update(hooks)
        theirs = _trajectory(env)
    finally:
        for name in hooks:
            vars(env).pop(name, None)
        vars(env).update(kept)
        env.mask_reset_on_cpu = False
        env.cfg.episode_length_s = saved_length
    assert ours[DEATH_STEP][2].all() and not ours[DEATH_STEP - 1][2].any()
    assert any(time_out.any() and not time_out.all() for *_, time_out in ours), "episodes must time out staggered"
    for step, (a, b) in enumerate(zip(ours, theirs, strict=True)):
        torch.testing.assert_close(a[0], b[0], **ANGLE_TOL, msg=f"observation differs at step {step}")
        torch.testing.assert_close(a[1], b[1], **REWARD_TOL, msg=f"reward differs at step {step}")
        assert torch.equal(a[2], b[2]) and torch.equal(a[3], b[3]), f"dones differ at step {step}"
