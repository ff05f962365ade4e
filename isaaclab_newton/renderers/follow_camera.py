"""A camera that follows chosen environments (for videos): Newton's ray tracer, one tile per environment.

The scene is lit for people to watch: a key light casting shadows, a hemispheric ambient term, a light sky behind
everything and a light checkerboard on the ground, with the model's own shape colours on the robots. Each tile frames
its world's robot (the bodies not welded to the world) at a fixed share of the tile height.
"""

from __future__ import annotations

import math

import newton
import numpy as np
import warp as wp
from newton.sensors import SensorCamera

SKY_COLOR = (0.72, 0.83, 0.95)
"""sRGB colour of the background (rays that hit nothing)."""

GROUND_COLOR = (1.0, 1.0, 1.0)
"""sRGB colour of ground planes while rendering (times the grey checkerboard texture)."""

AMBIENT_SKY = (0.55, 0.58, 0.65)
"""Linear ambient radiance on surfaces facing up."""

AMBIENT_GROUND = (0.28, 0.26, 0.24)
"""Linear ambient radiance on surfaces facing down."""

KEY_LIGHT_COLOR = (1.1, 1.05, 0.98)
"""Linear radiance of the directional key light."""


@wp.kernel
def _chase_transforms(
    body_q: wp.array(dtype=wp.transformf),
    bodies: wp.array(dtype=wp.int32),
    targets: wp.array(dtype=wp.vec3f),
    eyes: wp.array(dtype=wp.vec3f),
    out: wp.array(dtype=wp.transformf),
):
    """Camera at ``body + target + eye`` looking at ``body + target``, +Z up (Newton's camera looks along -Z)."""
    i = wp.tid()
    target = wp.transform_get_translation(body_q[bodies[i]]) + targets[i]
    eye = target + eyes[i]
    back = wp.normalize(eye - target)  # camera +Z
    right = wp.normalize(wp.cross(wp.vec3f(0.0, 0.0, 1.0), back))  # camera +X
    up = wp.cross(back, right)  # camera +Y
    rot = wp.quat_from_matrix(wp.matrix_from_cols(right, up, back))
    out[i] = wp.transformf(eye, rot)


def welded_bodies(model: newton.Model) -> np.ndarray:
    """Bool per body: the body hangs from the world by a fixed joint (a table, a wall, a fixed-base robot's root)."""
    welded = np.zeros(model.body_count, dtype=bool)
    fixed = (model.joint_type.numpy() == int(newton.JointType.FIXED)) & (model.joint_parent.numpy() == -1)
    welded[model.joint_child.numpy()[fixed]] = True
    return welded


def robot_sphere(model: newton.Model, world: int) -> tuple[int, np.ndarray, float]:
    """The followed body of ``world`` and the bounding sphere of its robot in ``model.body_q``.

    The robot is the world's bodies that are not welded to the world (:func:`welded_bodies`), with their shapes
    (sites left out); the followed body is the first of them.

    Returns:
        The followed body's index, the sphere's centre relative to that body's position [m] (world axes) and its
        radius [m].

    Raises:
        ValueError: If the world has no body that is not welded to the world.
    """
    starts = model.body_world_start.numpy()
    bodies = np.arange(starts[world], starts[world + 1])
    bodies = bodies[~welded_bodies(model)[bodies]]
    if bodies.size == 0:
        raise ValueError(f"FollowCamera: world {world} has no body that is not welded to the world to follow.")
    body_q = model.body_q.numpy()
    shape_body = model.shape_body.numpy()
    shapes = np.isin(shape_body, bodies) & ((model.shape_flags.numpy() & int(newton.ShapeFlags.SITE)) == 0)
    points, reach = [body_q[bodies, :3]], [np.zeros(bodies.size)]
    shape_q, scales = model.shape_transform.numpy(), model.shape_scale.numpy()
    radii = model.shape_collision_radius.numpy()
    for s in np.flatnonzero(shapes):
        parent = body_q[shape_body[s]]
        source = model.shape_source[s]
        if isinstance(source, newton.Mesh):  # the vertices bound a mesh more tightly than its radius
            local = _rotate(shape_q[s, 3:], np.asarray(source.vertices) * scales[s]) + shape_q[s, :3]
            points.append(parent[:3] + _rotate(parent[3:], local))
            reach.append(np.zeros(len(local)))
        else:
            points.append((parent[:3] + _rotate(parent[3:], shape_q[s, :3]))[None])
            reach.append(radii[s : s + 1])
    points, reach = np.concatenate(points), np.concatenate(reach)
    centre = 0.5 * ((points - reach[:, None]).min(axis=0) + (points + reach[:, None]).max(axis=0))
    radius = float(np.max(np.linalg.norm(points - centre, axis=1) + reach))
    return int(bodies[0]), centre - body_q[bodies[0], :3], max(radius, 1.0e-3)


