"""Core's generated rough terrain in the Newton model: balls dropped on every sub-terrain type rest on its surface."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from conftest import TEST_DEVICE

RADIUS = 0.1  # [m]
# per sub-terrain column: where on the tile the ball is dropped, relative to the tile's origin [m]
DROP_XY = (1.95, 0.45)


TERRAIN_SEED = 7
"""Seed of the generated terrain: without one, core draws it from NumPy's global state, different in every run."""


def _rough_terrain(heightfield_only: bool, *, slope_threshold: float | None = 0.75):
    """Core's ROUGH_TERRAINS_CFG, one row with one column per sub-terrain type (all of them, or its height fields)."""
    from isaaclab.terrains.config.rough import ROUGH_TERRAINS_CFG
    from isaaclab.utils import replace

    subs = dict(ROUGH_TERRAINS_CFG.sub_terrains)
    if heightfield_only:
        subs = {k: v for k, v in subs.items() if k.startswith(("random_rough", "hf_"))}
    subs = {k: replace(v, proportion=1.0 / len(subs)) for k, v in subs.items()}
    cfg = replace(
        ROUGH_TERRAINS_CFG,
        num_rows=1,
        num_cols=len(subs),
        border_width=1.0,
        curriculum=True,
        sub_terrains=subs,
        seed=TERRAIN_SEED,
        slope_threshold=slope_threshold,
    )
    cfg.difficulty_range = (0.8, 0.8)
    return cfg


def _build(
    solver_cfg,
    generator,
    *,
    gap: float | None = None,
    reduce_contacts: bool = True,
    num_substeps: int = 1,
    collision_decimation: int = 1,
):
    import isaaclab.sim as sim_utils
    from isaaclab.assets import RigidObjectCfg
    from isaaclab.scene import InteractiveScene, InteractiveSceneCfg
    from isaaclab.sim import SimulationCfg, SimulationContext
    from isaaclab.sim.spawners.materials.physics_materials_cfg import RigidBodyMaterialBaseCfg
    from isaaclab.terrains import TerrainImporterCfg
    from isaaclab.utils import configclass

    from isaaclab_newton.physics import NewtonCfg, NewtonCollisionPipelineCfg, NewtonShapeCfg

    @configclass
    class SceneCfg(InteractiveSceneCfg):
        terrain = TerrainImporterCfg(
            prim_path="/World/ground",
            terrain_type="generator",
            terrain_generator=generator,
            physics_material=RigidBodyMaterialBaseCfg(static_friction=1.0, dynamic_friction=1.0),
        )
        ball = RigidObjectCfg(
            prim_path="{ENV_REGEX_NS}/Ball",
            spawn=sim_utils.SphereCfg(
                radius=RADIUS,
                rigid_props=sim_utils.UsdPhysicsRigidBodyCfg(),
                mass_props=sim_utils.MassCfg(mass=1.0),
                collision_props=sim_utils.UsdPhysicsCollisionCfg(),
            ),
            init_state=RigidObjectCfg.InitialStateCfg(pos=(0.0, 0.0, 2.0)),
        )

    SimulationContext.clear_instance()
    physics = NewtonCfg(
        solver_cfg=solver_cfg,
        default_shape_cfg=NewtonShapeCfg(gap=gap),
        collision_cfg=NewtonCollisionPipelineCfg(reduce_contacts=reduce_contacts),
        num_substeps=num_substeps,
        collision_decimation=collision_decimation,
    )
    sim = SimulationContext(SimulationCfg(dt=1 / 240, device=TEST_DEVICE, physics=physics))
    scene = InteractiveScene(SceneCfg(num_envs=generator.num_cols, env_spacing=2.0))
    return sim, scene


def _surface_mesh(sim):
    """The terrain core generated, as a Warp mesh (the reference surface, independent of the collider)."""
    import warp as wp
    from pxr import UsdGeom

    mesh = UsdGeom.Mesh(sim.stage.GetPrimAtPath("/World/ground/terrain/mesh"))
    points = np.asarray(mesh.GetPointsAttr().Get(), dtype=np.float32)
    faces = np.asarray(mesh.GetFaceVertexIndicesAttr().Get(), dtype=np.int32)
    return wp.Mesh(points=wp.array(points, dtype=wp.vec3), indices=wp.array(faces, dtype=wp.int32))


def _height_below(mesh, xy: np.ndarray) -> np.ndarray:
    import warp as wp

    starts = np.concatenate([xy, np.full((len(xy), 1), 50.0)], axis=1)
    out = wp.zeros(len(xy), dtype=float)
    wp.launch(_down_ray, dim=len(xy), inputs=[mesh.id, wp.array(starts, dtype=wp.vec3)], outputs=[out])
    return 50.0 - out.numpy()


def _distance_to(mesh, points: np.ndarray) -> np.ndarray:
    import warp as wp

    out = wp.zeros(len(points), dtype=float)
    wp.launch(_closest, dim=len(points), inputs=[mesh.id, wp.array(points, dtype=wp.vec3)], outputs=[out])
    return out.numpy()


