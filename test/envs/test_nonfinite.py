"""NaN worlds in the tasks: flagged, terminated, reset bit-identically to a fresh reset; NaN actions zeroed."""

from __future__ import annotations

import logging

import numpy as np
import pytest
import torch
from conftest import ON_CUDA, TEST_DEVICE

NUM_ENVS = 4
POISONED = 1


def _make(task: str, solver: str = "mjwarp", **physics):
    """Build ``task`` on the test device with 4 envs, ``solver`` and deterministic (zero-width) reset ranges."""
    from isaaclab.sim import SimulationContext

    from isaaclab_contrib.app.env_factory import load_env_cfg, make_env

    SimulationContext.clear_instance()
    cfg = load_env_cfg(task, solver=solver)
    for name, value in physics.items():
        setattr(cfg.sim.physics, name, value)
    if task == "Isaac-Cartpole-Direct-v0":
        for name in ("cart_position", "cart_velocity", "pole_angle", "pole_velocity"):
            setattr(cfg, f"initial_{name}_range", (0.0, 0.0))
    return make_env(task, cfg=cfg, num_envs=NUM_ENVS, device=TEST_DEVICE)


def _close(env) -> None:
    from isaaclab.sim import SimulationContext

    env.close()
    SimulationContext.clear_instance()


def _poison(world: int) -> None:
    """Write NaN into every joint velocity and body twist of ``world`` (XPBD integrates the body twists)."""
    from isaaclab_newton.physics import NewtonManager

    model, state = NewtonManager.get_model(), NewtonManager.get_state_0()
    for array, starts in ((state.joint_qd, model.joint_dof_world_start), (state.body_qd, model.body_world_start)):
        start = starts.numpy()
        values = array.numpy()
        values[start[world] : start[world + 1]] = np.nan
        array.assign(values)


def _world_state(world: int) -> list[np.ndarray]:
    """Joint coordinates/velocities and body poses/twists of ``world``, copied to the host.

    Asset writes queue masked FK that runs before the next step or body read; reading ``State`` directly, apply it
    first (what the next step does anyway, so the rollout is unchanged).
    """
    from isaaclab_newton.physics import NewtonManager

    NewtonManager.update_kinematics()
    model, state = NewtonManager.get_model(), NewtonManager.get_state_0()
    out = []
    for array, starts in (
        (state.joint_q, model.joint_coord_world_start),
        (state.joint_qd, model.joint_dof_world_start),
        (state.body_q, model.body_world_start),
        (state.body_qd, model.body_world_start),
    ):
        s = starts.numpy()
        out.append(array.numpy()[s[world] : s[world + 1]].copy())
    return out


def _actions(steps: int) -> list[torch.Tensor]:
    generator = torch.Generator().manual_seed(1)
    return [2.0 * torch.rand((NUM_ENVS, 1), generator=generator) - 1.0 for _ in range(steps)]


def _rollout(env, actions) -> list[torch.Tensor]:
    return [env.step(a)[0]["policy"].clone() for a in actions]


@pytest.fixture(scope="module", params=["mjwarp", "xpbd", "featherstone"])
def reference(request):
    """Cartpole direct without NaN on each solver: obs and world-1 state after reset, and a 20-step rollout."""
    env = _make("Isaac-Cartpole-Direct-v0", request.param)
    try:
        obs, _ = env.reset(seed=0)
        fresh_state = _world_state(POISONED)
        rollout = _rollout(env, _actions(20))
    finally:
        _close(env)
    return request.param, obs["policy"].clone(), fresh_state, rollout


def test_nan_world_terminated_reset_and_identical_to_fresh(reference):
    """World 1 poisoned at step 10 is flagged, terminated, reset to the fresh state bit for bit and replays the
    fresh trajectory exactly; worlds 0, 2, 3 follow the reference rollout bit for bit (each cartpole solver)."""
    solver, fresh_obs, fresh_state, ref_rollout = reference
    actions = _actions(20)
    env = _make("Isaac-Cartpole-Direct-v0", solver)
    try:
        env.reset(seed=0)
        for t in range(10):
            obs, *_ = env.step(actions[t])
            assert torch.equal(obs["policy"], ref_rollout[t])
        _poison(POISONED)
        obs, reward, terminated, truncated, extras = env.step(actions[10])
        assert terminated.tolist() == [False, True, False, False]
        assert int(extras["nan_envs"]) == 1 and isinstance(extras["nan_envs"], torch.Tensor)
        assert reward[POISONED] == 0.0 and torch.isfinite(reward).all()
        assert torch.equal(obs["policy"][POISONED], fresh_obs[POISONED])
        for got, want in zip(_world_state(POISONED), fresh_state, strict=True):
            np.testing.assert_array_equal(got, want)
        others = [0, 2, 3]
        assert torch.equal(obs["policy"][others], ref_rollout[10][others])
        # after the reset, world 1 replays the reference trajectory from its fresh reset (same actions)
        for t in range(9):
            obs, *_ = env.step(actions[t])
            assert torch.equal(obs["policy"][POISONED], ref_rollout[t][POISONED])
    finally:
        _close(env)


