"""Core's ray casters on Newton: rays from a body frame hit the terrain and scene shapes where they really are."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch
from conftest import TEST_DEVICE

NUM_ENVS = 2
OFFSET = (0.2, 0.1, 0.5)  # [m] ray offset in the sensor frame
GRID = 0.25  # [m] pattern resolution over a 0.5 m x 0.5 m square
HALF = 0.1  # [m] half edge of the carrier cube
CAMERA_OFFSET = (0.0, 0.0, -0.15)  # [m] camera below the cube, in the body frame
LOOK_DOWN = (0.0, math.sqrt(0.5), 0.0, math.sqrt(0.5))  # (x, y, z, w): the camera's +x (its view axis) to -z


def _quat_xyzw(roll: float, pitch: float, yaw: float) -> np.ndarray:
    from scipy.spatial.transform import Rotation

    return Rotation.from_euler("xyz", [roll, pitch, yaw]).as_quat()


def _rotate(q: np.ndarray, v: np.ndarray) -> np.ndarray:
    from scipy.spatial.transform import Rotation

    return Rotation.from_quat(q).apply(v)


@pytest.fixture(scope="module")
def scan_scene():
    """Per env a cube carrying the sensors and a target cube, floating (no gravity) over a sloped-pyramid terrain."""
    import isaaclab.sim as sim_utils
    import isaaclab.terrains as terrain_gen
    from isaaclab.assets import RigidObjectCfg
    from isaaclab.scene import InteractiveScene, InteractiveSceneCfg
    from isaaclab.sensors import (
        MultiMeshRayCasterCameraCfg,
        MultiMeshRayCasterCfg,
        RayCasterCameraCfg,
        RayCasterCfg,
        patterns,
    )
    from isaaclab.sim import SimulationCfg, SimulationContext
    from isaaclab.terrains import TerrainGeneratorCfg, TerrainImporterCfg
    from isaaclab.utils import configclass

    from isaaclab_newton.physics import MJWarpSolverCfg, NewtonCfg

    generator = TerrainGeneratorCfg(
        size=(3.0, 3.0),
        border_width=0.5,
        num_rows=1,
        num_cols=NUM_ENVS,
        horizontal_scale=0.1,
        vertical_scale=0.005,
        use_cache=False,
        sub_terrains={
            "slope": terrain_gen.HfPyramidSlopedTerrainCfg(proportion=1.0, slope_range=(0.3, 0.3), platform_width=0.6)
        },
    )
    grid = patterns.GridPatternCfg(resolution=GRID, size=(0.5, 0.5))

    def scanner(alignment: str, **kwargs) -> RayCasterCfg:
        return RayCasterCfg(
            prim_path="{ENV_REGEX_NS}/Body",
            offset=RayCasterCfg.OffsetCfg(pos=kwargs.pop("offset", OFFSET)),
            ray_alignment=alignment,
            pattern_cfg=kwargs.pop("pattern_cfg", grid),
            mesh_prim_paths=["/World/ground"],
            global_world_only=kwargs.pop("global_world_only", True),
            **kwargs,
        )

    def camera(**kwargs) -> RayCasterCameraCfg:
        return RayCasterCameraCfg(
            prim_path="{ENV_REGEX_NS}/Body",
            offset=kwargs.pop(
                "offset", RayCasterCameraCfg.OffsetCfg(pos=CAMERA_OFFSET, rot=LOOK_DOWN, convention="world")
            ),
            pattern_cfg=patterns.PinholeCameraPatternCfg(width=8, height=6),
            mesh_prim_paths=["/World/ground"],
            **kwargs,
        )

    def cube(name: str, pos: tuple[float, float, float]) -> RigidObjectCfg:
        return RigidObjectCfg(
            prim_path="{ENV_REGEX_NS}/" + name,
            spawn=sim_utils.CuboidCfg(
                size=(2 * HALF,) * 3,
                rigid_props=sim_utils.UsdPhysicsRigidBodyCfg(),
                mass_props=sim_utils.MassCfg(mass=1.0),
                collision_props=sim_utils.UsdPhysicsCollisionCfg(),
            ),
            init_state=RigidObjectCfg.InitialStateCfg(pos=pos),
        )

    targets = ["/World/ground", MultiMeshRayCasterCfg.RaycastTargetCfg(prim_expr="{ENV_REGEX_NS}/Target")]

    @configclass
    class SceneCfg(InteractiveSceneCfg):
        terrain = TerrainImporterCfg(prim_path="/World/ground", terrain_type="generator", terrain_generator=generator)
        body = cube("Body", (0.0, 0.0, 1.5))
        target = cube("Target", (1.0, 1.0, 3.0))
        yaw = scanner("yaw")
        base = scanner("base")
        world = scanner("world")
        short = scanner("yaw", max_distance=0.3)
        own = scanner(
            "world",
            global_world_only=False,
            offset=(0.0, 0.0, 0.5),
            pattern_cfg=patterns.GridPatternCfg(resolution=0.1, size=(0.1, 0.1)),
        )
        depth = camera(data_types=["distance_to_image_plane", "distance_to_camera"])
        top = camera(
            offset=RayCasterCameraCfg.OffsetCfg(pos=(0.0, 0.0, 0.5), rot=LOOK_DOWN, convention="world"),
            data_types=["distance_to_image_plane", "normals"],
        )
        multi = MultiMeshRayCasterCfg(
            prim_path="{ENV_REGEX_NS}/Body",
            offset=MultiMeshRayCasterCfg.OffsetCfg(pos=(0.0, 0.0, 0.5)),
            ray_alignment="world",
            pattern_cfg=patterns.GridPatternCfg(resolution=0.1, size=(0.6, 0.0)),
            mesh_prim_paths=targets,
            update_mesh_ids=True,
        )
        multi_camera = MultiMeshRayCasterCameraCfg(
            prim_path="{ENV_REGEX_NS}/Body",
            offset=MultiMeshRayCasterCameraCfg.OffsetCfg(pos=CAMERA_OFFSET, rot=LOOK_DOWN, convention="world"),
            pattern_cfg=patterns.PinholeCameraPatternCfg(width=8, height=6),
            mesh_prim_paths=targets,
            data_types=["distance_to_image_plane"],
        )
        clipped_depth = camera(data_types=["distance_to_image_plane"], max_distance=0.5, depth_clipping_behavior="max")

    SimulationContext.clear_instance()
    physics = NewtonCfg(solver_cfg=MJWarpSolverCfg(use_mujoco_contacts=False))
    sim = SimulationContext(SimulationCfg(dt=1 / 120, device=TEST_DEVICE, gravity=(0.0, 0.0, 0.0), physics=physics))
    scene = InteractiveScene(SceneCfg(num_envs=NUM_ENVS, env_spacing=3.0))
    sim.reset()
    yield sim, scene
    SimulationContext.clear_instance()


def _place(sim, scene, positions: np.ndarray, quats: np.ndarray, *, asset: str = "body") -> None:
    body = scene[asset]
    pose = torch.tensor(np.concatenate([positions, quats], axis=1), dtype=torch.float32, device=sim.device)
    body.write_root_pose_to_sim_index(root_pose=pose)
    body.write_root_velocity_to_sim_index(root_velocity=torch.zeros(NUM_ENVS, 6, device=sim.device))
    sim.step(render=False)
    scene.update(sim.get_physics_dt())


def _surface(sim) -> tuple[np.ndarray, np.ndarray]:
    """The generated terrain's triangles as authored on the stage (the reference the hits are checked against)."""
    from pxr import UsdGeom

    mesh = UsdGeom.Mesh(sim.stage.GetPrimAtPath("/World/ground/terrain/mesh"))
    points = np.asarray(mesh.GetPointsAttr().Get(), dtype=float)
    faces = np.asarray(mesh.GetFaceVertexIndicesAttr().Get()).reshape(-1, 3)
    return points, faces


