"""Franka lift tasks: both run under zero_agent, and the scripted check lifts each object 5 cm without slipping.

The Panda comes from the gymnasium-robotics wheel (``pip download`` on first use, cached afterwards).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import torch
from conftest import TEST_DEVICE, cpu_only

ROOT = Path(__file__).resolve().parents[2]
TASKS = ("Isaac-Lift-Soft-Franka-v0", "Isaac-Lift-Cloth-Franka-v0")


def _run(script: str, *args: str) -> str:
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / script), *args], capture_output=True, text=True, timeout=900
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout


@pytest.mark.parametrize("task", TASKS)
def test_zero_agent_runs(task):
    """zero_agent steps 4 envs of the task on the test device and reports a rate."""
    out = _run(
        "environments/zero_agent.py", "--task", task, "--num_envs", "4", "--device", TEST_DEVICE, "--steps", "20"
    )
    assert re.search(r"20 steps x 4 envs", out), out[-2000:]


@pytest.mark.parametrize("task", TASKS)
def test_scripted_grasp_lifts_without_slip(task):
    """check_soft_lift lifts the object's nodal mean at least 5 cm with the default tuning, and it does not slip."""
    out = _run("tools/check_soft_lift.py", "--task", task, "--device", TEST_DEVICE)
    last = out.strip().splitlines()[-1]
    match = re.fullmatch(r"lift_height_m=(\S+) penetration_m=(\S+) slipped=(true|false)", last)
    assert match, out[-2000:]
    assert float(match.group(1)) >= 0.05
    assert match.group(3) == "false"


@pytest.mark.parametrize("task", TASKS)
def test_object_rests_where_it_spawns(task):
    """With the gripper open above it, the object's nodal mean stays within 1 mm of its spawn height for 20 steps."""
    from envs.conftest import _close, _make_env

    env = _make_env(task, 1)
    try:
        env.reset(seed=0)
        rest = float(env.object.data.root_pos_w.torch[0, 2])
        action = torch.zeros((1, env.cfg.action_space), device=TEST_DEVICE)
        action[:, -1] = 1.0  # open
        heights = []
        for _ in range(20):
            env.step(action)
            heights.append(float(env.object.data.root_pos_w.torch[0, 2]))
        assert max(abs(h - rest) for h in heights) < 1e-3, f"spawned at {rest:.4f} m, then {heights}"
    finally:
        _close(env)


def _lift_snapshot(env) -> dict:
    """Copies of the simulation state (bodies, joints, particles) and the task's reset buffers."""
    import warp as wp

    from isaaclab_newton.physics import NewtonManager

    state = NewtonManager.get_state_0()
    snap = {name: wp.to_torch(getattr(state, name)) for name in ("joint_q", "joint_qd", "particle_q", "particle_qd")}
    # private: the task's reset buffers under test
    snap |= {"targets": env._targets, "actions": env._actions, "episode_length_buf": env.episode_length_buf}
    return {name: value.clone() for name, value in snap.items()}


@cpu_only("two runs compared bit for bit; CUDA accumulates contact sums in varying order (test_replayed_lift_steps_*)")
@pytest.mark.parametrize("task", TASKS)
def test_mask_reset_matches_index_reset(task):
    """From the same state, resetting envs 0 and 2 by mask leaves state and task buffers equal to core's index reset."""
    from isaaclab.sim import SimulationContext

    from isaaclab_contrib.app.env_factory import make_env
    from isaaclab_contrib.envs.mask_reset import MaskResetMixin

    results = []
    for path in ("index", "mask"):
        SimulationContext.clear_instance()
        env = make_env(task, num_envs=4, device=TEST_DEVICE).unwrapped
        env.mask_reset_on_cpu = True
        try:
            env.reset(seed=0)
            actions = torch.linspace(-1.0, 1.0, env.num_envs * env.cfg.action_space, device=TEST_DEVICE).reshape(
                env.num_envs, -1
            )
            for _ in range(5):
                env.step(actions)
            before = _lift_snapshot(env)
            env.reset_buf = torch.tensor([True, False, True, False], device=TEST_DEVICE)
            if path == "index":
                # private: core's reset hook under test
                assert super(MaskResetMixin, env)._reset_envs_from_buffer().tolist() == [0, 2]
            else:
                assert env._reset_envs_from_buffer() is None  # private: core's reset hook under test
            results.append((before, _lift_snapshot(env)))
        finally:
            env.close()
            SimulationContext.clear_instance()
    (before_index, after_index), (before_mask, after_mask) = results
    for name in before_index:
        assert torch.equal(before_index[name], before_mask[name]), f"{name} differs before the reset"
    assert not torch.equal(before_index["particle_q"], after_index["particle_q"]), "the reset must move the object"
    for name in after_index:
        assert torch.equal(after_index[name], after_mask[name]), f"{name} differs after the reset"


def test_host_read_trap_catches_list_indexing_and_item():
    """The trap raises on a list-indexed write and on ``item()``, and lets device-side tensor work through."""
    from host_read_trap import HostReadError, HostReadTrap

    values = torch.zeros((2, 9), device=TEST_DEVICE)
    with HostReadTrap():
        values.index_fill_(1, torch.tensor([0, 1], device=TEST_DEVICE), 1.0)
        with pytest.raises(HostReadError):
            values[:, [0, 1]] = 2.0
        with pytest.raises(HostReadError):
            values.sum().item()
    assert values.sum().item() == 4.0


