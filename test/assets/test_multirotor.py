"""Multirotor on Newton: thrust against m*g, allocation torques against I^-1 tau, cfg checks at build."""

from __future__ import annotations

import math

import pytest
import torch
from conftest import TEST_DEVICE
from controllers import multirotor_scene as ms


def _hold(robot, thrust: torch.Tensor):
    return lambda: robot.set_thrust_target(thrust)


def _rotor_speeds(thrusts: list[float]) -> dict[str, float]:
    return {name: ms.hover_speed(f) for name, f in zip(ms.ROTORS, thrusts, strict=True)}


@pytest.fixture
def scene_dir(tmp_path):
    """A directory for the test's MJCF; the simulation context is cleared afterwards."""
    yield tmp_path
    from isaaclab.sim import SimulationContext

    SimulationContext.clear_instance()


def test_thrust_equal_to_weight_hovers(scene_dir):
    """Four rotors at m*g/4 each keep the quadrotor still: |dz| < 1 mm and |vz| < 1 mm/s after 0.5 s."""
    per_rotor = ms.total_mass() * ms.GRAVITY / 4
    sim, scene, robot = ms.make_scene(ms.multirotor_cfg(scene_dir, rps=ms.hover_speed(per_rotor)))
    z0 = robot.data.root_pos_w.torch[:, 2].clone()
    ms.step(sim, scene, 100, _hold(robot, ms.full(per_rotor, 2)))
    assert torch.allclose(robot.data.root_pos_w.torch[:, 2], z0, atol=1e-3)
    assert robot.data.root_lin_vel_w.torch[:, 2].abs().max() < 1e-3


def test_thrust_of_twice_the_weight_accelerates_up_at_g(scene_dir):
    """Rotors at 2*m*g in total accelerate the quadrotor upward at g (within 1 %), without lateral drift."""
    per_rotor = 2 * ms.total_mass() * ms.GRAVITY / 4
    sim, scene, robot = ms.make_scene(ms.multirotor_cfg(scene_dir, rps=ms.hover_speed(per_rotor)))
    ms.step(sim, scene, 100, _hold(robot, ms.full(per_rotor, 2)))
    vel = robot.data.root_lin_vel_w.torch
    assert torch.allclose(vel[:, 2] / 0.5, torch.full((2,), ms.GRAVITY, device=TEST_DEVICE), rtol=0.01), vel
    assert vel[:, :2].abs().max() < 1e-4


@pytest.mark.parametrize(("axis", "torque"), [(0, 0.01), (2, 0.004)])
def test_differential_thrust_gives_the_allocated_angular_acceleration(scene_dir, axis, torque):
    """Thrusts allocated for (m g, tau) along roll or yaw spin the quadrotor up at tau / I (within 2 %)."""
    wrench = torch.zeros(6, device=TEST_DEVICE)
    wrench[2], wrench[3 + axis] = ms.total_mass() * ms.GRAVITY, torque
    probe_sim, _, probe = ms.make_scene(ms.multirotor_cfg(scene_dir), num_envs=1)
    thrusts = probe.allocate(wrench[None]).reshape(-1).tolist()
    sim, scene, robot = ms.make_scene(ms.multirotor_cfg(scene_dir, rps=0.0, init_state=_state(thrusts)))
    steps = 10
    ms.step(sim, scene, steps, _hold(robot, torch.tensor([thrusts, thrusts], device=TEST_DEVICE)))
    alpha = robot.data.root_ang_vel_w.torch[:, axis] / (steps * ms.DT)
    expected = torque / ms.composite_inertia()[axis]
    assert torch.allclose(alpha, torch.full((2,), expected, device=TEST_DEVICE), rtol=0.02), (alpha, expected)


def _state(thrusts: list[float]):
    from isaaclab_contrib.assets import MultirotorCfg

    return MultirotorCfg.InitialStateCfg(pos=(0.0, 0.0, 2.0), rps=_rotor_speeds(thrusts))


def test_allocation_matrix_is_derived_from_the_rotor_bodies(scene_dir):
    """Without allocation_matrix, columns are (0, 0, 1, y, -x, direction * ratio) of each rotor body."""
    _, _, robot = ms.make_scene(ms.multirotor_cfg(scene_dir), num_envs=1)
    expected = torch.tensor(
        [
            [0.0] * 4,
            [0.0] * 4,
            [1.0] * 4,
            [y for _, y in ms.ROTORS.values()],
            [-x for x, _ in ms.ROTORS.values()],
            [d * ms.RATIO for d in ms.DIRECTIONS],
        ],
        device=TEST_DEVICE,
    )
    assert torch.allclose(robot.allocation_matrix, expected, atol=1e-6)


def test_allocation_matrix_with_wrong_rotor_count_raises(scene_dir):
    """An allocation matrix with three columns for four matched rotors raises naming the field."""
    cfg = ms.multirotor_cfg(
        scene_dir, allocation_matrix=[[0.0] * 3, [0.0] * 3, [1.0] * 3, [0.1] * 3, [0.1] * 3, [0.0] * 3]
    )
    with pytest.raises(ValueError, match=r"allocation_matrix has shape \(6, 3\)"):
        ms.make_scene(cfg, num_envs=1)


def test_allocation_yaw_row_against_the_rotor_directions_raises(scene_dir):
    """An allocation matrix whose yaw row has the opposite spin directions raises naming both fields."""
    rows = [[0.0] * 4, [0.0] * 4, [1.0] * 4, [0.1] * 4, [0.1] * 4, [-d * ms.RATIO for d in ms.DIRECTIONS]]
    cfg = ms.multirotor_cfg(scene_dir, allocation_matrix=rows)
    with pytest.raises(ValueError, match="yaw row .* differs from rotor_directions"):
        ms.make_scene(cfg, num_envs=1)


def test_rotor_directions_of_the_wrong_length_raise(scene_dir):
    """Three rotor directions for four rotors raise naming the field."""
    cfg = ms.multirotor_cfg(scene_dir, rotor_directions=[1, -1, 1])
    with pytest.raises(ValueError, match="rotor_directions"):
        ms.make_scene(cfg, num_envs=1)


def test_thruster_dt_other_than_the_physics_step_raises(scene_dir):
    """A ThrusterCfg.dt that differs from sim.dt raises, naming the group to fix."""
    cfg = ms.multirotor_cfg(scene_dir, actuators={"rotors": ms.thruster_cfg(dt=0.01)})
    with pytest.raises(ValueError, match=r"actuators\['rotors'\]\.dt = sim\.dt"):
        ms.make_scene(cfg, num_envs=1)


def test_reset_restores_default_rotor_speeds(scene_dir):
    """After spinning up, an env reset puts its rotors back at init_state.rps (the other env keeps spinning)."""
    speed = ms.hover_speed(1.0)
    sim, scene, robot = ms.make_scene(ms.multirotor_cfg(scene_dir, rps=speed))
    ms.step(sim, scene, 20, _hold(robot, ms.full(6.0, 2)))
    robot.reset(torch.tensor([1], device=TEST_DEVICE))
    speeds = robot.data.rotor_speed.torch
    assert torch.allclose(speeds[1], torch.full((4,), speed, device=TEST_DEVICE))
    assert bool((speeds[0] > 1.5 * speed).all())
    assert math.isclose(float(robot.data.thrust_target.torch[1, 0]), 1.0, rel_tol=1e-5)
