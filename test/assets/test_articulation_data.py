"""Newton Articulation data and writes: defaults, names, root pose of a fixed base, joint properties."""

from __future__ import annotations

import pytest
import torch
import warp as wp
from conftest import TEST_DEVICE, step_scene


@pytest.fixture(scope="module")
def cartpoles(cartpole_scene_factory):
    """Two cartpoles (Isaac Lab's cartpole cfg, init pose (0, 0, 2) m, pole default 0.1 rad), MuJoCo Warp."""
    return cartpole_scene_factory(num_envs=2, joint_pos={"slider_to_cart": 0.0, "cart_to_pole": 0.1})


def test_names_and_counts(cartpoles):
    """Joints are the two one-DOF joints (root fixed joint excluded); bodies are the three links."""
    _, _, robot = cartpoles
    assert robot.joint_names == ["slider_to_cart", "cart_to_pole"]
    assert robot.body_names == ["slider", "cart", "pole"]
    assert robot.is_fixed_base and robot.num_instances == 2
    assert robot.find_joints("cart_to.*")[0] == [1]
    assert robot.find_bodies(["pole", "slider"], preserve_order=True) == ([2, 0], ["pole", "slider"])
    assert robot.find_joints(".*", as_proxy=True)[0].torch.tolist() == [0, 1]


def test_defaults_limits_and_actuator_gains(cartpoles):
    """Defaults follow init_state; the slider's +-4 m limits and the cart's implicit damping reach the data."""
    _, _, robot = cartpoles
    assert robot.data.default_joint_pos.torch[0].tolist() == pytest.approx([0.0, 0.1])
    assert robot.data.default_root_pose.torch[0].tolist() == pytest.approx([0, 0, 2.0, 0, 0, 0, 1])
    assert robot.data.joint_pos_limits.torch[0, 0].tolist() == pytest.approx([-4.0, 4.0])
    assert robot.data.soft_joint_pos_limits.torch[0, 0].tolist() == pytest.approx([-4.0, 4.0])
    assert robot.data.joint_damping.torch[0].tolist() == pytest.approx([10.0, 0.0])
    assert robot.data.joint_effort_limits.torch[0].tolist() == pytest.approx([400.0, 400.0])
    torch.testing.assert_close(robot.data.soft_joint_vel_limits.torch, robot.data.joint_vel_limits.torch)
    assert robot.data.body_mass.torch[0, 1:].tolist() == pytest.approx([1.0, 1.0])


def test_root_and_body_poses_at_env_origins(cartpoles):
    """The fixed root sits at env origin + (0, 0, 2) m; body CoM of the pole is 0.47 m along its axis."""
    _, scene, robot = cartpoles
    expected = scene.env_origins + torch.tensor([0.0, 0.0, 2.0], device=TEST_DEVICE)
    torch.testing.assert_close(robot.data.root_link_pos_w.torch, expected, atol=1e-5, rtol=0)
    pole_com_b = robot.data.body_com_pos_b.torch[0, 2]
    assert pole_com_b.tolist() == pytest.approx([0.0, 0.0, 0.47], abs=1e-5)
    com_w = robot.data.body_com_pos_w.torch[:, 2]
    link_w = robot.data.body_link_pos_w.torch[:, 2]
    assert torch.linalg.norm(com_w - link_w, dim=-1).tolist() == pytest.approx([0.47, 0.47], abs=1e-5)
    assert robot.data.projected_gravity_b.torch[0].tolist() == pytest.approx([0.0, 0.0, -1.0], abs=1e-6)
    assert robot.data.heading_w.torch.tolist() == pytest.approx([0.0, 0.0], abs=1e-6)


