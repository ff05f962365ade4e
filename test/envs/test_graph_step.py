"""Whole env steps replayed from a CUDA graph: the trajectory, counters and resets of eager steps."""

from __future__ import annotations

import pytest
import torch

from .conftest import DIRECT_TASKS, FIXED_RESET, _close, _make_env, _robot, replay_under_sync_error

cuda_only = pytest.mark.skipif(not torch.cuda.is_available(), reason="CUDA graphs need a CUDA device")

STEPS = 20
EPISODE_S = 0.1  # 6 env steps at the tasks' 1/60 s env step: time-out resets on steps 6, 12 and 18


def _run(
    task: str,
    *,
    capture: bool,
    force_from: int | None = None,
    overwrite: tuple[int, float] | None = None,
    teleport_at: int | None = None,
    reset_at: int | None = None,
) -> dict:
    """``STEPS`` steps of fixed pseudo-random actions; copies of what each step returned and the host counters.

    With ``force_from``, a permanent force on every body of the robot is switched on before that step. With
    ``overwrite = (step, value)``, env 0's action entries are ``value`` at that step. With ``teleport_at``, env 0's
    robot is moved 1 m along x and 0.2 m up (a root pose write between two steps) before that step. With
    ``reset_at``, envs 0 and 1 are reset through core's index path (``_reset_idx``) before that step.
    """
    from isaaclab.physics import PhysicsManager

    env = _make_env(task, 8, device="cuda:0", episode_length_s=EPISODE_S, **FIXED_RESET[task])
    env.capture_env_step = capture
    try:
        env.reset(seed=0)
        generator = torch.Generator().manual_seed(1)
        returned = []
        for step in range(STEPS):
            if step == force_from:
                robot = _robot(env)
                forces = torch.zeros((env.num_envs, robot.num_bodies, 3), device=env.device)
                forces[..., 1] = 3.0  # along the cart's rail (the y axis)
                robot.permanent_wrench_composer.set_forces_and_torques_index(forces=forces, is_global=True)
            if step == teleport_at:
                robot = _robot(env)
                pose = robot.data.root_pose_w.torch[:1].clone()
                pose[:, 0] += 1.0
                pose[:, 2] += 0.2
                robot.write_root_pose_to_sim_index(root_pose=pose, env_ids=torch.tensor([0], device=env.device))
            if step == reset_at:
                env._reset_idx(torch.tensor([0, 1], device=env.device))  # private: the index reset under test
            action = 2.0 * torch.rand((env.num_envs, env.action_space.shape[-1]), generator=generator) - 1.0
            if overwrite is not None and step == overwrite[0]:
                action[0] = overwrite[1]
            obs, reward, terminated, time_out, extras = env.step(action.to(env.device))
            returned.append(
                {
                    "obs": obs["policy"].clone(),
                    "reward": reward.clone(),
                    "terminated": terminated.clone(),
                    "time_out": time_out.clone(),
                }
                | {f"log/{key}": torch.as_tensor(value).clone() for key, value in extras["log"].items()}
            )
        # private: core's step counters under test
        counters = (env.common_step_counter, env._sim_step_counter, env.sim._physics_step_count)
        return {
            "returned": returned,
            "counters": counters,
            "sim_time": PhysicsManager.get_simulation_time(),
            "graph": env.step_graph_recorded,
            "reason": env.step_graph_unavailable_reason(),
        }
    finally:
        _close(env)


def _assert_same_trajectory(eager: dict, graph: dict) -> None:
    for step, (a, b) in enumerate(zip(eager["returned"], graph["returned"], strict=True)):
        for name in a:
            torch.testing.assert_close(b[name], a[name], rtol=1e-5, atol=1e-5, msg=f"{name} differs at step {step}")
    assert graph["counters"] == eager["counters"]
    assert graph["sim_time"] == pytest.approx(eager["sim_time"], rel=1e-12)


def _replay_matches_eager(task: str, **options) -> dict:
    """Run ``task`` eagerly and replayed with the same ``options`` (see :func:`_run`); assert the same trajectory."""
    eager = _run(task, capture=False, **options)
    graph = _run(task, capture=True, **options)
    assert graph["graph"], graph["reason"]
    _assert_same_trajectory(eager, graph)
    return graph


@cuda_only
@pytest.mark.parametrize("task", [*DIRECT_TASKS, "Isaac-Cartpole-v0"])
def test_replayed_steps_match_eager_steps(task):
    """Replayed steps return what eager steps return (time-out resets and carried task state included)."""
    eager = _run(task, capture=False)
    graph = _run(task, capture=True)
    assert not eager["graph"] and eager["reason"] is not None
    assert graph["graph"] and graph["reason"] is None, graph["reason"]
    assert any(bool(r["time_out"].any()) for r in graph["returned"]), "the window must contain time-out resets"
    _assert_same_trajectory(eager, graph)


