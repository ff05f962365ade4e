"""NewtonWarpRenderer: core's Camera rendered by Newton's ray tracer, checked against the pinhole model."""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import TEST_DEVICE, rigid_box_cfg, step_scene

W = H = 96
FOCAL, APERTURE = 24.0, 20.955
FX = W * FOCAL / APERTURE  # [px]
CUBE = 0.6  # edge [m]
CAM_X = -6.0  # fixed camera, env frame [m]
WALL_X, WALL_T = 4.0, 0.1  # wall centre and thickness [m]
MOUNT = 0.35  # body-mounted camera ahead of the cube centre [m]
RED = (1.0, 0.0, 0.0)  # the cube's authored diffuse colour
NEAR_FAR = 8.0  # far clipping distance of a camera that sees the cube but not the wall [m]


@pytest.fixture(scope="module")
def camera_scene(scene_factory):
    """Two envs 2 m apart: a 0.6 m cube at (0, 0, 1), a wall at x = 4 m, a fixed camera and one on the cube."""
    import isaaclab.sim as sim_utils
    from isaaclab.scene import InteractiveSceneCfg
    from isaaclab.sensors import CameraCfg
    from isaaclab.utils import configclass

    from isaaclab_newton.renderers import NewtonWarpRendererCfg

    def camera(prim_path, pos, *, far=1e6, clipping="none", **kw):
        return CameraCfg(
            prim_path=prim_path,
            offset=CameraCfg.OffsetCfg(pos=pos, rot=(0.0, 0.0, 0.0, 1.0), convention="world"),
            spawn=sim_utils.PinholeCameraCfg(
                focal_length=FOCAL, horizontal_aperture=APERTURE, clipping_range=(0.01, far)
            ),
            width=W,
            height=H,
            renderer_cfg=NewtonWarpRendererCfg(enable_shadows=False, depth_clipping_behavior=clipping),
            **kw,
        )

    @configclass
    class SceneCfg(InteractiveSceneCfg):
        cube = rigid_box_cfg(
            "Cube", size=(CUBE, CUBE, CUBE), pos=(0.0, 0.0, 1.0), color=RED, semantic_tags=[("class", "cube")]
        )
        wall = rigid_box_cfg("Wall", size=(WALL_T, 40.0, 40.0), pos=(WALL_X, 0.0, 1.0))
        cam = camera(
            "{ENV_REGEX_NS}/Cam",
            (CAM_X, 0.0, 1.0),
            data_types=[
                "rgb",
                "depth",
                "distance_to_camera",
                "normals",
                "instance_segmentation",
                "semantic_segmentation",
            ],
        )
        mounted = camera(
            "{ENV_REGEX_NS}/Cube/Cam", (MOUNT, 0.0, 0.0), data_types=["depth"], update_latest_camera_pose=True
        )
        mounted_lazy = camera("{ENV_REGEX_NS}/Cube/LazyCam", (MOUNT, 0.0, 0.0), data_types=["depth"])
        near = camera("{ENV_REGEX_NS}/NearCam", (CAM_X, 0.0, 1.0), far=NEAR_FAR, clipping="max", data_types=["depth"])

    sim, scene = scene_factory(SceneCfg(num_envs=2, env_spacing=2.0), dt=1 / 120, gravity=(0.0, 0.0, 0.0))
    step_scene(sim, scene, 1)
    return sim, scene


def _shape_of(scene, name: str, env: int) -> int:
    """The Newton shape index of asset ``name``'s body in env ``env``."""
    from isaaclab_newton.physics import NewtonManager

    body = int(NewtonManager.get_scene_index().find(scene[name].cfg.prim_path).indices("body")[env, 0])
    shapes = np.flatnonzero(NewtonManager.get_model().shape_body.numpy() == body)
    assert shapes.size == 1
    return int(shapes[0])


def test_outputs_have_core_shapes_and_dtypes(camera_scene):
    """Each data type arrives as core's (N, H, W, C) tensor with the renderer's dtype."""
    import torch

    _, scene = camera_scene
    out = scene["cam"].data.output
    expected = {
        "rgb": (3, torch.uint8),
        "depth": (1, torch.float32),
        "distance_to_camera": (1, torch.float32),
        "normals": (3, torch.float32),
        "instance_segmentation": (1, torch.int32),
        "semantic_segmentation": (4, torch.uint8),
    }
    for name, (channels, dtype) in expected.items():
        assert tuple(out[name].torch.shape) == (2, H, W, channels), name
        assert out[name].torch.dtype == dtype, name


