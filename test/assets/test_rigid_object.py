"""Newton RigidObject: external wrenches, root writes and body data of a free cube without gravity."""

from __future__ import annotations

import pytest
import torch
from conftest import TEST_DEVICE, rigid_box_cfg, step_scene

MASS = 2.0  # [kg]


@pytest.fixture(scope="module")
def cube_scene(scene_factory):
    """Two free 2 kg cubes (0.2 m) 1 m above their env origins, gravity off, MuJoCo Warp, dt 1/240 s."""
    from isaaclab.scene import InteractiveSceneCfg
    from isaaclab.utils import configclass

    @configclass
    class SceneCfg(InteractiveSceneCfg):
        cube = rigid_box_cfg("Cube", mass=MASS, pos=(0.0, 0.0, 1.0))

    sim, scene = scene_factory(SceneCfg(num_envs=2, env_spacing=3.0), gravity=(0.0, 0.0, 0.0), device=TEST_DEVICE)
    return sim, scene, scene["cube"]


def test_body_mass_matches_spawn(cube_scene):
    """The Newton body carries the spawned 2 kg mass."""
    _, _, cube = cube_scene
    assert cube.data.body_mass.torch[:, 0].tolist() == pytest.approx([MASS, MASS])


def test_external_force_accelerates_by_f_over_m(cube_scene):
    """A permanent 4 N world-frame force on env 0 gives a = F/m = 2 m/s^2; env 1 stays at rest."""
    sim, scene, cube = cube_scene
    force = torch.tensor([[[4.0, 0.0, 0.0]]], device=TEST_DEVICE)
    cube.permanent_wrench_composer.set_forces_and_torques_index(
        forces=force, torques=torch.zeros_like(force), env_ids=torch.tensor([0], device=TEST_DEVICE), is_global=True
    )
    v0 = cube.data.root_com_lin_vel_w.torch[:, 0].clone()
    steps = 120
    step_scene(sim, scene, steps)
    dv = cube.data.root_com_lin_vel_w.torch[:, 0] - v0
    elapsed = steps * sim.get_physics_dt()
    assert dv[0].item() / elapsed == pytest.approx(4.0 / MASS, rel=1e-3)
    assert abs(dv[1].item()) < 1e-6
    cube.reset()
    step_scene(sim, scene, 10)
    assert torch.count_nonzero(cube.data.root_com_vel_w.torch) == 0, "reset must clear wrenches and velocities"


def test_root_pose_and_velocity_writes(cube_scene):
    """Writing a root pose and twist moves the body there; it then drifts by v*t without forces."""
    sim, scene, cube = cube_scene
    cube.reset()
    origins = scene.env_origins
    pose = torch.tensor([[0.0, 0.0, 0.5, 0.0, 0.0, 0.0, 1.0]], device=TEST_DEVICE).repeat(2, 1)
    pose[:, :3] += origins
    vel = torch.tensor([[0.0, 1.0, 0.0, 0.0, 0.0, 0.0]], device=TEST_DEVICE).repeat(2, 1)
    cube.write_root_pose_to_sim_index(root_pose=pose)
    cube.write_root_velocity_to_sim_index(root_velocity=vel)
    torch.testing.assert_close(cube.data.root_link_pose_w.torch, pose, atol=1e-5, rtol=0)
    step_scene(sim, scene, 240)
    expected = pose[:, :3] + torch.tensor([0.0, 1.0, 0.0], device=TEST_DEVICE)
    torch.testing.assert_close(cube.data.root_link_pos_w.torch, expected, atol=1e-3, rtol=0)


def test_instantaneous_body_frame_force_applies_once(cube_scene):
    """A 4 N body-frame +x force on a cube yawed 90 deg pushes along world +y for exactly one step."""
    import math

    sim, scene, cube = cube_scene
    cube.reset()
    half = math.sqrt(0.5)
    pose = torch.tensor([[0.0, 0.0, 1.0, 0.0, 0.0, half, half]], device=TEST_DEVICE).repeat(2, 1)
    pose[:, :3] += scene.env_origins
    cube.write_root_pose_to_sim_index(root_pose=pose)
    assert cube.data.heading_w.torch.tolist() == pytest.approx([math.pi / 2] * 2, abs=1e-5)
    assert cube.data.projected_gravity_b.torch[0].tolist() == pytest.approx([0.0, 0.0, -1.0], abs=1e-6)
    force = torch.tensor([[[4.0, 0.0, 0.0]]], device=TEST_DEVICE).repeat(2, 1, 1)
    cube.instantaneous_wrench_composer.add_forces_and_torques_index(forces=force, is_global=False)
    step_scene(sim, scene, 5)
    dt = sim.get_physics_dt()
    vel = cube.data.root_com_lin_vel_w.torch
    assert vel[:, 1].tolist() == pytest.approx([4.0 / MASS * dt] * 2, rel=1e-3)
    assert vel[:, 0].abs().max().item() < 1e-6