@cuda_only
def test_nan_action_in_a_replayed_step_acts_as_zero():
    """A NaN action in a replayed step acts as 0 (the guard writes the step's input): same as eager steps given 0."""
    eager = _run("Isaac-Cartpole-Direct-v0", capture=False, overwrite=(10, 0.0))
    graph = _run("Isaac-Cartpole-Direct-v0", capture=True, overwrite=(10, float("nan")))
    assert graph["graph"], graph["reason"]
    _assert_same_trajectory(eager, graph)


@cuda_only
def test_a_pose_written_between_replayed_steps_is_collided_at():
    """A root pose written between replayed steps is where the next step collides: same trajectory as eager steps."""
    task = "Isaac-Ant-Direct-v0"
    graph = _replay_matches_eager(task, teleport_at=8)
    unmoved = _run(task, capture=True)
    assert not torch.allclose(unmoved["returned"][8]["obs"][0], graph["returned"][8]["obs"][0]), "the write must act"


@cuda_only
def test_an_index_reset_between_replayed_steps_keeps_the_episode_log_current():
    """After an index reset between replayed steps, the steps' ``extras["log"]`` is what eager steps log."""
    graph = _replay_matches_eager("Isaac-Cartpole-v0", reset_at=8)
    assert any(name.startswith("log/Episode_Reward") for name in graph["returned"][-1]), "the task must log episodes"


@cuda_only
def test_step_is_recorded_again_when_a_wrench_composer_turns_on():
    """A force switched on mid-run makes the next steps run it: the trajectory matches eager steps with the force."""
    task = "Isaac-Cartpole-Direct-v0"
    eager = _run(task, capture=False, force_from=9)
    graph = _run(task, capture=True, force_from=9)
    assert graph["graph"]
    _assert_same_trajectory(eager, graph)
    without = _run(task, capture=True)
    # step 10: the force has acted for two steps; the time-out reset on step 11 returns the fixed reset state
    assert not torch.allclose(without["returned"][10]["obs"], graph["returned"][10]["obs"]), "the force must act"


@cuda_only
@pytest.mark.parametrize(
    "task",
    [
        "Isaac-Ant-Direct-v0",
        "Isaac-Cartpole-v0",
        "Isaac-Velocity-Flat-Unitree-Go1-v0",
        "Isaac-Velocity-Rough-Unitree-Go1-v0",
    ],
)
def test_replayed_steps_do_not_synchronize(task):
    """Replayed steps (resets included) run under ``torch.cuda.set_sync_debug_mode("error")``."""
    env = _make_env(task, 16, device="cuda:0", episode_length_s=EPISODE_S)
    try:
        replay_under_sync_error(env, torch.zeros((env.num_envs, env.action_space.shape[-1]), device=env.device))
        assert int(env.episode_length_buf.max()) < 7, "time-outs must have reset the envs within the window"
    finally:
        _close(env)


@cuda_only
def test_recordings_are_counted():
    """A run of steps is recorded once; after ``discard_step_graph()`` the step is recorded a second time."""
    env = _make_env("Isaac-Cartpole-Direct-v0", 4, device="cuda:0")
    try:
        env.reset(seed=0)
        actions = torch.zeros((env.num_envs, env.action_space.shape[-1]), device=env.device)
        for _ in range(5):
            env.step(actions)
        assert env.step_graph_recordings == 1
        env.discard_step_graph()
        for _ in range(3):
            env.step(actions)
        assert env.step_graph_recordings == 2
    finally:
        _close(env)


@cuda_only
def test_configuration_values_are_those_of_the_recording_until_discarded():
    """A reward scale changed after recording keeps its old value until ``discard_step_graph()``."""
    task = "Isaac-Cartpole-Direct-v0"
    env = _make_env(task, 4, device="cuda:0")
    try:
        env.reset(seed=0)
        actions = torch.zeros((env.num_envs, env.action_space.shape[-1]), device=env.device)
        for _ in range(3):
            env.step(actions)
        assert env.step_graph_recorded
        scale = env.cfg.rew_scale_alive
        env.cfg.rew_scale_alive = scale + 100.0
        before = env.step(actions)[1].clone()
        env.discard_step_graph()
        after = [env.step(actions)[1].clone() for _ in range(3)]
        # upstream's reward is the weighted sum times step_dt; max: a terminated env gets rew_scale_terminated
        threshold = (scale + 50.0) * env.step_dt
        assert float(before.max()) < threshold, "the recorded step keeps the recorded scale"
        assert all(float(r.max()) > threshold for r in after), "eager and re-recorded steps use the new scale"
        assert env.step_graph_recorded
    finally:
        _close(env)


