"""Lazy asset data: derived quantities computed on read, cached until the state changes; resets touch one world."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch
import warp as wp
from conftest import TEST_DEVICE, cartpole_cfg, rigid_box_cfg, step_scene

NUM_ENVS = 4


@pytest.fixture(scope="module")
def cartpoles_and_cubes(scene_factory):
    """4 cartpoles (fixed base, MuJoCo Warp) and 4 free 1 kg cubes resting on the ground."""
    from isaaclab.assets import ArticulationCfg, AssetBaseCfg
    from isaaclab.scene import InteractiveSceneCfg
    from isaaclab.utils import configclass

    from isaaclab_newton.sim import GroundPlaneCfg

    @configclass
    class SceneCfg(InteractiveSceneCfg):
        ground = AssetBaseCfg(prim_path="/World/ground", spawn=GroundPlaneCfg())
        robot: ArticulationCfg = cartpole_cfg()
        cube = rigid_box_cfg("Cube", pos=(1.5, 0.0, 0.1))

    return scene_factory(SceneCfg(num_envs=NUM_ENVS, env_spacing=4.0), dt=1 / 120, device=TEST_DEVICE)


def _count_computes(data, name: str) -> list[int]:
    """Wrap the compute function of lazy buffer ``name`` with a call counter."""
    buf, compute, tensor = data._lazy[name]  # private: the lazy-buffer machinery under test
    calls = [0]

    def counted():
        calls[0] += 1
        return compute()

    data._lazy[name] = (buf, counted, tensor)  # private: the lazy-buffer machinery under test
    return calls


def test_root_pose_write_is_visible_in_derived_reads(cartpoles_and_cubes):
    """Right after a root-pose write, CoM position, heading and projected gravity follow it."""
    sim, scene = cartpoles_and_cubes
    cube = scene["cube"]
    _ = cube.data.projected_gravity_b.torch.clone()  # cache the old values first
    yaw = 0.5 * math.pi  # 90 deg about z, then tilt: quaternion of a 90 deg rotation about x
    pose = cube.data.root_link_pose_w.torch.clone()
    pose[:, 2] += 0.5
    half = 0.5 * yaw
    pose[:, 3:] = torch.tensor([math.sin(half), 0.0, 0.0, math.cos(half)], device=TEST_DEVICE)  # 90 deg about x
    cube.write_root_pose_to_sim_index(root_pose=pose)
    np.testing.assert_allclose(cube.data.root_com_pos_w.torch.cpu().numpy(), pose[:, :3].cpu().numpy(), atol=1e-5)
    np.testing.assert_allclose(
        cube.data.body_link_pos_w.torch[:, 0].cpu().numpy(), pose[:, :3].cpu().numpy(), atol=1e-5
    )
    # gravity (0, 0, -1) seen from a frame rotated 90 deg about x points along -y of that frame
    np.testing.assert_allclose(
        cube.data.projected_gravity_b.torch.cpu().numpy(), [[0.0, -1.0, 0.0]] * NUM_ENVS, atol=1e-5
    )


def test_joint_write_moves_bodies_on_next_read(cartpoles_and_cubes):
    """A cart position write of 0.7 m shows in the cart body's world position on the next read."""
    sim, scene = cartpoles_and_cubes
    robot = scene["robot"]
    cart = robot.find_bodies("cart")[0][0]
    before = robot.data.body_link_pos_w.torch[:, cart].clone()
    joint_pos = robot.data.joint_pos.torch.clone()
    slider = robot.find_joints("slider_to_cart")[0][0]
    joint_pos[:, slider] += 0.7
    robot.write_joint_position_to_sim_index(position=joint_pos)
    assert torch.allclose(robot.data.joint_pos.torch, joint_pos)
    moved = robot.data.body_link_pos_w.torch[:, cart] - before
    assert torch.allclose(moved.norm(dim=-1), torch.full((NUM_ENVS,), 0.7, device=TEST_DEVICE), atol=1e-5)


def test_skip_forward_joint_write_leaves_body_reads_until_a_plain_write(cartpoles_and_cubes):
    """A cart write with skip_forward=True leaves the cart's cached pose; the next plain write of the envs moves it."""
    sim, scene = cartpoles_and_cubes
    robot = scene["robot"]
    cart = robot.find_bodies("cart")[0][0]
    slider = robot.find_joints("slider_to_cart")[0][0]
    before = robot.data.body_link_pos_w.torch[:, cart].clone()
    joint_pos = robot.data.joint_pos.torch.clone()
    joint_pos[:, slider] += 0.3
    robot.write_joint_position_to_sim_index(position=joint_pos, skip_forward=True)
    torch.testing.assert_close(robot.data.body_link_pos_w.torch[:, cart], before)
    robot.write_joint_velocity_to_sim_index(velocity=torch.zeros(NUM_ENVS, robot.num_joints, device=TEST_DEVICE))
    moved = robot.data.body_link_pos_w.torch[:, cart] - before
    assert torch.allclose(moved.norm(dim=-1), torch.full((NUM_ENVS,), 0.3, device=TEST_DEVICE), atol=1e-5)