def _distance_to(surface: tuple[np.ndarray, np.ndarray], points: np.ndarray) -> np.ndarray:
    """Vertical distance [m] of each point to the highest triangle above or below it (the terrain is 2.5-D)."""
    vertices, faces = surface
    tri = vertices[faces]  # (T, 3, 3)
    p = points.reshape(-1, 3)
    a, b, c = tri[:, 0, :2], tri[:, 1, :2], tri[:, 2, :2]
    v0, v1 = b - a, c - a
    den = v0[:, 0] * v1[:, 1] - v1[:, 0] * v0[:, 1]
    keep = np.abs(den) > 1e-12
    tri, a, v0, v1, den = tri[keep], a[keep], v0[keep], v1[keep], den[keep]
    d = p[:, None, :2] - a[None]
    u = (d[..., 0] * v1[None, :, 1] - v1[None, :, 0] * d[..., 1]) / den
    v = (v0[None, :, 0] * d[..., 1] - d[..., 0] * v0[None, :, 1]) / den
    inside = (u >= -1e-9) & (v >= -1e-9) & (u + v <= 1 + 1e-9)
    z = (
        tri[None, :, 0, 2]
        + u * (tri[None, :, 1, 2] - tri[None, :, 0, 2])
        + v * (tri[None, :, 2, 2] - tri[None, :, 0, 2])
    )
    top = np.where(inside, z, -np.inf).max(axis=1)
    assert np.isfinite(top).all(), "a point lies outside the terrain"
    return np.abs(p[:, 2] - top)