def _init_kernels():
    import warp as wp

    @wp.kernel
    def down_ray(mesh: wp.uint64, starts: wp.array(dtype=wp.vec3), out: wp.array(dtype=float)):
        i = wp.tid()
        q = wp.mesh_query_ray(mesh, starts[i], wp.vec3(0.0, 0.0, -1.0), 100.0)
        out[i] = q.t

    @wp.kernel
    def closest(mesh: wp.uint64, points: wp.array(dtype=wp.vec3), out: wp.array(dtype=float)):
        i = wp.tid()
        q = wp.mesh_query_point_no_sign(mesh, points[i], 10.0)
        out[i] = wp.length(points[i] - wp.mesh_eval_position(mesh, q.face, q.u, q.v))

    return down_ray, closest


_down_ray, _closest = _init_kernels()


def _drop_and_settle(sim, scene, steps: int = 144, *, lift: float = 0.05) -> tuple[np.ndarray, object]:
    """Place each env's ball ``lift`` [m] above the surface at DROP_XY on its tile, step, return the final centres."""
    sim.reset()
    surface = _surface_mesh(sim)
    origins = scene.terrain.env_origins.cpu().numpy()
    xy = origins[:, :2] + np.array(DROP_XY)
    z = _height_below(surface, xy) + RADIUS + lift
    ball = scene["ball"]
    pose = np.concatenate([xy, z[:, None], np.tile([0.0, 0.0, 0.0, 1.0], (len(xy), 1))], axis=1)
    ball.write_root_pose_to_sim_index(root_pose=torch.tensor(pose, dtype=torch.float32, device=TEST_DEVICE))
    ball.write_root_velocity_to_sim_index(root_velocity=torch.zeros(len(xy), 6, device=TEST_DEVICE))
    for _ in range(steps):
        scene.write_data_to_sim()
        sim.step(render=False)
        scene.update(sim.get_physics_dt())
    return ball.data.root_pos_w.torch.cpu().numpy(), surface


def _solvers():
    from isaaclab_newton.physics import MJWarpSolverCfg, XPBDSolverCfg

    return {
        "mjwarp-newton-contacts": MJWarpSolverCfg(use_mujoco_contacts=False),
        "mjwarp-mujoco-contacts": MJWarpSolverCfg(use_mujoco_contacts=True),
        "xpbd": XPBDSolverCfg(),
    }


@pytest.mark.parametrize("solver", ["mjwarp-newton-contacts", "xpbd"])
def test_balls_rest_on_every_rough_sub_terrain(solver):
    """Core's rough terrain (stairs, inverted stairs, boxes, rough, slopes) collides as its triangles, not a hull."""
    from isaaclab.sim import SimulationContext

    from isaaclab_newton.physics import NewtonManager

    sim, scene = _build(_solvers()[solver], _rough_terrain(heightfield_only=False))
    centres, surface = _drop_and_settle(sim, scene)
    types = NewtonManager.get_model().shape_type.numpy()
    gap = _distance_to(surface, centres) - RADIUS
    SimulationContext.clear_instance()
    assert int(types[0]) == 8  # newton.GeoType.MESH
    np.testing.assert_allclose(gap, 0.0, atol=0.01)


@pytest.mark.parametrize("solver", ["mjwarp-newton-contacts", "mjwarp-mujoco-contacts", "xpbd"])
def test_tagged_terrain_becomes_a_heightfield_balls_rest_on(solver, caplog):
    """A terrain core tags newton:heightfield:resolution imports as a Heightfield that every solver collides."""
    from isaaclab.sim import SimulationContext

    from isaaclab_newton.physics import NewtonManager

    # without slope_threshold core's mesh is single-valued on the grid, and the heightfield holds its triangles
    sim, scene = _build(_solvers()[solver], _rough_terrain(heightfield_only=True, slope_threshold=None))
    centres, surface = _drop_and_settle(sim, scene)
    assert "vertical steps" not in caplog.text
    types = NewtonManager.get_model().shape_type.numpy()
    gap = _distance_to(surface, centres) - RADIUS
    SimulationContext.clear_instance()
    assert int(types[0]) == 2  # newton.GeoType.HFIELD
    np.testing.assert_allclose(gap, 0.0, atol=0.01)


def test_contact_gap_changes_contact_count_not_motion_under_mujoco_warp():
    """Under MuJoCo Warp a 1 cm shape gap passes fewer contacts than 10 cm and moves balls the same on planar ground."""
    # MuJoCo Warp constrains penetrating contacts only. Every ball rests on the surface (1 cm) with both gaps; on box
    # edges and random bumps the roll direction is chaotic, so paths are compared on stair treads and slopes.
    from isaaclab.sim import SimulationContext

    from isaaclab_newton.physics import NewtonManager

    generator = _rough_terrain(heightfield_only=False)
    planar = [i for i, name in enumerate(generator.sub_terrains) if name.startswith(("pyramid_stairs", "hf_pyramid"))]
    centres, counts = {}, {}
    for gap in (0.1, 0.01):
        sim, scene = _build(_solvers()["mjwarp-newton-contacts"], generator, gap=gap)
        centres[gap], surface = _drop_and_settle(sim, scene, steps=48)
        counts[gap] = int(NewtonManager.get_contacts().rigid_contact_count.numpy()[0])
        np.testing.assert_allclose(_distance_to(surface, centres[gap]) - RADIUS, 0.0, atol=0.01)
        SimulationContext.clear_instance()
    assert len(planar) == 4
    np.testing.assert_allclose(centres[0.01][planar], centres[0.1][planar], atol=1e-4)
    assert counts[0.01] < counts[0.1]