def test_cube_covers_the_pixels_the_pinhole_model_predicts(camera_scene):
    """The cube's front face spans the pixel range f * (size / 2) / distance around the centre, within a pixel."""
    _, scene = camera_scene
    ids = scene["cam"].data.output["instance_segmentation"].torch[0, ..., 0].cpu().numpy()
    rows, cols = np.nonzero(ids == _shape_of(scene, "cube", 0))
    half = FX * (CUBE / 2) / (0.0 - CUBE / 2 - CAM_X)  # [px]
    lo, hi = W / 2 - half, W / 2 + half
    # pixel u is covered when its centre u + 0.5 lies inside [lo, hi]
    for covered in (cols, rows):
        assert abs(covered.min() - (math.ceil(lo - 0.5))) <= 1
        assert abs(covered.max() - (math.floor(hi - 0.5))) <= 1


def test_cube_authored_red_renders_red(camera_scene):
    """The cube's UsdPreviewSurface diffuse colour (red) reaches Newton's shape colour: its pixels are red."""
    _, scene = camera_scene
    out = scene["cam"].data.output
    ids = out["instance_segmentation"].torch[0, ..., 0].cpu().numpy()
    rgb = out["rgb"].torch[0].cpu().numpy().astype(np.int32)[ids == _shape_of(scene, "cube", 0)]
    assert rgb.shape[0] > 0
    red, green, blue = rgb[:, 0], rgb[:, 1], rgb[:, 2]
    assert np.all(red > 40) and np.all(red > 4 * np.maximum(green, blue) + 10)


def test_semantic_segmentation_colours_the_labelled_cube_in_every_env(camera_scene):
    """The cube's class label colours its pixels in both envs (env 1 a clone); the unlabelled wall reads UNLABELLED."""
    _, scene = camera_scene
    out, info = scene["cam"].data.output, scene["cam"].data.info["semantic_segmentation"]["idToLabels"]
    for env in range(2):
        ids = out["instance_segmentation"].torch[env, ..., 0].cpu().numpy()
        colors = out["semantic_segmentation"].torch[env].cpu().numpy()
        on_cube = {tuple(int(c) for c in px) for px in colors[ids == _shape_of(scene, "cube", env)]}
        on_wall = {tuple(int(c) for c in px) for px in colors[ids == _shape_of(scene, "wall", env)]}
        assert len(on_cube) == 1 and info[on_cube.pop()] == {"class": "cube"}
        assert on_wall == {(0, 0, 0, 255)} and info[(0, 0, 0, 255)] == {"class": "UNLABELLED"}


def test_depth_of_the_wall_reads_its_distance(camera_scene):
    """Depth (distance to the image plane) of the wall reads its distance everywhere outside the cube."""
    _, scene = camera_scene
    out = scene["cam"].data.output
    wall = out["instance_segmentation"].torch[..., 0].cpu().numpy() == _shape_of(scene, "wall", 0)
    depth = out["depth"].torch[0, ..., 0].cpu().numpy()
    assert wall[0].mean() > 0.8
    np.testing.assert_allclose(depth[wall[0]], WALL_X - WALL_T / 2 - CAM_X, atol=1e-3)


def test_depth_beyond_the_far_clipping_distance_reads_it_with_max_clipping(camera_scene):
    """With clipping_range far 8 m and depth_clipping_behavior='max', the wall (9.95 m) reads 8 m, the cube 5.7 m."""
    _, scene = camera_scene
    ids = scene["cam"].data.output["instance_segmentation"].torch[..., 0].cpu().numpy()
    depth = scene["near"].data.output["depth"].torch[..., 0].cpu().numpy()
    for env in range(2):
        wall, cube = ids[env] == _shape_of(scene, "wall", env), ids[env] == _shape_of(scene, "cube", env)
        assert wall.mean() > 0.8 and cube.sum() > 100
        np.testing.assert_array_equal(depth[env][wall], NEAR_FAR)
        np.testing.assert_allclose(depth[env][cube], -CUBE / 2 - CAM_X, atol=1e-3)


def test_distance_to_camera_grows_off_axis(camera_scene):
    """Distance to the camera of the wall is its depth over the cosine of the ray's angle to the optical axis."""
    _, scene = camera_scene
    out = scene["cam"].data.output
    depth = out["depth"].torch[0, 0, 0, 0].item()
    dist = out["distance_to_camera"].torch[0, 0, 0, 0].item()
    u, v = 0.5 - W / 2, 0.5 - H / 2
    np.testing.assert_allclose(dist, depth * math.sqrt(1 + (u * u + v * v) / FX**2), rtol=1e-3)


