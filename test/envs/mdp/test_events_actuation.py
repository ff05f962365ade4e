"""Core's actuator-gain, joint-parameter, push and external-force terms on Newton: only the written env changes."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
import torch
from conftest import TEST_DEVICE, implicit_cartpole_actuators, step_scene

G = 9.81  # [m/s^2]


def _term(term, env, name: str, **params):
    """Call-ready core event ``term`` on scene entity ``name``: the callable (class terms built) and its params."""
    import inspect

    from isaaclab.managers import EventTermCfg, SceneEntityCfg

    asset_cfg = SceneEntityCfg(name, **params.pop("entity", {}))
    asset_cfg.resolve(env.scene)
    cfg = EventTermCfg(func=term, mode="reset", params={"asset_cfg": asset_cfg, **params})
    return (term(cfg, env) if inspect.isclass(term) else term), cfg.params


@pytest.fixture(scope="module")
def cartpoles(cartpole_scene_factory):
    """Three cartpoles at rest without gravity: cart free (no drive), pole PD 10 N m/rad, 1 N m s/rad."""
    from isaaclab_newton.physics import MJWarpSolverCfg, NewtonCfg

    actuators = implicit_cartpole_actuators(cart_damping=0.0, pole_stiffness=10.0, pole_damping=1.0)
    physics = NewtonCfg(solver_cfg=MJWarpSolverCfg())
    sim, scene, _ = cartpole_scene_factory(num_envs=3, actuators=actuators, physics=physics, gravity=(0.0, 0.0, 0.0))
    return sim, scene, SimpleNamespace(scene=scene, sim=sim, num_envs=3, device=sim.device)


def _rest(scene, robot, pole: float = 0.0) -> None:
    """All joints at 0 (pole at ``pole`` [rad]) and still, targets 0, no effort."""
    pos = torch.zeros(scene.num_envs, robot.num_joints, device=TEST_DEVICE)
    pos[:, robot.find_joints("cart_to_pole")[0]] = pole
    robot.write_joint_position_to_sim_index(position=pos)
    robot.write_joint_velocity_to_sim_index(velocity=torch.zeros_like(pos))
    robot.actuators.target_command.set_position_index(value=torch.zeros_like(pos))
    robot.actuators.target_command.set_effort_index(value=torch.zeros_like(pos))


def test_actuator_gains_doubled_stiffness_doubles_restoring_acceleration(cartpoles):
    """Stiffness 20 written for env 1: its pole, 0.2 rad off target, gains twice env 0's speed in one step."""
    from isaaclab.envs.mdp import randomize_actuator_gains

    sim, scene, env = cartpoles
    robot = scene["robot"]
    before = robot.data.joint_stiffness.torch.clone()
    # all joints: core's term fails on a joint subset of a partial actuator group (torch.isin with a list of ids);
    # the cart's new stiffness acts on no force at the start, where the cart is at its target and still
    term, params = _term(randomize_actuator_gains, env, "robot", stiffness_distribution_params=(20.0, 20.0))
    term(env, torch.tensor([1], device=TEST_DEVICE), **params)
    pole = robot.find_joints("cart_to_pole")[0][0]
    assert robot.data.joint_stiffness.torch[:, pole].tolist() == [10.0, 20.0, 10.0]
    _rest(scene, robot, pole=0.2)
    step_scene(sim, scene, 1)
    speed = robot.data.joint_vel.torch[:, pole]
    assert (speed < 0).all()  # back toward the target
    assert speed[1].item() == pytest.approx(2.0 * speed[0].item(), rel=0.02)
    assert speed[2].item() == pytest.approx(speed[0].item(), rel=1e-6)
    robot.write_joint_stiffness_to_sim_index(stiffness=before)