def _tilted_poses(scene) -> tuple[np.ndarray, np.ndarray]:
    origins = scene.env_origins.cpu().numpy()
    positions = origins + np.array([[0.3, -0.2, 1.0], [-0.4, 0.3, 1.2]])
    quats = np.stack([_quat_xyzw(0.1, 0.25, math.pi / 2), _quat_xyzw(-0.2, 0.1, -0.6)])
    return positions, quats


def _pattern() -> np.ndarray:
    xs = np.arange(-0.25, 0.25 + 1e-6, GRID)
    gx, gy = np.meshgrid(xs, xs, indexing="xy")
    return np.stack([gx.ravel(), gy.ravel(), np.zeros(gx.size)], axis=1)


def test_sensor_frame_is_the_body_pose(scan_scene):
    """pos_w / quat_w of the sensor are the carrier body's pose (the offset moves the rays only)."""
    sim, scene = scan_scene
    positions, quats = _tilted_poses(scene)
    _place(sim, scene, positions, quats)
    data = scene["yaw"].data
    np.testing.assert_allclose(data.pos_w.torch.cpu().numpy(), positions, atol=1e-4)
    sign = np.sign((data.quat_w.torch.cpu().numpy() * quats).sum(axis=1, keepdims=True))
    np.testing.assert_allclose(data.quat_w.torch.cpu().numpy() * sign, quats, atol=1e-4)


def test_yaw_aligned_hits_lie_on_the_terrain_under_the_rotated_footprint(scan_scene):
    """Yaw alignment: starts follow position and heading, rays point straight down, hits lie on the terrain."""
    sim, scene = scan_scene
    positions, quats = _tilted_poses(scene)
    _place(sim, scene, positions, quats)
    hits = scene["yaw"].data.ray_hits_w.torch.cpu().numpy()
    surface = _distance_to(_surface(sim), hits)
    assert surface.max() < 0.01
    for env in range(NUM_ENVS):
        yaw = math.atan2(*_rotate(quats[env], [1.0, 0.0, 0.0])[[1, 0]])
        heading = _quat_xyzw(0.0, 0.0, yaw)
        expected = positions[env] + _rotate(heading, _pattern() + np.array(OFFSET))
        np.testing.assert_allclose(hits[env, :, :2], expected[:, :2], atol=1e-4)
        assert (hits[env, :, 2] < positions[env, 2]).all()


def test_base_aligned_rays_tilt_with_the_body(scan_scene):
    """Base alignment: rays start at pose * (pattern + offset) along the body's -z; hits lie on the terrain."""
    sim, scene = scan_scene
    positions, quats = _tilted_poses(scene)
    _place(sim, scene, positions, quats)
    hits = scene["base"].data.ray_hits_w.torch.cpu().numpy()
    assert _distance_to(_surface(sim), hits).max() < 0.01
    for env in range(NUM_ENVS):
        starts = positions[env] + _rotate(quats[env], _pattern() + np.array(OFFSET))
        down = _rotate(quats[env], [0.0, 0.0, -1.0])
        along = hits[env] - starts
        np.testing.assert_allclose(np.cross(along, down), 0.0, atol=1e-4)
        assert (along @ down > 0.0).all()