def test_segmentation_ids_are_the_shapes_and_minus_one_for_misses(camera_scene):
    """Tile 0 holds exactly the cube's and the wall's shape indices; a ray into the sky reads -1."""
    _, scene = camera_scene
    ids = scene["cam"].data.output["instance_segmentation"].torch[0, ..., 0].cpu().numpy()
    assert set(np.unique(ids).tolist()) == {_shape_of(scene, "cube", 0), _shape_of(scene, "wall", 0)}
    mounted = scene["mounted"]
    assert mounted.data.output["depth"].torch.shape == (2, H, W, 1)


def test_env_tile_shows_only_its_own_env(camera_scene):
    """Env 1's cube is in env 0's field of view, yet tile 0 shows only env 0's shapes (and vice versa)."""
    _, scene = camera_scene
    ids = scene["cam"].data.output["instance_segmentation"].torch[..., 0].cpu().numpy()
    for env in (0, 1):
        own = {_shape_of(scene, "cube", env), _shape_of(scene, "wall", env)}
        assert set(np.unique(ids[env]).tolist()) == own


def test_normals_of_the_wall_face_the_camera(camera_scene):
    """World normals of the wall's front face point at the camera (-x)."""
    _, scene = camera_scene
    normals = scene["cam"].data.output["normals"].torch[0, 0, 0].cpu().numpy()
    np.testing.assert_allclose(normals, [-1.0, 0.0, 0.0], atol=1e-4)


def test_body_mounted_camera_moves_with_its_body(camera_scene):
    """Moving env 0's cube 1 m toward the wall moves its camera with it: the wall reads 1 m closer."""
    import torch

    sim, scene = camera_scene
    cube, mounted = scene["cube"], scene["mounted"]
    before = mounted.data.output["depth"].torch[0, H // 2, W // 2, 0].item()
    np.testing.assert_allclose(before, WALL_X - WALL_T / 2 - MOUNT, atol=1e-3)
    pose = cube.data.root_pose_w.torch.clone()
    pose[0, 0] += 1.0
    cube.write_root_pose_to_sim_index(root_pose=pose[:1], env_ids=torch.tensor([0], device=TEST_DEVICE))
    step_scene(sim, scene, 1)
    after = mounted.data.output["depth"].torch[:, H // 2, W // 2, 0].cpu().numpy()
    np.testing.assert_allclose(after, [before - 1.0, before], atol=1e-3)
    pos = mounted.data.pos_w.torch.cpu().numpy()
    np.testing.assert_allclose(pos[0], cube.data.root_pos_w.torch[0].cpu().numpy() + [MOUNT, 0.0, 0.0], atol=1e-4)


def test_mounted_camera_follows_its_body_across_another_envs_reset(camera_scene):
    """A mounted camera with stale pose buffers (update_latest_camera_pose=False) keeps its mount when env 1 resets."""
    import torch

    sim, scene = camera_scene
    cube, lazy = scene["cube"], scene["mounted_lazy"]
    before = lazy.data.output["depth"].torch[0, H // 2, W // 2, 0].item()
    pose = cube.data.root_pose_w.torch.clone()
    pose[0, 0] -= 0.5
    cube.write_root_pose_to_sim_index(root_pose=pose[:1], env_ids=torch.tensor([0], device=TEST_DEVICE))
    step_scene(sim, scene, 1)
    lazy.reset(env_ids=[1])
    step_scene(sim, scene, 1)
    depth = lazy.data.output["depth"].torch[0, H // 2, W // 2, 0].item()
    np.testing.assert_allclose(depth, before + 0.5, atol=1e-3)


def test_fisheye_camera_is_rejected_by_name(make_sim):
    """A camera spawned as a fisheye fails at initialization, naming the spawner and the fix."""
    import isaaclab.sim as sim_utils
    from isaaclab.sensors import CameraCfg

    from isaaclab_newton.renderers.newton_warp_renderer import _check_options

    cfg = CameraCfg(prim_path="/World/Cam", spawn=sim_utils.FisheyeCameraCfg(), width=8, height=8)
    with pytest.raises(ValueError, match="FisheyeCameraCfg.*PinholeCameraCfg"):
        _check_options(cfg)
