"""Body mass, CoM and inertia setters: each write changes the physics of the envs written and of no other."""

from __future__ import annotations

import math

import pytest
import torch
from conftest import TEST_DEVICE, step_scene

G = 9.81  # [m/s^2]


@pytest.fixture(scope="module")
def cubes(cube_scene_factory):
    """Three free 1 kg cubes (0.2 m) resting on the ground, one per env."""
    sim, scene = cube_scene_factory(num_envs=3)
    cube = scene["cube"]
    defaults = (
        cube.data.body_mass.torch.clone(),
        cube.data.body_inertia.torch.clone(),
        cube.data.body_com_pose_b.torch.clone(),
    )
    yield sim, scene, cube
    cube.set_masses_index(masses=defaults[0])
    cube.set_inertias_index(inertias=defaults[1])
    cube.set_coms_index(coms=defaults[2])


def _rest(scene, cube, z: float = 0.1) -> None:
    """Put every cube at rest, level, ``z`` [m] above its env origin; clear wrenches."""
    pose = torch.tensor([0.0, 0.0, z, 0.0, 0.0, 0.0, 1.0], device=TEST_DEVICE).repeat(scene.num_envs, 1)
    pose[:, :3] += scene.env_origins
    cube.reset()
    cube.write_root_pose_to_sim_index(root_pose=pose)
    cube.write_root_velocity_to_sim_index(root_velocity=torch.zeros(scene.num_envs, 6, device=TEST_DEVICE))


def test_mass_write_decides_lift_off(cubes):
    """An upward 1.5 m g force lifts the 1 kg cubes and not the one written to 2 kg (env 1)."""
    sim, scene, cube = cubes
    default = cube.data.body_mass.torch.clone()
    cube.set_masses_index(
        masses=torch.tensor([[2.0]], device=TEST_DEVICE), env_ids=torch.tensor([1], device=TEST_DEVICE)
    )
    assert cube.data.body_mass.torch[:, 0].tolist() == pytest.approx([1.0, 2.0, 1.0])
    _rest(scene, cube)
    force = torch.tensor([0.0, 0.0, 1.5 * G], device=TEST_DEVICE).repeat(3, 1, 1)
    cube.permanent_wrench_composer.set_forces_and_torques_index(
        forces=force, torques=torch.zeros_like(force), is_global=True
    )
    step_scene(sim, scene, 60)  # 0.25 s: a 1 kg cube rises 0.5 g t^2 / 2 = 0.153 m
    rise = cube.data.root_link_pos_w.torch[:, 2] - 0.1
    assert rise[0].item() == pytest.approx(0.5 * 0.5 * G * 0.25**2, rel=0.05)
    assert rise[2].item() == pytest.approx(rise[0].item(), rel=1e-4)
    assert abs(rise[1].item()) < 2e-3, "the 2 kg cube must stay on the ground"
    cube.set_masses_index(masses=default)
    _rest(scene, cube)


def test_mass_mask_write_changes_masked_env_only(cubes):
    """The mask form writes the masked env's row and keeps the others."""
    _, _, cube = cubes
    default = cube.data.body_mass.torch.clone()
    cube.set_masses_mask(
        masses=torch.full((3, 1), 5.0, device=TEST_DEVICE),
        env_mask=torch.tensor([False, False, True], device=TEST_DEVICE),
    )
    assert cube.data.body_mass.torch[:, 0].tolist() == pytest.approx([1.0, 1.0, 5.0])
    cube.set_masses_index(masses=default)


def test_inertia_write_halves_angular_acceleration(cubes):
    """A torque about z spins a cube at tau / I; doubling env 2's inertia halves its rate, the others keep theirs."""
    sim, scene, cube = cubes
    default = cube.data.body_inertia.torch.clone()
    cube.set_inertias_index(inertias=2.0 * default[2:3], env_ids=[2])
    _rest(scene, cube, z=1.0)
    i_zz = 1.0 * 0.2**2 / 6.0  # solid cube about its axis [kg m^2]
    tau = 0.01  # [N m]
    torque = torch.tensor([0.0, 0.0, tau], device=TEST_DEVICE).repeat(3, 1, 1)
    cube.permanent_wrench_composer.set_forces_and_torques_index(
        forces=torch.zeros_like(torque), torques=torque, is_global=True
    )
    steps = 24  # 0.1 s, in free fall (the cubes stay clear of the ground)
    step_scene(sim, scene, steps)
    rate = cube.data.root_com_ang_vel_w.torch[:, 2] / (steps * sim.get_physics_dt())
    assert rate[0].item() == pytest.approx(tau / i_zz, rel=0.02)
    assert rate[1].item() == pytest.approx(rate[0].item(), rel=1e-4)
    assert rate[2].item() == pytest.approx(tau / (2.0 * i_zz), rel=0.02)
    cube.set_inertias_index(inertias=default)
    _rest(scene, cube)


def test_com_write_tips_only_an_unsupported_cube(cubes):
    """A CoM moved 0.05 m (inside the 0.1 m half-width) keeps a cube standing; 0.15 m (outside) tips it over."""
    sim, scene, cube = cubes
    default = cube.data.body_com_pose_b.torch.clone()
    coms = default.clone()
    coms[1, 0, 0] += 0.05
    coms[2, 0, 0] += 0.15
    cube.set_coms_index(coms=coms[1:], env_ids=[1, 2])
    torch.testing.assert_close(
        cube.data.body_com_pos_b.torch[:, 0, 0], torch.tensor([0.0, 0.05, 0.15], device=TEST_DEVICE)
    )
    _rest(scene, cube, z=0.1 + 1e-3)
    step_scene(sim, scene, 240)  # 1 s
    up_z = 1.0 - 2.0 * (cube.data.root_link_quat_w.torch[:, 0] ** 2 + cube.data.root_link_quat_w.torch[:, 1] ** 2)
    tilt = torch.acos(up_z.clamp(-1.0, 1.0))
    assert tilt[0].item() < 0.01 and tilt[1].item() < 0.01
    assert tilt[2].item() > math.radians(30.0)
    cube.set_coms_index(coms=default)
    _rest(scene, cube)


def test_com_write_rejects_rotated_frames(cubes):
    """Newton's CoM frame is body-aligned: a CoM pose with a rotation is refused with a message naming the fix."""
    _, _, cube = cubes
    coms = cube.data.body_com_pose_b.torch.clone()
    coms[..., 3:] = torch.tensor([0.0, 0.0, math.sin(0.25), math.cos(0.25)], device=TEST_DEVICE)
    with pytest.raises(ValueError, match="set_inertias"):
        cube.set_coms_index(coms=coms)