def test_manager_based_cartpole_terminates_nan_world():
    """Isaac-Cartpole-v0's nonfinite_state term terminates the poisoned env; observations stay finite."""
    env = _make("Isaac-Cartpole-v0")
    try:
        env.reset(seed=0)
        env.step(torch.zeros(NUM_ENVS, 1, device=TEST_DEVICE))
        _poison(2)
        obs, _, terminated, _, extras = env.step(torch.zeros(NUM_ENVS, 1, device=TEST_DEVICE))
        assert terminated.tolist() == [False, False, True, False]
        assert int(extras["nan_envs"]) == 1
        assert torch.isfinite(obs["policy"]).all()
        assert env.unwrapped.termination_manager.get_term("nonfinite_state").tolist() == [False, False, True, False]
    finally:
        _close(env)


def test_nan_action_zeroed_with_warning(caplog):
    """NaN and +/-inf action entries are applied as 0 (same step result as a zero action) and logged as a warning."""
    env = _make("Isaac-Cartpole-Direct-v0", nonfinite_log_interval=1)
    try:
        env.reset(seed=0)
        action = torch.zeros(NUM_ENVS, 1, device=TEST_DEVICE)
        action[0, 0] = float("nan")
        action[1, 0] = -float("inf")
        action[3, 0] = float("inf")
        with caplog.at_level(logging.WARNING, logger="isaaclab_contrib.envs.nonfinite"):
            obs, _, terminated, _, _ = env.step(action)
            policy = obs["policy"].clone()
            if ON_CUDA:  # the count reaches the host without waiting: logged on the first later step once landed
                torch.cuda.synchronize()
                env.step(torch.zeros_like(action))
        assert torch.isfinite(policy).all() and not terminated.any()
        # CUDA: equal worlds may differ by float round-off (about 1e-19 here), their reductions ordered differently
        atol = 1e-6 if ON_CUDA else 0.0
        for env_id, entry in ((0, "NaN"), (1, "-inf"), (3, "inf")):
            torch.testing.assert_close(
                policy[env_id], policy[2], rtol=0.0, atol=atol, msg=f"env {env_id} ({entry}) must behave like env 2"
            )
        assert any("3 non-finite action entries" in r.getMessage() for r in caplog.records)
    finally:
        _close(env)


def test_integer_action_rejected():
    """An integer action tensor raises TypeError naming the dtype."""
    env = _make("Isaac-Cartpole-Direct-v0")
    try:
        env.reset(seed=0)
        with pytest.raises(TypeError, match="floating-point action"):
            env.step(torch.zeros(NUM_ENVS, 1, dtype=torch.int64, device=TEST_DEVICE))
    finally:
        _close(env)


def test_ant_first_observation_after_nan_reset_is_finite():
    """An ant world poisoned with NaN is terminated and its first post-reset observation (feet wrenches included)
    is finite; env.reset() afterwards also returns finite observations."""
    env = _make("Isaac-Ant-Direct-v0")
    try:
        env.reset(seed=0)
        env.step(torch.zeros(NUM_ENVS, 8, device=TEST_DEVICE))
        _poison(0)
        obs, _, terminated, _, extras = env.step(torch.zeros(NUM_ENVS, 8, device=TEST_DEVICE))
        assert terminated[0] and int(extras["nan_envs"]) == 1
        assert torch.isfinite(obs["policy"]).all()
        _poison(3)
        env.unwrapped.sim.step(render=False)  # physics only: world 3's joint wrench observable turns NaN
        obs, _ = env.reset()
        assert torch.isfinite(obs["policy"]).all()
    finally:
        _close(env)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float32, torch.float64])
def test_nonfinite_action_entries_zeroed_and_counted_in_float_dtypes(dtype):
    """NaN/inf entries of a (non-contiguous) action become +0.0 as ``torch.nan_to_num`` gives; they are counted."""
    import warp as wp

    from isaaclab_contrib.envs.nonfinite import _NonfiniteActionCounter

    wp.init()
    counter = _NonfiniteActionCounter(TEST_DEVICE)
    values = [[1.5, float("nan"), -float("inf")], [float("inf"), -0.0, -2.0]]
    action = torch.tensor(values, dtype=dtype, device=TEST_DEVICE).t()  # transposed: not contiguous
    kept = action.clone()
    bad = ~torch.isfinite(kept)
    for _ in range(2):
        finite = counter.zero_nonfinite(action)
        assert finite.dtype == dtype and finite.shape == action.shape
        assert torch.equal(finite, torch.nan_to_num(kept, nan=0.0, posinf=0.0, neginf=0.0))
        assert not torch.signbit(finite[bad]).any(), "replaced entries must be +0.0"
    assert torch.equal(torch.nan_to_num(action, nan=7.0), torch.nan_to_num(kept, nan=7.0)), "the input must be kept"
    landed = counter.add_step(interval=1)
    if ON_CUDA:  # the count is copied without waiting and read at the first later step once it has landed
        assert landed is None
        torch.cuda.synchronize()
        landed = counter.add_step(interval=1)
    assert landed == (6, 1)


def test_action_dtype_without_ieee_infinities_rejected():
    """A float8 action raises TypeError naming the dtypes whose non-finite entries can be replaced."""
    import warp as wp

    from isaaclab_contrib.envs.nonfinite import _NonfiniteActionCounter

    wp.init()
    with pytest.raises(TypeError, match="torch.float32"):
        _NonfiniteActionCounter(TEST_DEVICE).zero_nonfinite(
            torch.zeros(2, 1, dtype=torch.float8_e4m3fn, device=TEST_DEVICE)
        )