def test_world_aligned_footprint_ignores_orientation(scan_scene):
    """World alignment: the footprint is the pattern plus offset around the body position, unrotated."""
    sim, scene = scan_scene
    positions, quats = _tilted_poses(scene)
    _place(sim, scene, positions, quats)
    hits = scene["world"].data.ray_hits_w.torch.cpu().numpy()
    assert _distance_to(_surface(sim), hits).max() < 0.01
    expected = positions[:, None, :2] + (_pattern() + np.array(OFFSET))[None, :, :2]
    np.testing.assert_allclose(hits[..., :2], expected, atol=1e-4)


def test_rays_beyond_max_distance_miss_with_inf(scan_scene):
    """Terrain farther than max_distance from the ray starts reads inf, as core defines misses."""
    sim, scene = scan_scene
    positions, quats = _tilted_poses(scene)
    _place(sim, scene, positions, quats)
    assert np.isinf(scene["short"].data.ray_hits_w.torch.cpu().numpy()).all()


def test_env_shapes_are_hit_unless_global_world_only(scan_scene):
    """Rays of a sensor with global_world_only=False hit its own cube's top face; shared-world rays pass it."""
    sim, scene = scan_scene
    origins = scene.env_origins.cpu().numpy()
    positions = origins + np.array([[0.0, 0.0, 1.0], [0.1, 0.0, 1.1]])
    quats = np.tile([0.0, 0.0, 0.0, 1.0], (NUM_ENVS, 1))
    _place(sim, scene, positions, quats)
    own = scene["own"].data.ray_hits_w.torch.cpu().numpy()
    np.testing.assert_allclose(np.abs(own[..., :2] - positions[:, None, :2]), 0.05, atol=1e-4)
    np.testing.assert_allclose(own[..., 2], np.broadcast_to(positions[:, None, 2] + HALF, own.shape[:2]), atol=1e-3)
    shared = scene["world"].data.ray_hits_w.torch.cpu().numpy()
    assert (shared[..., 2] < positions[:, None, 2] - HALF).all()


def test_scan_follows_a_moving_body(scan_scene):
    """After the body is moved, the next update's frame and hits move with it."""
    sim, scene = scan_scene
    positions, quats = _tilted_poses(scene)
    _place(sim, scene, positions, quats)
    before = scene["world"].data.ray_hits_w.torch.cpu().numpy().copy()
    shift = np.array([0.5, -0.3, 0.2])
    _place(sim, scene, positions + shift, quats)
    data = scene["world"].data
    np.testing.assert_allclose(data.pos_w.torch.cpu().numpy(), positions + shift, atol=1e-4)
    after = data.ray_hits_w.torch.cpu().numpy()
    np.testing.assert_allclose(
        after[..., :2] - before[..., :2], np.broadcast_to(shift[:2], after[..., :2].shape), atol=1e-4
    )
    assert _distance_to(_surface(sim), after).max() < 0.01


def _look_down_from_high(sim, scene) -> np.ndarray:
    """Place both cubes upright 2 m over their env origins (the pyramid tops); return the cameras' positions."""
    positions = scene.env_origins.cpu().numpy() + np.array([0.0, 0.0, 2.0])
    _place(sim, scene, positions, np.tile([0.0, 0.0, 0.0, 1.0], (NUM_ENVS, 1)))
    return positions + np.array(CAMERA_OFFSET)


def test_camera_depth_is_the_height_over_the_terrain_each_pixel_sees(scan_scene):
    """Down-looking camera: pixels hit the terrain, depth = camera height over the hit, range = distance to it."""
    sim, scene = scan_scene
    cameras = _look_down_from_high(sim, scene)
    camera = scene["depth"]
    data = camera.data
    hits = camera.ray_hits_w.torch.cpu().numpy()
    assert _distance_to(_surface(sim), hits).max() < 0.01
    np.testing.assert_allclose(data.pos_w.torch.cpu().numpy(), cameras, atol=1e-4)
    to_plane = data.output["distance_to_image_plane"].torch.cpu().numpy()[..., 0].reshape(NUM_ENVS, -1)
    to_camera = data.output["distance_to_camera"].torch.cpu().numpy()[..., 0].reshape(NUM_ENVS, -1)
    np.testing.assert_allclose(to_plane, cameras[:, None, 2] - hits[..., 2], atol=1e-4)
    np.testing.assert_allclose(to_camera, np.linalg.norm(hits - cameras[:, None, :], axis=-1), atol=1e-4)
    assert (to_camera > to_plane + 1e-3).sum() > 0.5 * to_plane.size  # off-axis pixels see farther than deep