@cpu_only("CUDA steps are checked under sync debug 'error' by test_replayed_lift_steps_do_not_synchronize")
@pytest.mark.parametrize("task", TASKS)
def test_step_with_mask_resets_reads_nothing_on_the_host(task):
    """Steps with mask resets (time-outs every 3 steps, CPU, eager substeps) read no tensor or Warp array on the host.

    The substeps run eagerly (no CPU graph) so that the coupled substep's Python (collision, MuJoCo Warp, VBD) runs
    inside the trap too.
    """
    from host_read_trap import HostReadTrap
    from isaaclab.sim import SimulationContext

    from isaaclab_contrib.app.env_factory import load_env_cfg, make_env

    SimulationContext.clear_instance()
    cfg = load_env_cfg(task)
    cfg.episode_length_s = 3 * cfg.sim.dt * cfg.decimation
    cfg.sim.physics.nonfinite_log_interval = 10_000  # the designed periodic counter read stays out of the window
    cfg.sim.physics.use_cpu_graph = False
    env = make_env(task, cfg=cfg, num_envs=2, device=TEST_DEVICE).unwrapped
    env.mask_reset_on_cpu = True
    try:
        env.reset(seed=0)
        actions = torch.linspace(-1.0, 1.0, 2 * env.cfg.action_space, device=TEST_DEVICE).reshape(2, -1)
        env.step(actions)
        lengths = []
        with HostReadTrap():
            for _ in range(6):
                env.step(actions)
                lengths.append(env.episode_length_buf.clone())
        assert any((length == 0).all() for length in lengths), "time-outs must have reset the envs in the window"
    finally:
        env.close()
        SimulationContext.clear_instance()


def _make_cuda_env(task: str, num_envs: int, episode_steps: int):
    """The task on ``cuda:0`` with ``num_envs`` envs and episodes of ``episode_steps`` env steps (time-out resets)."""
    from isaaclab.sim import SimulationContext

    from isaaclab_contrib.app.env_factory import load_env_cfg, make_env

    SimulationContext.clear_instance()
    cfg = load_env_cfg(task)
    cfg.episode_length_s = episode_steps * cfg.sim.dt * cfg.decimation
    return make_env(task, cfg=cfg, num_envs=num_envs, device="cuda:0", seed=0).unwrapped


def _close_cuda_env(env) -> None:
    from isaaclab.sim import SimulationContext

    env.close()
    SimulationContext.clear_instance()


def _lift_trajectory(task: str, *, capture: bool, steps: int = 12) -> dict:
    """``steps`` env steps of fixed pseudo-random actions (time-outs on steps 5 and 10); what each step returned.

    The arm targets stay within 0.3 rad of the home pose, so the hand moves but does not reach the object: contact-rich
    grasps would compare solver round-off (contact order) rather than the replay.
    """
    env = _make_cuda_env(task, 4, episode_steps=5)
    env.capture_env_step = capture
    try:
        env.reset(seed=0)
        generator = torch.Generator().manual_seed(1)
        returned = []
        for _ in range(steps):
            action = 0.4 * torch.rand((env.num_envs, env.cfg.action_space), generator=generator) - 0.2
            obs, reward, _, time_out, _ = env.step(action.to(env.device))
            returned.append({"obs": obs["policy"].clone(), "reward": reward.clone(), "time_out": time_out.clone()})
        reason = env.step_graph_unavailable_reason()
        return {"returned": returned, "graph": env.step_graph_recorded, "reason": reason}
    finally:
        _close_cuda_env(env)


_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="whole env steps replay from CUDA graphs on CUDA only")


@_cuda
@pytest.mark.parametrize("task", TASKS)
def test_replayed_lift_steps_match_eager_steps(task):
    """Steps replayed from the CUDA graph (coupled substeps and mask resets inside) return what eager steps return."""
    eager = _lift_trajectory(task, capture=False)
    graph = _lift_trajectory(task, capture=True)
    assert not eager["graph"] and eager["reason"] is not None
    assert graph["graph"] and graph["reason"] is None, graph["reason"]
    assert any(bool(r["time_out"].any()) for r in graph["returned"]), "the window must contain time-out resets"
    for step, (a, b) in enumerate(zip(eager["returned"], graph["returned"], strict=True)):
        for name in a:
            torch.testing.assert_close(b[name], a[name], rtol=1e-4, atol=1e-4, msg=f"{name} differs at step {step}")


@_cuda
@pytest.mark.parametrize("task", TASKS)
def test_replayed_lift_steps_do_not_synchronize(task):
    """Replayed lift steps, time-out resets included, run under ``torch.cuda.set_sync_debug_mode("error")``."""
    from envs.conftest import replay_under_sync_error

    env = _make_cuda_env(task, 8, episode_steps=5)
    try:
        replay_under_sync_error(env, torch.zeros((env.num_envs, env.cfg.action_space), device=env.device))
        assert int(env.episode_length_buf.max()) < 6, "time-outs must have reset the envs within the window"
    finally:
        _close_cuda_env(env)
