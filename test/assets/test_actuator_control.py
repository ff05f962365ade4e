"""Actuator command path on Newton: index target setters and submission replay recorded launches correctly."""

from __future__ import annotations

import pytest
import torch
from conftest import TEST_DEVICE, implicit_cartpole_actuators


@pytest.fixture(scope="module")
def cartpole_scene(cartpole_scene_factory):
    """Four cartpoles with implicit actuators (cart: effort only; pole: PD 10/1)."""
    from isaaclab_newton.physics import MJWarpSolverCfg, NewtonCfg

    actuators = implicit_cartpole_actuators(cart_damping=0.0, pole_stiffness=10.0, pole_damping=1.0)
    return cartpole_scene_factory(num_envs=4, actuators=actuators, physics=NewtonCfg(solver_cfg=MJWarpSolverCfg()))


def _control_columns(robot, name: str):
    """Control.joint_f and joint_target_q (torch views) at the joint ``name`` of every env."""
    from isaaclab_newton.assets.binding import torch_view
    from isaaclab_newton.physics import NewtonManager

    control = NewtonManager.get_control()
    col = robot.joint_names.index(name)
    bind = robot._binding  # private: the asset's rows in Newton's model, no public read
    return (
        torch_view(control.joint_f)[bind.dof_indices[:, col]],
        torch_view(control.joint_target_q)[bind.coord_indices[:, col]],
    )


def test_each_effort_write_reaches_control(cartpole_scene):
    """Three effort writes with the same ids and new tensors: Control.joint_f holds the latest one each time."""
    _, scene, robot = cartpole_scene
    cart = torch.tensor([robot.joint_names.index("slider_to_cart")], device=TEST_DEVICE)
    for k in range(3):
        effort = torch.arange(4, dtype=torch.float32, device=TEST_DEVICE)[:, None] + 10.0 * k
        robot.actuators.target_command.set_effort_index(value=effort, joint_ids=cart)
        scene.write_data_to_sim()
        joint_f, _ = _control_columns(robot, "slider_to_cart")
        assert torch.equal(joint_f, effort[:, 0]), (k, joint_f)


def test_in_place_edit_of_ids_retargets_the_write(cartpole_scene):
    """Editing the joint-id tensor in place between two writes sends the second write to the new joint."""
    _, scene, robot = cartpole_scene
    ids = torch.tensor([robot.joint_names.index("slider_to_cart")], device=TEST_DEVICE)
    robot.actuators.target_command.set_position_index(value=torch.full((4, 1), 0.25, device=TEST_DEVICE), joint_ids=ids)
    ids[0] = robot.joint_names.index("cart_to_pole")
    robot.actuators.target_command.set_position_index(value=torch.full((4, 1), 0.5, device=TEST_DEVICE), joint_ids=ids)
    scene.write_data_to_sim()
    _, cart_q = _control_columns(robot, "slider_to_cart")
    _, pole_q = _control_columns(robot, "cart_to_pole")
    assert torch.equal(cart_q, torch.full((4,), 0.25, device=TEST_DEVICE)) and torch.equal(
        pole_q, torch.full((4,), 0.5, device=TEST_DEVICE)
    )


def test_env_subset_write_leaves_other_envs(cartpole_scene):
    """An effort write to envs 1 and 3 changes only their rows of the command buffer."""
    _, _, robot = cartpole_scene
    cart = [robot.joint_names.index("slider_to_cart")]
    buffer = robot.actuators.target_command.effort.torch
    buffer.zero_()
    robot.actuators.target_command.set_effort_index(
        value=torch.full((2, 1), 7.0, device=TEST_DEVICE), joint_ids=cart, env_ids=[1, 3]
    )
    assert buffer[:, cart[0]].tolist() == [0.0, 7.0, 0.0, 7.0]


def test_full_data_write_takes_the_selected_rows(cartpole_scene):
    """A full_data effort write to envs 0 and 2 copies those rows of the full-size value, leaving envs 1 and 3."""
    _, _, robot = cartpole_scene
    cart = [robot.joint_names.index("slider_to_cart")]
    buffer = robot.actuators.target_command.effort.torch
    buffer.zero_()
    value = torch.arange(8, dtype=torch.float32, device=TEST_DEVICE).reshape(4, 2) + 1.0
    robot.actuators.target_command.set_effort_index(value=value, joint_ids=cart, env_ids=[0, 2], full_data=True)
    assert buffer[:, cart[0]].tolist() == [value[0, cart[0]].item(), 0.0, value[2, cart[0]].item(), 0.0]


