"""FollowCamera: lit chase-view tiles of chosen worlds (the frames of MP4 videos), framing each world's robot."""

from __future__ import annotations

import math

import newton
import numpy as np
import pytest
import warp as wp
from conftest import TEST_DEVICE

from isaaclab_contrib.tasks.velocity.unitree_assets import ensure_go1_mjcf
from isaaclab_newton.renderers.follow_camera import SKY_COLOR, FollowCamera, robot_sphere

GO1_STAND = {"hip": (0.1, -0.1), "thigh": (0.8, 1.0), "calf": (-1.5, -1.5)}
"""Standing joint angles [rad] of the Go1 velocity task: (left, right) hips, (front, rear) thighs and calves."""

SKY = 0xFFFFFFFF
"""Shape index of pixels that show no shape."""


@pytest.fixture(scope="module")
def two_world_model() -> newton.Model:
    """Two worlds, each one sphere of radius 0.2 m at rest on a shared ground plane."""
    world = newton.ModelBuilder()
    body = world.add_body(xform=wp.transform((0.0, 0.0, 0.2), wp.quat_identity()), mass=1.0)
    world.add_shape_sphere(body, radius=0.2)
    builder = newton.ModelBuilder()
    builder.replicate(world, 2)
    builder.add_ground_plane()
    return builder.finalize(device=TEST_DEVICE)


@pytest.fixture(scope="module")
def go1_model() -> newton.Model:
    """Two worlds, each a Unitree Go1 (mjlab's MJCF) in the velocity task's standing pose, feet on a ground plane."""
    go1 = newton.ModelBuilder()
    go1.add_mjcf(ensure_go1_mjcf())
    for joint, label in enumerate(go1.joint_label):
        name = label.rsplit("/", 1)[-1]  # e.g. FL_thigh_joint
        part = name.split("_")[1] if name.count("_") == 2 else None
        if part in GO1_STAND:
            first = name[1] == "L" if part == "hip" else name[0] == "F"
            go1.joint_q[go1.joint_q_start[joint]] = GO1_STAND[part][0 if first else 1]
    builder = newton.ModelBuilder()
    builder.replicate(go1, 2)
    builder.add_ground_plane()
    model = builder.finalize(device=TEST_DEVICE)
    newton.eval_fk(model, model.joint_q, model.joint_qd, model)
    body_q, shape_q = model.body_q.numpy(), model.shape_transform.numpy()
    feet = [s for s, label in enumerate(model.shape_label) if label.endswith("_foot_collision")]
    lowest = min(
        wp.transform_point(wp.transform(*body_q[b, :3], *body_q[b, 3:]), wp.vec3(*shape_q[s, :3]))[2]
        - model.shape_collision_radius.numpy()[s]
        for s, b in zip(feet, model.shape_body.numpy()[feet], strict=True)
    )
    joint_q = model.joint_q.numpy()
    free = model.joint_type.numpy() == int(newton.JointType.FREE)
    joint_q[model.joint_q_start.numpy()[:-1][free] + 2] -= lowest  # base heights
    model.joint_q.assign(joint_q)
    newton.eval_fk(model, model.joint_q, model.joint_qd, model)
    return model


def _robot_pixels(camera: FollowCamera, model: newton.Model, state: newton.State) -> tuple[np.ndarray, np.ndarray]:
    """The tiles (N, H, W, 3) and a mask of the pixels that show a body's shape (not the ground or the sky)."""
    shape_index = wp.zeros((len(camera.worlds), camera.height, camera.width), dtype=wp.uint32, device=TEST_DEVICE)
    tiles = camera.render(state, shape_index_image=shape_index).numpy().view(np.uint8)
    tiles = tiles.reshape(len(camera.worlds), camera.height, camera.width, 4)[..., :3]
    body_shapes = np.flatnonzero(model.shape_body.numpy() >= 0)
    return tiles, np.isin(shape_index.numpy(), body_shapes)


def test_standing_go1_video_is_bright_and_shows_the_robot(go1_model):
    """Two chase views of a standing Go1: mean brightness above 60/255, the robot on at least 3 % of the pixels."""
    camera = FollowCamera(go1_model, [0, 1], width=160, height=120)
    state = go1_model.state()
    frames = [camera.frame(state) for _ in range(2)]  # a clip of a robot standing still
    tiles, robot = _robot_pixels(camera, go1_model, state)
    assert all(frame.mean() > 60.0 for frame in frames)
    assert robot.mean() >= 0.03
    assert tiles[robot].mean() < tiles[~robot].mean()  # the dark robot stands out of the light scene