def test_joint_friction_holds_the_written_env_only(cartpoles):
    """Friction 10 N on env 2's cart: a 5 N push leaves it still, the others' carts accelerate."""
    from isaaclab.envs.mdp import randomize_joint_parameters

    sim, scene, env = cartpoles
    robot = scene["robot"]
    term, params = _term(
        randomize_joint_parameters, env, "robot", entity={"joint_names": ["slider_to_cart"]},
        friction_distribution_params=(10.0, 10.0), operation="abs",
    )  # fmt: skip
    term(env, torch.tensor([2], device=TEST_DEVICE), **params)
    cart = robot.find_joints("slider_to_cart")[0][0]
    # core writes the same range to the viscous part: Newton's passive joint damping
    assert robot.data.joint_friction_coeff.torch[:, cart].tolist() == [0.0, 0.0, 10.0]
    assert robot.data.joint_viscous_friction_coeff.torch[:, cart].tolist() == [0.0, 0.0, 10.0]
    _rest(scene, robot)
    effort = torch.zeros(scene.num_envs, robot.num_joints, device=TEST_DEVICE)
    effort[:, cart] = 5.0
    robot.actuators.target_command.set_effort_index(value=effort)
    step_scene(sim, scene, 24)
    speed = robot.data.joint_vel.torch[:, cart]
    assert speed[0].item() > 0.05 and speed[1].item() == pytest.approx(speed[0].item(), rel=1e-6)
    assert abs(speed[2].item()) < 0.02 * speed[0].item()  # MuJoCo's soft friction loss lets it creep by mm/s
    term(env, None, **{**params, "friction_distribution_params": (0.0, 0.0)})
    _rest(scene, robot)


@pytest.fixture(scope="module")
def cubes(cube_scene_factory):
    """Three 1 kg cubes on a ground plane under gravity."""
    sim, scene = cube_scene_factory(num_envs=3)
    return sim, scene, SimpleNamespace(scene=scene, sim=sim, num_envs=3, device=sim.device)


def _place(scene, cube, height: float) -> None:
    pose = torch.tensor([0.0, 0.0, height, 0.0, 0.0, 0.0, 1.0], device=TEST_DEVICE).repeat(scene.num_envs, 1)
    pose[:, :3] += scene.env_origins
    cube.write_root_pose_to_sim_index(root_pose=pose)
    cube.write_root_velocity_to_sim_index(root_velocity=torch.zeros(scene.num_envs, 6, device=TEST_DEVICE))


def test_push_sets_the_written_envs_velocity(cubes):
    """A push of 1 m/s in x on env 1 (cubes in the air) sets its velocity; it then flies 1 m/s, the others fall."""
    from isaaclab.envs.mdp import push_by_setting_velocity

    sim, scene, env = cubes
    cube = scene["cube"]
    _place(scene, cube, 2.0)
    term, params = _term(push_by_setting_velocity, env, "cube", velocity_range={"x": (1.0, 1.0)})
    term(env, torch.tensor([1], device=TEST_DEVICE), **params)
    assert cube.data.root_com_lin_vel_w.torch[:, 0].tolist() == pytest.approx([0.0, 1.0, 0.0])
    x0 = cube.data.root_link_pos_w.torch[:, 0].clone()
    steps = 48
    step_scene(sim, scene, steps)
    t = steps * sim.get_physics_dt()
    moved = (cube.data.root_link_pos_w.torch[:, 0] - x0).tolist()
    assert moved == pytest.approx([0.0, t, 0.0], abs=1e-4)
    assert cube.data.root_com_lin_vel_w.torch[:, 2].tolist() == pytest.approx([-G * t] * 3, rel=1e-3)
    _place(scene, cube, 0.1 + 1e-3)


def test_external_force_accelerates_the_written_env_at_f_over_m_minus_g(cubes):
    """A 3 m g force on env 0's cube (core samples x, y, z from one range) lifts it at 2 g; the others rest."""
    from isaaclab.envs.mdp import apply_external_force_torque

    sim, scene, env = cubes
    cube = scene["cube"]
    _place(scene, cube, 0.1 + 1e-3)
    step_scene(sim, scene, 12)  # settle into contact
    mass = float(cube.data.body_mass.torch[0, 0])
    lift = (3.0 * mass * G,) * 2
    term, params = _term(apply_external_force_torque, env, "cube", force_range=(0.0, 0.0), torque_range=(0.0, 0.0))
    term(env, None, **params)
    term(env, torch.tensor([0], device=TEST_DEVICE), **{**params, "force_range": lift})
    step_scene(sim, scene, 8)  # 11 mm up: clear of the ground's contact margin
    v0 = cube.data.root_com_lin_vel_w.torch.clone()
    steps = 24
    step_scene(sim, scene, steps)
    t = steps * sim.get_physics_dt()
    acc = (cube.data.root_com_lin_vel_w.torch - v0) / t
    assert acc[0].tolist() == pytest.approx([3.0 * G, 3.0 * G, 2.0 * G], rel=5e-3)
    assert acc[1:].abs().max().item() < 0.05
    term(env, None, **params)
    _place(scene, cube, 0.1 + 1e-3)
