"""Helpers shared by the env tests: making and closing task envs, driving them, snapshots of their state."""

from __future__ import annotations

import torch
from conftest import TEST_DEVICE

DIRECT_TASKS = ["Isaac-Cartpole-Direct-v0", "Isaac-Ant-Direct-v0", "Isaac-Humanoid-Direct-v0"]

# Degenerate sampling ranges: the reset becomes a function of the defaults alone, so both paths must agree exactly.
FIXED_RESET = {
    "Isaac-Cartpole-Direct-v0": {
        "initial_cart_position_range": (0.3, 0.3),
        "initial_cart_velocity_range": (-0.2, -0.2),
        "initial_pole_angle_range": (0.1, 0.1),
        "initial_pole_velocity_range": (0.4, 0.4),
    },
    "Isaac-Ant-Direct-v0": {"initial_joint_pos_range": (0.15, 0.15), "initial_joint_vel_range": (-0.05, -0.05)},
    "Isaac-Humanoid-Direct-v0": {"initial_joint_pos_range": (0.15, 0.15), "initial_joint_vel_range": (-0.05, -0.05)},
    "Isaac-Cartpole-v0": {
        "events.reset_cart_position.params.position_range": (0.3, 0.3),
        "events.reset_cart_position.params.velocity_range": (-0.2, -0.2),
        "events.reset_pole_position.params.position_range": (0.1, 0.1),
        "events.reset_pole_position.params.velocity_range": (0.4, 0.4),
    },
}


def _make_env(task: str, num_envs: int, *, mask_on_cpu: bool = True, device: str = TEST_DEVICE, **overrides):
    """Build ``task`` on ``device`` (the test device by default) with ``num_envs`` envs and cfg overrides; the
    unwrapped env, mask path opted in on CPU."""
    from isaaclab.sim import SimulationContext

    from isaaclab_contrib.app.env_factory import load_env_cfg, make_env

    SimulationContext.clear_instance()
    cfg = load_env_cfg(task)
    for name, value in overrides.items():  # dotted names reach into nested cfgs ("events.term.params")
        *path, leaf = name.split(".")
        target = cfg
        for part in path:
            target = target[part] if isinstance(target, dict) else getattr(target, part)
        if isinstance(target, dict):
            target[leaf] = value
        else:
            setattr(target, leaf, value)
    env = make_env(task, cfg=cfg, num_envs=num_envs, device=device).unwrapped
    env.mask_reset_on_cpu = mask_on_cpu
    return env


def _close(env) -> None:
    from isaaclab.sim import SimulationContext

    env.close()
    SimulationContext.clear_instance()


def _robot(env):
    return env.scene["cartpole"] if "cartpole" in env.scene.articulations else env.scene["robot"]


def _drive(env, steps: int) -> None:
    """Reset with seed 0 and run ``steps`` steps of fixed pseudo-random actions (no resets: long episodes)."""
    env.reset(seed=0)
    generator = torch.Generator().manual_seed(1)
    for _ in range(steps):
        env.step(2.0 * torch.rand((env.num_envs, env.action_space.shape[-1]), generator=generator) - 1.0)


def _snapshot(env) -> dict[str, torch.Tensor]:
    """Copies of the simulation state, the robot's data, the task buffers and the observation."""
    import warp as wp

    from isaaclab_newton.physics import NewtonManager

    robot = _robot(env)
    # the observation first: it must see the reset without the data reads below refreshing its buffers
    snap = {"obs": env._get_observations()["policy"].clone()}  # private: the observation hook under test
    snap |= {
        "root_pose_w": robot.data.root_pose_w.torch,
        "root_vel_w": robot.data.root_vel_w.torch,
        "body_link_pose_w": robot.data.body_link_pose_w.torch,
        "joint_pos": robot.data.joint_pos.torch,
        "joint_vel": robot.data.joint_vel.torch,
        "episode_length_buf": env.episode_length_buf,
        "actions": env.actions,
    }
    state = NewtonManager.get_state_0()
    for name in ("joint_q", "joint_qd", "body_q", "body_qd"):
        snap[f"state.{name}"] = wp.to_torch(getattr(state, name))
    if hasattr(env, "potentials"):
        snap["potentials"] = env.potentials
    if "log" in env.extras:
        snap["success_rate"] = env.extras["log"]["Metrics/success_rate"]
    return {name: value.clone() for name, value in snap.items()}


def _mark_done(env) -> None:
    """Envs 0 and 3 time out, env 1 terminates, env 2 keeps running."""
    env.reset_time_outs[:] = torch.tensor([True, False, False, True])
    env.reset_terminated[:] = torch.tensor([False, True, False, False])
    env.reset_buf = env.reset_terminated | env.reset_time_outs


def _assert_same(a: dict, b: dict) -> None:
    assert a.keys() == b.keys()
    for name in a:
        assert torch.equal(a[name], b[name]), f"{name} differs:\n{a[name]}\n{b[name]}"


def record_step(env, action: torch.Tensor, **extra) -> dict[str, torch.Tensor]:
    """``env.step(action)``; copies of its policy obs, reward, dones, episode logs and ``extra`` tensors read after it.

    ``extra`` maps a name to a callable of no argument returning the tensor to record (read after the step).
    """
    obs, reward, terminated, time_out, extras = env.step(action)
    record = {"obs": obs["policy"], "reward": reward, "terminated": terminated, "time_out": time_out}
    record |= {f"log/{key}": value for key, value in extras["log"].items()}
    record |= {name: read() for name, read in extra.items()}
    return {key: torch.as_tensor(value).clone() for key, value in record.items()}


def assert_same_trajectories(expected: list[dict], got: list[dict], *, atol: float, rtol: float) -> None:
    """Each step of ``got`` has the keys of ``expected`` and values within the tolerances."""
    for step, (a, b) in enumerate(zip(expected, got, strict=True)):
        assert a.keys() == b.keys(), f"step {step}: logged keys differ: {sorted(a.keys() ^ b.keys())}"
        for name in a:
            torch.testing.assert_close(b[name], a[name], atol=atol, rtol=rtol, msg=f"step {step}: {name} differs")


def replay_under_sync_error(env, actions: torch.Tensor, steps: int = 12) -> None:
    """Reset, step until the step graph is recorded, then run ``steps`` replayed steps under sync debug "error"."""
    env.reset(seed=0)
    for _ in range(3):  # eager, recorded + replayed, replayed
        env.step(actions)
    assert env.step_graph_recorded, env.step_graph_unavailable_reason()
    torch.cuda.set_sync_debug_mode("error")
    try:
        for _ in range(steps):
            env.step(actions)
    finally:
        torch.cuda.set_sync_debug_mode("default")