def test_robot_sphere_fills_the_chosen_share_of_the_tile(two_world_model):
    """The followed sphere (radius 0.2 m) spans 60 % of the tile height, framed from its bounding sphere."""
    body, centre, radius = robot_sphere(two_world_model, 1)
    assert (body, radius) == (1, pytest.approx(0.2))
    np.testing.assert_allclose(centre, 0.0, atol=1e-6)
    camera = FollowCamera(two_world_model, [0, 1], width=64, height=96, fill=0.6)
    _, robot = _robot_pixels(camera, two_world_model, two_world_model.state())
    rows = np.flatnonzero(robot[1].any(axis=1))
    assert (rows[-1] - rows[0] + 1) / 96 == pytest.approx(0.6, abs=0.05)


def test_bodies_welded_to_the_world_are_not_followed():
    """A table welded to the world is left out: the camera follows the free ball and frames the ball alone."""
    world = newton.ModelBuilder()
    table = world.add_link(xform=wp.transform((3.0, 0.0, 0.5), wp.quat_identity()), mass=10.0)
    world.add_shape_box(table, hx=1.0, hy=1.0, hz=0.5)
    world.add_joint_fixed(-1, table, parent_xform=wp.transform((3.0, 0.0, 0.5), wp.quat_identity()))
    ball = world.add_body(xform=wp.transform((0.0, 0.0, 0.1), wp.quat_identity()), mass=1.0)
    world.add_shape_sphere(ball, radius=0.1)
    builder = newton.ModelBuilder()
    builder.replicate(world, 1)
    model = builder.finalize(device=TEST_DEVICE)
    body, _, radius = robot_sphere(model, 0)
    assert (body, radius) == (ball, pytest.approx(0.1))


def test_sky_and_ground_are_light(two_world_model):
    """Rays that miss show the light sky colour; the ground's checkerboard is light grey (both above 150/255)."""
    camera = FollowCamera(two_world_model, [0], width=64, height=48, elevation=math.radians(5.0))
    shape_index = wp.zeros((1, 48, 64), dtype=wp.uint32, device=TEST_DEVICE)
    tile = camera.render(two_world_model.state(), shape_index_image=shape_index).numpy().view(np.uint8)
    tile = tile.reshape(48, 64, 4)[..., :3]
    index = shape_index.numpy()[0]
    sky_rows = (index == SKY).all(axis=1)  # rows of sky alone: no supersampled pixel on the horizon
    assert sky_rows.any()
    assert np.abs(tile[sky_rows] - 255.0 * np.asarray(SKY_COLOR)).max() <= 2  # the sRGB round trip of the colour
    ground = index == np.flatnonzero(two_world_model.shape_type.numpy() == int(newton.GeoType.PLANE))[0]
    assert tile[ground].mean() > 150.0


def _ground_tones(tile: np.ndarray) -> set[int]:
    """Distinct grey levels of the tile's lower rows (ground only, below the sphere)."""
    rows = tile[-20:].reshape(-1, 3).astype(int)
    grey = rows[(rows.max(axis=1) - rows.min(axis=1)) < 8]
    return {int(v) // 8 for v in grey[:, 0]}


def test_ground_shows_a_checkerboard(two_world_model):
    """The ground under a chase view shows at least two tones (the 0.5 m squares), not one flat colour."""
    camera = FollowCamera(two_world_model, [0, 1], width=64, height=48, distance=4.0)
    frame = camera.frame(two_world_model.state())
    assert frame.shape == (48, 2 * 64, 3)
    assert len(_ground_tones(frame[:, :64])) >= 2


def test_model_colours_are_restored_after_rendering(two_world_model):
    """The ground is drawn light during a render only: the model's shape colours are unchanged afterwards."""
    before = two_world_model.shape_color.numpy().copy()
    FollowCamera(two_world_model, [0], width=16, height=16).render(two_world_model.state())
    np.testing.assert_array_equal(two_world_model.shape_color.numpy(), before)


def test_world_without_bodies_is_refused(two_world_model):
    """A world index outside the model is refused, naming the model's world count."""
    with pytest.raises(ValueError, match=r"worlds \[5\] do not exist.*has 2"):
        FollowCamera(two_world_model, [0, 5])