def test_strided_tensor_and_warp_values_write_the_same(cartpole_scene):
    """A non-contiguous tensor and a Warp array holding the same efforts leave the same command buffer."""
    import warp as wp

    _, _, robot = cartpole_scene
    cart = [robot.joint_names.index("slider_to_cart")]
    buffer = robot.actuators.target_command.effort.torch
    strided = torch.arange(8, dtype=torch.float32, device=TEST_DEVICE).reshape(4, 2)[:, 1:]
    robot.actuators.target_command.set_effort_index(value=strided, joint_ids=cart)
    from_tensor = buffer.clone()
    buffer.zero_()
    robot.actuators.target_command.set_effort_index(value=wp.from_torch(strided.contiguous()), joint_ids=cart)
    assert from_tensor[:, cart[0]].tolist() == [1.0, 3.0, 5.0, 7.0]
    assert torch.equal(buffer, from_tensor)


def test_wrong_shape_still_raises(cartpole_scene):
    """The replayed path keeps the shape check: a (4, 2) effort for one joint raises a ValueError."""
    _, _, robot = cartpole_scene
    with pytest.raises(ValueError, match="shape"):
        robot.actuators.target_command.set_effort_index(value=torch.zeros(4, 2, device=TEST_DEVICE), joint_ids=[0])


def test_implicit_telemetry_matches_pd_law(cartpole_scene):
    """The recorded implicit-actuator launch reports the PD effort ke (q* - q) + kd (qd* - qd) of the pole."""
    sim, scene, robot = cartpole_scene
    pole = robot.joint_names.index("cart_to_pole")
    robot.actuators.target_command.set_position_index(
        value=torch.full((4, 1), 0.3, device=TEST_DEVICE), joint_ids=[pole]
    )
    robot.actuators.target_command.set_velocity_index(value=torch.zeros(4, 1, device=TEST_DEVICE), joint_ids=[pole])
    robot.actuators.target_command.set_effort_index(value=torch.zeros(4, 1, device=TEST_DEVICE), joint_ids=[pole])
    for _ in range(3):
        scene.write_data_to_sim()
        sim.step(render=False)
        scene.update(sim.get_physics_dt())
    q, qd = robot.data.joint_pos.torch[:, pole].clone(), robot.data.joint_vel.torch[:, pole].clone()
    scene.write_data_to_sim()
    expected = 10.0 * (0.3 - q) + 1.0 * (0.0 - qd)
    assert torch.allclose(robot.actuators.computed_effort.torch[:, pole], expected, atol=1e-5)


def test_telemetry_follows_state_between_unread_steps(cartpole_scene):
    """Two physics steps without any state read (an env's decimation loop): the second step's computed effort is
    the PD law on the state after the first step, not on the state before it."""
    sim, scene, robot = cartpole_scene
    pole = robot.joint_names.index("cart_to_pole")
    robot.actuators.target_command.set_position_index(
        value=torch.full((4, 1), 0.3, device=TEST_DEVICE), joint_ids=[pole]
    )
    robot.actuators.target_command.set_velocity_index(value=torch.zeros(4, 1, device=TEST_DEVICE), joint_ids=[pole])
    robot.actuators.target_command.set_effort_index(value=torch.zeros(4, 1, device=TEST_DEVICE), joint_ids=[pole])
    robot.write_joint_velocity_to_sim_index(velocity=torch.full((4, 2), 1.0, device=TEST_DEVICE))
    scene.write_data_to_sim()
    sim.step(render=False)
    scene.update(sim.get_physics_dt())
    scene.write_data_to_sim()  # computes from the state after the step above; nothing read it in between
    q, qd = robot.data.joint_pos.torch[:, pole], robot.data.joint_vel.torch[:, pole]
    expected = 10.0 * (0.3 - q) + 1.0 * (0.0 - qd)
    assert torch.allclose(robot.actuators.computed_effort.torch[:, pole], expected, atol=1e-5)