def test_fixed_base_root_pose_write_moves_robot(cartpoles):
    """Writing a fixed-base root pose 1 m higher moves every body up by 1 m after the next step."""
    sim, scene, robot = cartpoles
    before = robot.data.body_link_pos_w.torch.clone()
    pose = robot.data.default_root_pose.torch.clone()
    pose[:, :3] += scene.env_origins + torch.tensor([0.0, 0.0, 1.0], device=TEST_DEVICE)
    robot.write_root_pose_to_sim_index(root_pose=pose)
    robot.write_joint_position_to_sim_index(position=torch.zeros(2, 2, device=TEST_DEVICE))
    robot.write_joint_velocity_to_sim_index(velocity=torch.zeros(2, 2, device=TEST_DEVICE))
    step_scene(sim, scene, 1)
    lift = robot.data.body_link_pos_w.torch[..., 2] - before[..., 2]
    assert lift.flatten().tolist() == pytest.approx([1.0] * 6, abs=1e-3)


def test_joint_writes_and_state(cartpoles):
    """Index and mask writes set joint positions/velocities; a pole released at 0.1 rad from upright falls further."""
    sim, scene, robot = cartpoles
    robot.write_joint_position_to_sim_index(
        position=torch.tensor([[0.5]], device=TEST_DEVICE), joint_ids=[0], env_ids=[1]
    )
    assert robot.data.joint_pos.torch[1, 0].item() == pytest.approx(0.5)
    mask_env = torch.tensor([True, False], device=TEST_DEVICE)
    robot.write_joint_velocity_to_sim_mask(
        velocity=torch.full((2, 2), 0.25, device=TEST_DEVICE), env_mask=wp.from_torch(mask_env), joint_mask=None
    )
    assert robot.data.joint_vel.torch[:, 0].tolist() == pytest.approx([0.25, 0.0])
    robot.write_joint_state_to_sim(
        torch.tensor([[0.0, 0.1]] * 2, device=TEST_DEVICE), torch.zeros(2, 2, device=TEST_DEVICE)
    )
    step_scene(sim, scene, 60)
    assert (robot.data.joint_pos.torch[:, 1] > 0.15).all(), "the pole must fall away from upright under gravity"
    assert torch.isfinite(robot.data.joint_acc.torch).all()


def test_joint_property_writes_reach_model(cartpoles):
    """Stiffness, armature, friction, effort and position-limit writes land in Newton's model arrays."""
    from isaaclab_newton.physics import NewtonManager

    _, _, robot = cartpoles
    model = NewtonManager.get_model()
    dof = robot._binding.dof_indices[1, 1].item()  # private: the asset's rows in Newton's model, no public read
    robot.write_joint_stiffness_to_sim_index(
        stiffness=torch.tensor([[7.0]], device=TEST_DEVICE), joint_ids=[1], env_ids=[1]
    )
    robot.write_joint_armature_to_sim_index(armature=0.01, joint_ids=[1], env_ids=[1])
    robot.write_joint_friction_coefficient_to_sim_index(joint_friction_coeff=0.2, joint_ids=[1], env_ids=[1])
    robot.write_joint_effort_limit_to_sim_index(limits=50.0, joint_ids=[1], env_ids=[1])
    robot.write_joint_position_limit_to_sim_index(
        limits=torch.tensor([[[-1.0, 1.0]]], device=TEST_DEVICE), joint_ids=[1], env_ids=[1]
    )
    assert model.joint_target_ke.numpy()[dof] == pytest.approx(7.0)
    assert model.joint_armature.numpy()[dof] == pytest.approx(0.01)
    assert model.joint_friction.numpy()[dof] == pytest.approx(0.2)
    assert model.joint_effort_limit.numpy()[dof] == pytest.approx(50.0)
    assert (model.joint_limit_lower.numpy()[dof], model.joint_limit_upper.numpy()[dof]) == pytest.approx((-1, 1))
    assert robot.data.joint_stiffness.torch[1, 1].item() == pytest.approx(7.0)
    assert robot.data.joint_stiffness.torch[0, 1].item() == pytest.approx(0.0)


def test_unsupported_members_raise_naming_themselves(cartpoles):
    """Unsupported members raise NotImplementedError with their own name."""
    _, _, robot = cartpoles
    with pytest.raises(NotImplementedError, match="Articulation.set_fixed_tendon_rest_length_index"):
        robot.set_fixed_tendon_rest_length_index(rest_length=torch.ones(2, 0, device=TEST_DEVICE))
    assert robot.num_fixed_tendons == 0
    assert robot.data.fixed_tendon_stiffness.torch.shape == (2, 0)