class FollowCamera:
    """Render the chosen worlds from a lit chase view that follows each world's robot, tiled into one image.

    Ground planes show a light 0.5 m checkerboard, so that a body moving over the ground visibly moves in its tile.
    Without ``distance``, each camera stands as far from its robot's bounding sphere (:func:`robot_sphere`) as
    makes the sphere ``fill`` of the tile height.

    Args:
        model: The Newton model.
        worlds: World indices to show, one tile each (row-major in a near-square grid).
        width: Tile width [px].
        height: Tile height [px].
        distance: Distance of the camera from the robot's bounding-sphere centre [m]; ``None`` frames the robot.
        fill: Share of the tile height the robot's bounding sphere spans when ``distance`` is ``None``.
        azimuth: Horizontal angle of the camera around the robot, from +x [rad].
        elevation: Angle of the camera above the horizontal [rad].
        fov: Vertical field of view [rad].
        samples: Rays per pixel, averaged (supersampling: edges and the far checkerboard without aliasing).

    Raises:
        ValueError: If a world index is out of range or a world has no body to follow.
    """

    def __init__(
        self,
        model: newton.Model,
        worlds: list[int],
        *,
        width: int = 320,
        height: int = 240,
        distance: float | None = None,
        fill: float = 0.6,
        azimuth: float = -0.75 * math.pi,
        elevation: float = math.radians(20.0),
        fov: float = math.radians(45.0),
        samples: int = 4,
    ):
        starts = model.body_world_start.numpy()
        bad = [w for w in worlds if not 0 <= w < model.world_count or starts[w + 1] == starts[w]]
        if bad:
            raise ValueError(
                f"FollowCamera: worlds {bad} do not exist or have no body (model has {model.world_count})."
            )
        if not 0.0 < fill < 1.0:
            raise ValueError(f"FollowCamera: fill is a share of the tile height in (0, 1), got {fill}.")
        device = model.device
        self.worlds = list(worlds)
        self.width, self.height = width, height
        self.columns = math.ceil(math.sqrt(len(worlds)))
        self.rows = math.ceil(len(worlds) / self.columns)
        self._model = model
        spheres = [robot_sphere(model, w) for w in self.worlds]
        view = np.array(
            [math.cos(elevation) * math.cos(azimuth), math.cos(elevation) * math.sin(azimuth), math.sin(elevation)]
        )
        # a sphere of radius r seen from d spans 2 tan(asin(r / d)) of the image plane, whose height is 2 tan(fov / 2)
        half_angle = math.atan(fill * math.tan(0.5 * fov))
        eyes = [view * (distance if distance is not None else r / math.sin(half_angle)) for _, _, r in spheres]
        self._bodies = wp.array(np.array([b for b, _, _ in spheres], dtype=np.int32), dtype=wp.int32, device=device)
        self._targets = wp.array(np.array([c for _, c, _ in spheres]), dtype=wp.vec3f, device=device)
        self._eyes = wp.array(np.array(eyes), dtype=wp.vec3f, device=device)
        self._world_ids = wp.array(np.asarray(self.worlds, dtype=np.int32), dtype=wp.int32, device=device)
        clear = SensorCamera.ClearData(clear_color=_pack_rgba(SKY_COLOR))
        self._sensor = SensorCamera(model, default_clear_data=clear)
        self._sensor.create_default_light(enable_shadows=True, direction=_key_light(azimuth), color=KEY_LIGHT_COLOR)
        self._sensor.set_ambient_light(AMBIENT_SKY, AMBIENT_GROUND)
        planes = np.flatnonzero(model.shape_type.numpy() == int(newton.GeoType.PLANE))
        colors = model.shape_color.numpy()
        if planes.size:
            # the plane texture spans 1 m: 0.5 m squares, so motion over the ground shows in a chase view
            self._sensor.assign_checkerboard_material(shape_indices=planes, resolution=64, checker_size=32)
            colors[planes] = GROUND_COLOR
        self._colors = wp.array(colors, dtype=wp.vec3, device=device)
        self._config = SensorCamera.RenderConfig(
            enable_shadows=True,
            enable_ambient_lighting=True,
            enable_textures=bool(planes.size),
            anti_aliasing=SensorCamera.AntiAliasing.SSAA if samples > 1 else SensorCamera.AntiAliasing.NONE,
        )
        self._rays = SensorCamera.compute_camera_rays_pinhole(
            width, height, camera_fov=fov, sample_count=samples, device=device
        )
        self._transforms = wp.zeros(len(worlds), dtype=wp.transformf, device=device)
        self._color = self._sensor.allocate_image_color(len(worlds), width, height)

    def render(self, state: newton.State, *, shape_index_image: wp.array | None = None) -> wp.array:
        """Render the tiles of ``state`` on the device: packed RGBA, shape (len(worlds), height, width).

        Args:
            state: The state to render.
            shape_index_image: Optional output (len(worlds), height, width) of uint32: the index of the shape each
                pixel shows (``0xFFFFFFFF`` for the sky).
        """
        wp.launch(
            _chase_transforms,
            dim=len(self.worlds),
            inputs=[state.body_q, self._bodies, self._targets, self._eyes],
            outputs=[self._transforms],
            device=self._model.device,
        )
        self._model.bvh_refit_shapes(state)
        model_colors = self._model.shape_color
        self._model.shape_color = self._colors  # light ground planes in this render only
        try:
            self._sensor.update(
                state,
                self._transforms,
                self._rays,
                color_image=self._color,
                shape_index_image=shape_index_image,
                world_indices=self._world_ids,
                render_config=self._config,
            )
        finally:
            self._model.shape_color = model_colors
        return self._color

    def frame(self, state: newton.State) -> np.ndarray:
        """Render ``state`` and return the tiled RGB frame, shape (rows * height, columns * width, 3), uint8."""
        tiles = self.render(state).numpy().view(np.uint8).reshape(len(self.worlds), self.height, self.width, 4)
        grid = np.zeros((self.rows * self.height, self.columns * self.width, 3), dtype=np.uint8)
        for k in range(len(self.worlds)):
            r, c = divmod(k, self.columns)
            grid[r * self.height : (r + 1) * self.height, c * self.width : (c + 1) * self.width] = tiles[k, ..., :3]
        return grid


def _rotate(quats: np.ndarray, vectors: np.ndarray) -> np.ndarray:
    """Rotate vectors (..., 3) by unit quaternions (..., 4) stored (x, y, z, w), broadcast against each other."""
    q, w = quats[..., :3], quats[..., 3:]
    t = 2.0 * np.cross(q, vectors)
    return vectors + w * t + np.cross(q, t)


def _key_light(azimuth: float) -> wp.vec3f:
    """Direction of the key light: down from above the camera's left shoulder, so that the seen faces are lit."""
    source = np.array([math.cos(azimuth + 0.6), math.sin(azimuth + 0.6), 1.4])
    return wp.vec3f(*(-source / np.linalg.norm(source)))


def _pack_rgba(color: tuple[float, float, float]) -> int:
    """Packed opaque RGBA (red in the low byte) of an sRGB colour in [0, 1]."""
    r, g, b = (int(round(255 * min(max(c, 0.0), 1.0))) for c in color)
    return (255 << 24) | (b << 16) | (g << 8) | r
