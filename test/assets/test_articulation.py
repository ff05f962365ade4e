"""Newton Articulation: position targets through implicit PD, and per-world reset after NaN."""

from __future__ import annotations

import math

import pytest
import torch
from conftest import TEST_DEVICE, cartpole_cfg, implicit_cartpole_actuators, step_scene


@pytest.fixture(scope="module")
def cartpole_scene(cartpole_scene_factory):
    """Four cartpoles whose pole joint has a stiff implicit PD drive (ke 400 N m/rad, kd 40 N m s/rad)."""
    from isaaclab_newton.physics import MJWarpSolverCfg, NewtonCfg

    actuators = implicit_cartpole_actuators(cart_damping=10.0, pole_stiffness=400.0, pole_damping=40.0)
    return cartpole_scene_factory(num_envs=4, actuators=actuators, physics=NewtonCfg(solver_cfg=MJWarpSolverCfg()))


def test_position_target_moves_joint_there(cartpole_scene):
    """A pole target of 0.5 rad (PD 400/40, pole 1 kg at 0.47 m) is reached within 0.03 rad after 2 s."""
    sim, scene, robot = cartpole_scene
    pole, _ = robot.find_joints("cart_to_pole")
    target = torch.full((4, 1), 0.5, device=TEST_DEVICE)
    robot.actuators.target_command.set_position_index(value=target, joint_ids=pole)
    step_scene(sim, scene, 480)
    angle = robot.data.joint_pos.torch[:, pole[0]]
    # gravity sag: m g l sin(q) / ke = 1 * 9.81 * 0.47 * sin(0.5) / 400 ~ 0.0055 rad
    assert torch.allclose(angle, torch.full_like(angle, 0.5), atol=0.03), angle
    assert robot.data.joint_stiffness.torch[0, pole[0]].item() == pytest.approx(400.0)


def test_nan_world_recovers_after_reset(cartpole_scene):
    """A world whose joint state is NaN is finite again after its env reset; the other worlds stay finite."""
    from isaaclab_newton.physics import NewtonManager

    sim, scene, robot = cartpole_scene
    state = NewtonManager.get_state_0()
    q = state.joint_q.numpy()
    # private: the asset's rows in Newton's model, no public read
    q[robot._binding.coord_indices[1].cpu().numpy()] = math.nan
    state.joint_q.assign(q)
    NewtonManager.note_state_write()
    step_scene(sim, scene, 2)
    assert torch.isnan(robot.data.joint_pos.torch[1]).any()
    env = torch.tensor([1], device=TEST_DEVICE)
    robot.reset(env)
    robot.write_joint_position_to_sim_index(position=robot.data.default_joint_pos.torch[env], env_ids=env)
    robot.write_joint_velocity_to_sim_index(velocity=robot.data.default_joint_vel.torch[env], env_ids=env)
    sim.forward()
    step_scene(sim, scene, 10)
    assert torch.isfinite(robot.data.joint_pos.torch).all()
    assert torch.isfinite(robot.data.body_link_pose_w.torch).all()


def test_explicit_pd_actuator_drives_joint_through_efforts():
    """An explicit IdealPD pole actuator (400 N m/rad, 40 N m s/rad) reaches a 0.5 rad target via joint efforts."""
    from isaaclab.actuators import IdealPDActuatorCfg, ImplicitActuatorCfg
    from isaaclab.assets import ArticulationCfg
    from isaaclab.scene import InteractiveScene, InteractiveSceneCfg
    from isaaclab.sim import SimulationCfg, SimulationContext
    from isaaclab.utils import configclass

    from isaaclab_newton.physics import NewtonCfg, NewtonManager

    actuators = {
        "cart": ImplicitActuatorCfg(joint_names_expr=["slider_to_cart"], stiffness=0.0, damping=10.0),
        "pole": IdealPDActuatorCfg(
            joint_names_expr=["cart_to_pole"], stiffness=400.0, damping=40.0, actuator_effort_limit=400.0
        ),
    }

    @configclass
    class SceneCfg(InteractiveSceneCfg):
        robot: ArticulationCfg = cartpole_cfg(actuators=actuators)

    SimulationContext.clear_instance()
    # the offline spawners author no joint prims for core's NewtonActuator USD path: run explicit models eagerly
    sim_cfg = SimulationCfg(dt=1 / 240, device=TEST_DEVICE, physics=NewtonCfg(), use_newton_actuators=False)
    sim = SimulationContext(sim_cfg)
    try:
        scene = InteractiveScene(SceneCfg(num_envs=2, env_spacing=3.0))
        sim.reset()
        robot = scene["robot"]
        pole, _ = robot.find_joints("cart_to_pole")
        # explicit groups leave the solver drive off: zero gains in the model
        assert robot.data.joint_stiffness.torch[:, pole[0]].tolist() == [0.0, 0.0]
        robot.actuators.target_command.set_position_index(
            value=torch.full((2, 1), 0.5, device=TEST_DEVICE), joint_ids=pole
        )
        step_scene(sim, scene, 480)
        angle = robot.data.joint_pos.torch[:, pole[0]]
        assert torch.allclose(angle, torch.full_like(angle, 0.5), atol=0.03), angle
        # private: the asset's rows in Newton's model, no public read
        dof = robot._binding.dof_indices[0, pole[0]].item()
        applied = NewtonManager.get_control().joint_f.numpy()[dof]
        # holding the pole against gravity: |tau| ~ m g l sin(0.5) = 1 * 9.81 * 0.47 * 0.479 ~ 2.2 N m
        assert abs(applied) == pytest.approx(9.81 * 0.47 * math.sin(0.5), rel=0.1)
    finally:
        SimulationContext.clear_instance()