def test_skip_forward_root_write_leaves_root_reads_until_forward(cartpoles_and_cubes):
    """A cube pose write with skip_forward=True leaves root reads cached until NewtonManager.forward()."""
    from isaaclab_newton.physics import NewtonManager

    sim, scene = cartpoles_and_cubes
    cube = scene["cube"]
    before = cube.data.root_link_pos_w.torch.clone()
    pose = cube.data.root_link_pose_w.torch.clone()
    pose[:, 2] += 0.25
    cube.write_root_pose_to_sim_index(root_pose=pose, skip_forward=True)
    torch.testing.assert_close(cube.data.root_link_pos_w.torch, before)
    NewtonManager.forward()
    torch.testing.assert_close(cube.data.root_link_pos_w.torch, pose[:, :3])


def test_read_twice_in_a_step_computes_once(cartpoles_and_cubes):
    """Two reads of root_link_lin_vel_b in one step compute it once; a step invalidates it."""
    sim, scene = cartpoles_and_cubes
    data = scene["cube"].data
    calls = _count_computes(data, "root_link_lin_vel_b")
    step_scene(sim, scene, 1)
    first = data.root_link_lin_vel_b
    second = data.root_link_lin_vel_b
    assert calls[0] == 1 and first is second
    step_scene(sim, scene, 1)
    _ = data.root_link_lin_vel_b
    assert calls[0] == 2


def test_unread_quantity_is_never_computed(cartpoles_and_cubes):
    """Steps during which nobody reads heading_w never compute it."""
    sim, scene = cartpoles_and_cubes
    data = scene["robot"].data
    calls = _count_computes(data, "heading_w")
    step_scene(sim, scene, 5)
    assert calls[0] == 0
    _ = data.heading_w
    assert calls[0] == 1


def test_reset_of_env_2_leaves_other_worlds_bit_identical(cartpoles_and_cubes):
    """Resetting env 2 (index and mask forms) and writing its state leaves envs 0, 1, 3 bit-identical."""
    from isaaclab_newton.physics import NewtonManager

    sim, scene = cartpoles_and_cubes
    robot, cube = scene["robot"], scene["cube"]
    step_scene(sim, scene, 10)
    state = NewtonManager.get_state_0()
    # private: the asset's rows in Newton's model, no public read
    rows = np.concatenate((robot._binding.body_indices.cpu().numpy(), cube._binding.body_indices.cpu().numpy()), axis=1)
    others = [0, 1, 3]

    def snapshot():
        body_q, body_qd = state.body_q.numpy(), state.body_qd.numpy()
        # private: the asset's rows in Newton's model, no public read
        q = state.joint_q.numpy()[robot._binding.coord_indices.cpu().numpy()]
        return body_q[rows[others]].copy(), body_qd[rows[others]].copy(), q[others].copy()

    before = snapshot()
    robot.reset(env_ids=[2])
    cube.reset(env_ids=[2])
    cube.write_root_velocity_to_sim_index(root_velocity=torch.ones(1, 6, device=TEST_DEVICE), env_ids=[2])
    robot.write_joint_position_to_sim_index(
        position=torch.tensor([[0.3, 0.2]], device=TEST_DEVICE),
        env_ids=torch.tensor([2], device=TEST_DEVICE),
        skip_forward=False,
    )
    _ = robot.data.body_link_pose_w.torch  # forces the queued (masked) FK
    for a, b in zip(before, snapshot(), strict=True):
        np.testing.assert_array_equal(a, b)
    mask = torch.zeros(NUM_ENVS, dtype=torch.bool, device=TEST_DEVICE)
    mask[2] = True
    robot.reset(env_mask=mask)
    cube.reset(env_mask=mask)
    cube.write_root_velocity_to_sim_mask(root_velocity=torch.zeros(NUM_ENVS, 6, device=TEST_DEVICE), env_mask=mask)
    robot.write_joint_position_to_sim_mask(position=torch.full((NUM_ENVS, 2), -0.4, device=TEST_DEVICE), env_mask=mask)
    _ = robot.data.body_link_pose_w.torch
    for a, b in zip(before, snapshot(), strict=True):
        np.testing.assert_array_equal(a, b)
    assert torch.allclose(robot.data.joint_pos.torch[2], torch.tensor([-0.4, -0.4], device=TEST_DEVICE))