def test_com_and_link_frame_conversions(cube_scene):
    """With the CoM 0.1 m along body x and a 90 deg yaw, CoM-pose and link-twist writes convert via R c."""
    import math

    import newton

    from isaaclab_newton.physics import NewtonManager

    sim, scene, cube = cube_scene
    cube.reset()
    model = NewtonManager.get_model()
    com = model.body_com.numpy()
    com[:] = (0.1, 0.0, 0.0)
    model.body_com.assign(com)
    NewtonManager.get_solver().notify_model_changed(newton.ModelFlags.BODY_INERTIAL_PROPERTIES)
    cube.data.read_body_properties()
    half = math.sqrt(0.5)
    com_pose = torch.tensor([[0.0, 0.0, 1.0, 0.0, 0.0, half, half]], device=TEST_DEVICE).repeat(2, 1)
    com_pose[:, :3] += scene.env_origins
    cube.write_root_com_pose_to_sim_index(root_pose=com_pose)
    torch.testing.assert_close(cube.data.root_com_pos_w.torch, com_pose[:, :3], atol=1e-5, rtol=0)
    offset = torch.tensor([0.0, 0.1, 0.0], device=TEST_DEVICE)  # R c for a 90 deg yaw
    torch.testing.assert_close(cube.data.root_link_pos_w.torch, com_pose[:, :3] - offset, atol=1e-5, rtol=0)
    link_twist = torch.tensor([[0.0, 0.0, 0.0, 0.0, 0.0, 2.0]], device=TEST_DEVICE).repeat(2, 1)
    cube.write_root_link_velocity_to_sim_index(root_velocity=link_twist)
    # v_com = v_link + w x (R c) = (0, 0, 2) x (0, 0.1, 0) = (-0.2, 0, 0) m/s
    expected = torch.tensor([[-0.2, 0.0, 0.0]], device=TEST_DEVICE).repeat(2, 1)
    torch.testing.assert_close(cube.data.root_com_lin_vel_w.torch, expected, atol=1e-5, rtol=0)
    torch.testing.assert_close(
        cube.data.root_link_lin_vel_w.torch, torch.zeros(2, 3, device=TEST_DEVICE), atol=1e-5, rtol=0
    )


def test_prim_without_rigid_body_raises_rigid_object_error():
    """A RigidObject whose prim has colliders but no RigidBodyAPI fails naming the RigidObject and the fix."""
    import isaaclab.sim as sim_utils
    from isaaclab.assets import RigidObjectCfg
    from isaaclab.scene import InteractiveScene, InteractiveSceneCfg
    from isaaclab.sim import SimulationCfg, SimulationContext
    from isaaclab.sim.schemas import UsdPhysicsCollisionCfg, UsdPhysicsRigidBodyCfg
    from isaaclab.utils import configclass

    from isaaclab_newton.physics import NewtonCfg

    @configclass
    class SceneCfg(InteractiveSceneCfg):
        cube = RigidObjectCfg(
            prim_path="{ENV_REGEX_NS}/Cube",
            spawn=sim_utils.CuboidCfg(
                size=(0.2, 0.2, 0.2), rigid_props=[UsdPhysicsRigidBodyCfg()], collision_props=[UsdPhysicsCollisionCfg()]
            ),
            init_state=RigidObjectCfg.InitialStateCfg(pos=(0.0, 0.0, 1.0)),
        )
        block = RigidObjectCfg(
            prim_path="{ENV_REGEX_NS}/Block",
            spawn=sim_utils.CuboidCfg(size=(0.2, 0.2, 0.2), collision_props=[UsdPhysicsCollisionCfg()]),
        )

    SimulationContext.clear_instance()
    sim = SimulationContext(SimulationCfg(dt=1 / 240, device=TEST_DEVICE, physics=NewtonCfg()))
    try:
        scene = InteractiveScene(SceneCfg(num_envs=2, env_spacing=3.0))  # assets live as long as their scene
        with pytest.raises(ValueError, match="RigidObject .* has no rigid body") as info:
            sim.reset()
        assert "Articulation" not in str(info.value)
        assert not scene["block"].is_initialized
    finally:
        SimulationContext.clear_instance()


def test_root_pose_wrong_shape_raises(cube_scene):
    """A (1, 7) root pose for both cubes raises ValueError naming 'root_pose' and the required (2, 7)."""
    _, _, cube = cube_scene
    with pytest.raises(
        ValueError, match=r"RigidObject.write_root_pose_to_sim_index: 'root_pose' must have shape \(2, 7\)"
    ):
        cube.write_root_pose_to_sim_index(root_pose=torch.zeros(1, 7, device=TEST_DEVICE))


def test_external_force_float64_raises(cube_scene):
    """A float64 force for the wrench composer raises TypeError naming 'forces'."""
    _, _, cube = cube_scene
    with pytest.raises(TypeError, match="'forces' has dtype torch.float64"):
        cube.permanent_wrench_composer.set_forces_and_torques_index(
            forces=torch.zeros(2, 1, 3, dtype=torch.float64, device=TEST_DEVICE)
        )
