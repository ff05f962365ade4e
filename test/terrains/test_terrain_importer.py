"""``TerrainImporterCfg(terrain_type="plane")`` offline: Newton's ground plane with the cfg's physics material."""

from __future__ import annotations

import pytest
import torch
from conftest import TEST_DEVICE, step_scene

G = 9.81  # [m/s^2]
DT = 1.0 / 240.0  # [s]
MU = 0.5  # plane friction; the bodies' own is 0.1, and MuJoCo takes the larger of the two


@pytest.fixture(scope="module")
def plane_scene():
    """A 0.1 m ball dropped from 0.3 m and a 0.2 m cube on a plane terrain of friction 0.5, 2 envs."""
    import isaaclab.sim as sim_utils
    from isaaclab.assets import RigidObjectCfg
    from isaaclab.scene import InteractiveScene, InteractiveSceneCfg
    from isaaclab.sim import SimulationCfg, SimulationContext
    from isaaclab.sim.schemas import MassCfg, UsdPhysicsCollisionCfg, UsdPhysicsRigidBodyCfg
    from isaaclab.sim.spawners.materials import RigidBodyMaterialBaseCfg
    from isaaclab.terrains import TerrainImporterCfg
    from isaaclab.utils import configclass

    from isaaclab_newton.physics import NewtonCfg
    from isaaclab_newton.terrains import NewtonTerrainImporter

    material = RigidBodyMaterialBaseCfg(static_friction=0.1, dynamic_friction=0.1)
    props = {
        "mass_props": [MassCfg(mass=1.0)],
        "rigid_props": [UsdPhysicsRigidBodyCfg()],
        "collision_props": [UsdPhysicsCollisionCfg()],
        "physics_material": material,
    }

    @configclass
    class SceneCfg(InteractiveSceneCfg):
        terrain = TerrainImporterCfg(
            prim_path="/World/ground",
            class_type=NewtonTerrainImporter,
            terrain_type="plane",
            physics_material=RigidBodyMaterialBaseCfg(static_friction=MU, dynamic_friction=MU),
        )
        ball = RigidObjectCfg(
            prim_path="{ENV_REGEX_NS}/Ball",
            spawn=sim_utils.SphereCfg(radius=0.1, **props),
            init_state=RigidObjectCfg.InitialStateCfg(pos=(0.0, 0.0, 0.3)),
        )
        cube = RigidObjectCfg(
            prim_path="{ENV_REGEX_NS}/Cube",
            spawn=sim_utils.CuboidCfg(size=(0.2, 0.2, 0.2), **props),
            init_state=RigidObjectCfg.InitialStateCfg(pos=(0.5, 0.0, 0.1 + 1e-3)),
        )

    SimulationContext.clear_instance()
    sim = SimulationContext(SimulationCfg(dt=DT, device=TEST_DEVICE, physics=NewtonCfg()))
    scene = InteractiveScene(SceneCfg(num_envs=2, env_spacing=2.0))
    sim.reset()
    yield sim, scene
    SimulationContext.clear_instance()


def test_ball_comes_to_rest_on_the_plane(plane_scene):
    """The dropped ball rests with its centre one radius above z = 0 (within 2 mm) in every env."""
    sim, scene = plane_scene
    step_scene(sim, scene, 240)
    ball = scene["ball"].data
    assert ball.root_link_pos_w.torch[:, 2].tolist() == pytest.approx([0.1, 0.1], abs=2e-3)
    assert ball.root_com_lin_vel_w.torch.abs().max().item() < 1e-2


def test_sliding_cube_decelerates_at_the_materials_friction(plane_scene):
    """A cube launched at 2 m/s slows at mu g with mu = 0.5 from the terrain's physics material."""
    sim, scene = plane_scene
    cube = scene["cube"]
    step_scene(sim, scene, 12)  # settle into contact
    velocity = torch.zeros(scene.num_envs, 6)
    velocity[:, 0] = 2.0
    cube.write_root_velocity_to_sim_index(root_velocity=velocity)
    step_scene(sim, scene, 6)  # the contact's friction takes hold
    v0 = cube.data.root_com_lin_vel_w.torch[:, 0].clone()
    steps = 48
    step_scene(sim, scene, steps)
    acc = (cube.data.root_com_lin_vel_w.torch[:, 0] - v0) / (steps * DT)
    assert acc.tolist() == pytest.approx([-MU * G] * 2, rel=0.05)