def test_balls_rest_and_roll_alike_without_mesh_contact_reduction():
    """Without Newton's mesh-contact reduction (the Go1 rough setting) balls rest on every sub-terrain, roll alike."""
    from isaaclab.sim import SimulationContext

    from isaaclab_newton.physics import NewtonManager

    generator = _rough_terrain(heightfield_only=False)
    planar = [i for i, name in enumerate(generator.sub_terrains) if name.startswith(("pyramid_stairs", "hf_pyramid"))]
    centres, counts = {}, {}
    for reduce in (True, False):
        sim, scene = _build(_solvers()["mjwarp-newton-contacts"], generator, gap=0.01, reduce_contacts=reduce)
        centres[reduce], surface = _drop_and_settle(sim, scene, steps=48)
        counts[reduce] = int(NewtonManager.get_contacts().rigid_contact_count.numpy()[0])
        np.testing.assert_allclose(_distance_to(surface, centres[reduce]) - RADIUS, 0.0, atol=0.01)
        SimulationContext.clear_instance()
    np.testing.assert_allclose(centres[False][planar], centres[True][planar], atol=1e-4)
    # Both settings collide; their counts at the last step hang on where the balls on bumps rolled to (chaotic), so
    # they are not compared.
    assert counts[False] > 0 and counts[True] > 0


def test_balls_land_and_roll_alike_colliding_once_per_physics_step():
    """Colliding on the first of 2 substeps (the velocity tasks' setting): balls falling at 2.4 m/s land, roll alike."""
    # Contacts found within the summed 2 cm gap are reused by the second substep, their distances recomputed from the
    # bodies' poses, so a ball approaching at under 4 m/s is never missed. Paths are compared on treads and slopes:
    # they agree within 1 mm; with no gap (contacts found a substep late) they part by 7 mm.
    from isaaclab.sim import SimulationContext

    generator = _rough_terrain(heightfield_only=False)
    planar = [i for i, name in enumerate(generator.sub_terrains) if name.startswith(("pyramid_stairs", "hf_pyramid"))]
    centres = {}
    for every in (1, 2):
        solver = _solvers()["mjwarp-newton-contacts"]
        sim, scene = _build(solver, generator, gap=0.01, num_substeps=2, collision_decimation=every)
        centres[every], surface = _drop_and_settle(sim, scene, steps=96, lift=0.3)
        np.testing.assert_allclose(_distance_to(surface, centres[every]) - RADIUS, 0.0, atol=0.01)
        SimulationContext.clear_instance()
    np.testing.assert_allclose(centres[2][planar], centres[1][planar], atol=3e-3)


def test_mesh_terrain_under_mujoco_contacts_raises():
    """An untagged mesh terrain under MuJoCo's own contacts (convex hulls) is refused with the fixes named."""
    from isaaclab.sim import SimulationContext

    with pytest.raises(ValueError, match="use_mujoco_contacts=False"):
        _build(_solvers()["mjwarp-mujoco-contacts"], _rough_terrain(heightfield_only=False))
    SimulationContext.clear_instance()


def _core_height_field_mesh(slope_threshold: float | None):
    """Core's mesh of a 1 m x 1 m height field (10 cm cells) with a 30 cm ledge along x = 0.5 m, as a Warp mesh."""
    import warp as wp
    from isaaclab.terrains.height_field.utils import convert_height_field_to_mesh

    heights = np.zeros((11, 11), dtype=np.int16)
    heights[6:, :] = 60  # 60 x 5 mm
    points, faces = convert_height_field_to_mesh(heights, 0.1, 0.005, slope_threshold)
    mesh = wp.Mesh(points=wp.array(points, dtype=wp.vec3), indices=wp.array(faces.ravel().astype(np.int32)))
    return mesh, points


def test_vertical_steps_finds_the_walls_core_makes_with_slope_threshold():
    """A ledge steeper than slope_threshold becomes a 0.3 m wall on one grid line; without the threshold, none."""
    from isaaclab_newton.cloner.terrain_source import vertical_steps

    mesh, points = _core_height_field_mesh(0.75)
    count, largest = vertical_steps(mesh, points, 0.1)
    assert 8 <= count <= 11  # one grid line of 11 points across the terrain (rays beside its ends may miss)
    assert largest == pytest.approx(0.3, abs=1e-4)
    mesh, points = _core_height_field_mesh(None)
    assert vertical_steps(mesh, points, 0.1)[0] == 0