def test_root_buffers_match_torch_from_body_state(cartpoles_and_cubes):
    """The root-frame kernel's buffers equal the quantities derived in torch from the cube's body state."""
    from isaaclab.utils.math import quat_apply, quat_apply_inverse

    sim, scene = cartpoles_and_cubes
    cube = scene["cube"]
    pose = cube.data.root_link_pose_w.torch.clone()
    pose[:, 2] += 1.0
    half = 0.3
    pose[:, 3:] = torch.tensor([math.sin(half), 0.0, 0.0, math.cos(half)], device=TEST_DEVICE)
    twist = torch.tensor([[0.5, -0.2, 1.0, 0.3, 2.0, -1.0]], device=TEST_DEVICE).repeat(pose.shape[0], 1)
    cube.write_root_pose_to_sim_index(root_pose=pose)
    cube.write_root_velocity_to_sim_index(root_velocity=twist)
    step_scene(sim, scene, 3)
    data = cube.data

    link_pose = data.body_link_pose_w.torch[:, 0]
    com_vel = data.body_com_vel_w.torch[:, 0]
    p, q, v, w = link_pose[:, :3], link_pose[:, 3:], com_vel[:, :3], com_vel[:, 3:]
    arm = quat_apply(q, data.body_com_pos_b.torch[:, 0])
    v_link = v - torch.cross(w, arm, dim=-1)
    forward = quat_apply(q, data.FORWARD_VEC_B.torch)
    expected = {
        "root_link_pose_w": link_pose,
        "root_com_vel_w": com_vel,
        "root_com_pos_w": p + arm,
        "root_link_lin_vel_w": v_link,
        "root_link_state_w": torch.cat((link_pose, v_link, w), -1),
        "root_com_state_w": torch.cat((p + arm, q, v, w), -1),
        "root_state_w": torch.cat((link_pose, com_vel), -1),
        "root_link_lin_vel_b": quat_apply_inverse(q, v_link),
        "root_com_lin_vel_b": quat_apply_inverse(q, v),
        "root_link_ang_vel_b": quat_apply_inverse(q, w),
        "projected_gravity_b": quat_apply_inverse(q, data.GRAVITY_VEC_W.torch),
        "heading_w": torch.atan2(forward[:, 1], forward[:, 0]),
    }
    assert float(w.norm(dim=-1).min()) > 1.0, "the cube must be spinning for the test to mean something"
    for name, value in expected.items():
        torch.testing.assert_close(getattr(data, name).torch, value, rtol=1e-5, atol=1e-6, msg=name)


def test_joint_and_body_state_reads_are_views_of_the_newton_state(cartpoles_and_cubes):
    """joint_pos, joint_vel and body_link_pose_w share the state's memory and equal it at the binding's rows."""
    from isaaclab_newton.assets.binding import torch_view
    from isaaclab_newton.physics import NewtonManager

    sim, scene = cartpoles_and_cubes
    robot = scene["robot"]
    bind, data = robot._binding, robot.data  # private: the asset's rows in Newton's model, no public read
    step_scene(sim, scene, 2)
    state = NewtonManager.get_state_0()
    for name, attr, rows in (
        ("joint_pos", "joint_q", bind.coord_indices),
        ("joint_vel", "joint_qd", bind.dof_indices),
        ("body_link_pose_w", "body_q", bind.body_indices),
    ):
        source = torch_view(getattr(state, attr))
        read = getattr(data, name).torch
        assert read.untyped_storage().data_ptr() == source.untyped_storage().data_ptr(), name
        torch.testing.assert_close(read, source[rows], rtol=0, atol=0)


def test_rows_without_a_uniform_layout_are_gathered(cartpoles_and_cubes):
    """Rows that are no affine grid (columns swapped in one env) read as a gathered copy of the state."""
    from isaaclab_newton.assets.binding import torch_view
    from isaaclab_newton.assets.body_data import _affine_strides
    from isaaclab_newton.physics import NewtonManager

    sim, scene = cartpoles_and_cubes
    robot = scene["robot"]
    rows = robot._binding.coord_indices.clone()  # private: the asset's rows in Newton's model, no public read
    assert _affine_strides(rows) is not None
    rows[1] = rows[1].flip(0)
    assert _affine_strides(rows) is None
    data = robot.data
    # private: the gather machinery under test
    data._add_gather("test_swapped_joint_pos", tuple(rows.shape), wp.float32, "joint_q", rows)
    step_scene(sim, scene, 1)
    read = data._read("test_swapped_joint_pos").torch  # private: the gather machinery under test
    source = torch_view(NewtonManager.get_state_0().joint_q)
    assert read.untyped_storage().data_ptr() != source.untyped_storage().data_ptr()
    torch.testing.assert_close(read, source[rows], rtol=0, atol=0)
