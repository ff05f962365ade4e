"""A camera that follows chosen environments (for videos): Newton's ray tracer, one tile per environment."""

from __future__ import annotations

import math

import newton
import numpy as np
import warp as wp
from newton.sensors import SensorCamera


@wp.kernel
def _chase_transforms(
    body_q: wp.array(dtype=wp.transformf),
    bodies: wp.array(dtype=wp.int32),
    offset: wp.vec3f,
    out: wp.array(dtype=wp.transformf),
):
    """Camera at ``body + offset`` looking at the body, +Z up (Newton's camera looks along its -Z axis)."""
    i = wp.tid()
    target = wp.transform_get_translation(body_q[bodies[i]])
    eye = target + offset
    back = wp.normalize(eye - target)  # camera +Z
    right = wp.normalize(wp.cross(wp.vec3f(0.0, 0.0, 1.0), back))  # camera +X
    up = wp.cross(back, right)  # camera +Y
    rot = wp.quat_from_matrix(wp.matrix_from_cols(right, up, back))
    out[i] = wp.transformf(eye, rot)


class FollowCamera:
    """Render the chosen worlds from a chase view that follows each world's first body, tiled into one image.

    Ground planes show a grey 0.5 m checkerboard, so that a body moving over the ground visibly moves in its tile.

    Args:
        model: The Newton model.
        worlds: World indices to show, one tile each (row-major in a near-square grid).
        width: Tile width [px].
        height: Tile height [px].
        distance: Distance of the camera from the followed body [m].
        azimuth: Horizontal angle of the camera around the body, from +x [rad].
        elevation: Angle of the camera above the horizontal [rad].
        fov: Vertical field of view [rad].

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
        distance: float = 4.0,
        azimuth: float = -0.75 * math.pi,
        elevation: float = math.radians(25.0),
        fov: float = math.radians(45.0),
    ):
        starts = model.body_world_start.numpy()
        bad = [w for w in worlds if not 0 <= w < model.world_count or starts[w + 1] == starts[w]]
        if bad:
            raise ValueError(
                f"FollowCamera: worlds {bad} do not exist or have no body (model has {model.world_count})."
            )
        device = model.device
        self.worlds = list(worlds)
        self.width, self.height = width, height
        self.columns = math.ceil(math.sqrt(len(worlds)))
        self.rows = math.ceil(len(worlds) / self.columns)
        self._model = model
        self._bodies = wp.array(starts[self.worlds].astype(np.int32), dtype=wp.int32, device=device)
        self._world_ids = wp.array(np.asarray(self.worlds, dtype=np.int32), dtype=wp.int32, device=device)
        self._offset = wp.vec3f(
            distance * math.cos(elevation) * math.cos(azimuth),
            distance * math.cos(elevation) * math.sin(azimuth),
            distance * math.sin(elevation),
        )
        self._sensor = SensorCamera(model)
        self._sensor.create_default_light(enable_shadows=True)
        planes = np.flatnonzero(model.shape_type.numpy() == int(newton.GeoType.PLANE))
        if planes.size:
            # the plane texture spans 1 m: 0.5 m squares, so motion over the ground shows in a chase view
            self._sensor.assign_checkerboard_material(shape_indices=planes, resolution=64, checker_size=32)
        self._config = SensorCamera.RenderConfig(enable_shadows=True, enable_textures=bool(planes.size))
        self._rays = SensorCamera.compute_camera_rays_pinhole(width, height, camera_fov=fov, device=device)
        self._transforms = wp.zeros(len(worlds), dtype=wp.transformf, device=device)
        self._color = self._sensor.allocate_image_color(len(worlds), width, height)

    def render(self, state: newton.State) -> wp.array:
        """Render the tiles of ``state`` on the device: packed RGBA, shape (len(worlds), height, width)."""
        wp.launch(
            _chase_transforms,
            dim=len(self.worlds),
            inputs=[state.body_q, self._bodies, self._offset],
            outputs=[self._transforms],
            device=self._model.device,
        )
        self._model.bvh_refit_shapes(state)
        self._sensor.update(
            state,
            self._transforms,
            self._rays,
            color_image=self._color,
            world_indices=self._world_ids,
            render_config=self._config,
        )
        return self._color

    def frame(self, state: newton.State) -> np.ndarray:
        """Render ``state`` and return the tiled RGB frame, shape (rows * height, columns * width, 3), uint8."""
        tiles = self.render(state).numpy().view(np.uint8).reshape(len(self.worlds), self.height, self.width, 4)
        grid = np.zeros((self.rows * self.height, self.columns * self.width, 3), dtype=np.uint8)
        for k in range(len(self.worlds)):
            r, c = divmod(k, self.columns)
            grid[r * self.height : (r + 1) * self.height, c * self.width : (c + 1) * self.width] = tiles[k, ..., :3]
        return grid