def test_camera_normals_are_the_face_normals_of_the_tilted_cube_below_it(scan_scene):
    """A camera 0.5 m over a tilted cube's centre sees its top face 0.4 m deep with normal R z; the rest is terrain."""
    sim, scene = scan_scene
    positions, quats = _tilted_poses(scene)
    _place(sim, scene, positions, quats)
    data = scene["top"].data
    depth = data.output["distance_to_image_plane"].torch.cpu().numpy()[..., 0].reshape(NUM_ENVS, -1)
    normals = data.output["normals"].torch.cpu().numpy().reshape(NUM_ENVS, -1, 3)
    np.testing.assert_allclose(np.linalg.norm(normals, axis=-1), 1.0, atol=1e-4)
    on_face = np.abs(depth - (0.5 - HALF)) < 1e-3
    assert on_face.sum(axis=1).min() >= 4 and (~on_face).sum(axis=1).min() >= 4
    for env in range(NUM_ENVS):
        face_normal = _rotate(quats[env], [0.0, 0.0, 1.0])
        np.testing.assert_allclose(normals[env][on_face[env]], np.tile(face_normal, (on_face[env].sum(), 1)), atol=1e-4)
        assert (normals[env][~on_face[env]][:, 2] > 0.9).all()  # terrain slopes of 0.3 face up


def test_camera_depth_beyond_max_distance_reads_max_when_clipped(scan_scene):
    """With depth_clipping_behavior='max', terrain 1.5 m below a camera of max_distance 0.5 m reads 0.5 m."""
    sim, scene = scan_scene
    _look_down_from_high(sim, scene)
    depth = scene["clipped_depth"].data.output["distance_to_image_plane"].torch.cpu().numpy()
    np.testing.assert_array_equal(depth, np.full_like(depth, 0.5))


def _target_beside_the_body(sim, scene, target_x: float) -> np.ndarray:
    """Body upright 1.5 m over each env origin, the target cube 0.9 m over origin + (target_x, 0); body positions."""
    origins = scene.env_origins.cpu().numpy()
    upright = np.tile([0.0, 0.0, 0.0, 1.0], (NUM_ENVS, 1))
    _place(sim, scene, origins + np.array([target_x, 0.0, 0.9]), upright, asset="target")
    positions = origins + np.array([0.0, 0.0, 1.5])
    _place(sim, scene, positions, upright)
    return positions


@pytest.mark.parametrize("target_x", [0.25, -0.25])
def test_multi_mesh_rays_hit_only_their_targets_where_they_are_now(scan_scene, target_x):
    """Multi-mesh rays pass the carrier cube (no target), hit the tracked target cube's top or else the terrain."""
    sim, scene = scan_scene
    positions = _target_beside_the_body(sim, scene, target_x)
    data = scene["multi"].data
    hits = data.ray_hits_w.torch.cpu().numpy()
    xs = hits[..., 0] - positions[:, None, 0]
    over_target = np.abs(xs - target_x) < HALF
    assert over_target.sum(axis=1).tolist() == [2] * NUM_ENVS
    target_top = np.broadcast_to(positions[:, None, 2] - 1.5 + 0.9 + HALF, over_target.shape)
    np.testing.assert_allclose(hits[over_target][:, 2], target_top[over_target], atol=1e-3)
    assert _distance_to(_surface(sim), hits[~over_target]).max() < 0.01
    np.testing.assert_array_equal(data.ray_mesh_ids.torch.cpu().numpy(), over_target.astype(np.int16))


def test_multi_mesh_camera_sees_the_target_under_it(scan_scene):
    """The multi-mesh camera under the carrier cube sees the target cube's top 0.45 m down at its image centre."""
    sim, scene = scan_scene
    _target_beside_the_body(sim, scene, 0.0)
    depth = scene["multi_camera"].data.output["distance_to_image_plane"].torch.cpu().numpy()[..., 0]
    expected = CAMERA_OFFSET[2] + 1.5 - (0.9 + HALF)  # camera height over the target's top face
    np.testing.assert_allclose(depth[:, 2:4, 3:5], expected, atol=1e-3)