@cuda_only
def test_returned_observation_and_reward_survive_the_next_step():
    """As in core's step, eager, recorded and replayed steps return new observation and reward tensors."""
    env = _make_env("Isaac-Cartpole-Direct-v0", 4, device="cuda:0")
    try:
        env.reset(seed=0)  # the next step runs eagerly, the one after is recorded
        actions = torch.ones((env.num_envs, env.action_space.shape[-1]), device=env.device)
        returned = []
        for _ in range(4):  # eager, recorded + replayed, replayed, replayed
            obs, reward = env.step(actions)[:2]
            returned.append((obs["policy"], reward, obs["policy"].clone(), reward.clone()))
        assert env.step_graph_recorded
        for step, (obs, reward, obs_copy, reward_copy) in enumerate(returned):
            assert torch.equal(obs, obs_copy) and torch.equal(reward, reward_copy), f"step {step} was overwritten"
        assert not torch.equal(returned[-1][0], returned[-2][0]), "the steps must have moved the cart"
    finally:
        _close(env)


def test_fresh_outputs_copy_every_tensor_into_new_memory():
    """A replayed step's nested observation, reward and logged tensors come back as equal copies in new memory."""
    from isaaclab_contrib.envs.graph_step import _fresh_outputs

    obs = {"policy": torch.arange(6.0).reshape(2, 3), "extra": {"depth": torch.ones(2, 4)}}
    reward = torch.tensor([0.5, -1.0])
    log = {"Episode_Reward/alive": torch.tensor(2.0), "Metrics/count": torch.tensor(3), "note": "kept"}
    fresh_obs, fresh_reward, fresh_log = _fresh_outputs(obs, reward, log)
    pairs = [
        (fresh_obs["policy"], obs["policy"]),
        (fresh_obs["extra"]["depth"], obs["extra"]["depth"]),
        (fresh_reward, reward),
        (fresh_log["Episode_Reward/alive"], log["Episode_Reward/alive"]),
        (fresh_log["Metrics/count"], log["Metrics/count"]),
    ]
    for copy, source in pairs:
        assert torch.equal(copy, source) and copy.dtype == source.dtype
        assert copy.data_ptr() != source.data_ptr()
    assert list(fresh_log) == list(log) and fresh_log["note"] == "kept"
    assert _fresh_outputs(obs, reward, None)[2] is None


def test_groups_made_after_a_replay_are_left_out_of_the_copies():
    """Observation groups an env makes after the replay are not copied; a step without groups cannot name any."""
    from isaaclab_contrib.envs.graph_step import _without

    obs = {"policy": torch.zeros(2, 3), "critic": torch.ones(2, 4)}
    assert list(_without(obs, {"policy": None})) == ["critic"]
    with pytest.raises(TypeError, match=r"names groups \['policy'\].*Tensor observations"):
        _without(torch.zeros(2, 3), {"policy": None})


def test_fresh_outputs_are_freed_without_the_cycle_collector():
    """The copies a replayed step returns are freed as soon as they are dropped, with the cyclic collector off."""
    import gc
    import weakref

    from isaaclab_contrib.envs.graph_step import _fresh_outputs

    obs = {"policy": torch.zeros(2, 3), "extra": {"depth": torch.ones(2, 4)}}
    gc.disable()
    try:
        fresh_obs, fresh_reward, fresh_log = _fresh_outputs(obs, torch.zeros(2), {"a": torch.tensor(1.0)})
        dropped = [weakref.ref(t) for t in (fresh_obs["policy"], fresh_obs["extra"]["depth"], fresh_reward)]
        dropped.append(weakref.ref(fresh_log["a"]))
        del fresh_obs, fresh_reward, fresh_log
        assert all(ref() is None for ref in dropped), "a reference cycle keeps the returned copies alive"
    finally:
        gc.enable()


@cuda_only
def test_replayed_observations_are_freed_when_dropped():
    """With the cyclic collector off, PyTorch's allocated memory stays flat over replayed steps, outputs dropped."""
    import gc

    env = _make_env("Isaac-Cartpole-Direct-v0", 4096, device="cuda:0")
    gc.disable()
    try:
        env.reset(seed=0)
        actions = torch.zeros((env.num_envs, env.action_space.shape[-1]), device=env.device)
        for _ in range(3):  # eager, recorded + replayed, replayed
            env.step(actions)
        assert env.step_graph_recorded
        allocated = torch.cuda.memory_allocated(env.device)
        for _ in range(50):
            env.step(actions)
        assert torch.cuda.memory_allocated(env.device) == allocated
    finally:
        gc.enable()
        _close(env)


def test_views_of_the_simulation_state_are_told_apart_from_task_buffers():
    """Asset data views lie in the manager's state memory (never carried by a recorded step); task buffers do not."""
    from isaaclab_contrib.envs.graph_step import _state_memory, _within

    env = _make_env("Isaac-Cartpole-Direct-v0", 4)
    try:
        env.reset(seed=0)
        state = _state_memory()
        data = _robot(env).data
        assert _within(data.joint_pos.torch, state) and _within(data.body_link_pose_w.torch, state)
        assert not _within(env.episode_length_buf, state) and not _within(env.actions, state)
    finally:
        _close(env)
