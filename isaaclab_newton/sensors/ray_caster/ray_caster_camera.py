"""Isaac Lab's ray-caster camera on Newton: pinhole depth and normal images from rays against the shape BVH."""

from __future__ import annotations

from typing import TYPE_CHECKING

import warp as wp
from isaaclab.sensors.ray_caster.base_ray_caster_camera import BaseRayCasterCamera

from .ray_caster import RayCaster

if TYPE_CHECKING:
    from isaaclab.sensors.ray_caster import RayCasterCameraCfg


class LegacyRayCasterCamera(BaseRayCasterCamera, RayCaster):
    """Pinhole images cast from a body frame against the shapes of the Newton model (core's ``RayCasterCamera``).

    Core's factory picks this class for ``RayCasterCameraCfg`` on Newton. The camera sits on the body at
    ``cfg.prim_path`` (as :class:`RayCaster` finds it) at ``cfg.offset`` (in the offset's ``convention``) or where
    :meth:`set_world_poses` puts it; its rays come from ``cfg.pattern_cfg`` (a pinhole pattern) and are cast with
    :class:`RayCaster`'s query: against the shared world (the terrain) and, unless ``cfg.global_world_only``, the
    shapes of the camera's own environment.

    Outputs (``cfg.data_types``), each an image of shape ``(num_envs, height, width, C)``:

    * ``distance_to_camera`` [m]: the length of each pixel's ray to its hit.
    * ``distance_to_image_plane`` [m]: the hit's depth along the camera's optical axis.
    * ``normals``: the unit surface normal at the hit, in the world frame.

    A miss reads ``inf``. ``cfg.depth_clipping_behavior`` replaces depths beyond ``cfg.max_distance`` (misses
    included) with ``cfg.max_distance`` (``"max"``) or 0 (``"zero"``), or keeps them (``"none"``). ``ray_hits_w``
    holds the world-frame hit points. Updates are Warp launches on preallocated buffers, like :class:`RayCaster`.
    """

    __backend_name__: str = "newton"

    cfg: RayCasterCameraCfg

    def _initialize_rays_impl(self) -> None:
        BaseRayCasterCamera._initialize_rays_impl(self)
        self._allocate_ray_query(normals="normals" in self.cfg.data_types)
        outputs = self._data.output
        unused = wp.empty((1, 1, 1, 1), dtype=wp.float32, device=self._device)
        names = ("distance_to_camera", "distance_to_image_plane", "normals")
        self._image_outputs = [outputs[name].warp if name in outputs else unused for name in names]
        self._image_flags = [name in outputs for name in names]
        self._ray_normals = self._normals if self._normals is not None else wp.empty(1, dtype=wp.vec3f)

    def _update_buffers_impl(self, env_mask: wp.array) -> None:
        self._update_frame(env_mask, frame_op=1)
        self._update_ray_infos(env_mask)
        self._cast()
        to_camera, to_plane, normals = self._image_outputs
        wp.launch(
            _camera_images,
            dim=(self._num_envs, self.num_rays),
            inputs=[
                env_mask,
                self._distances,
                self._ray_normals,
                self._ray_starts_w,
                self._ray_directions_w,
                self._data.quat_w_world.warp,
                int(self.image_shape[1]),
                bool(self._depth_clip_enabled),
                float(self.cfg.max_distance),
                float(self._depth_clip_fill_value),
                *self._image_flags,
            ],
            outputs=[self.ray_hits_w.warp, self._ray_distance_wp, to_camera, to_plane, normals],
            device=self._device,
        )


@wp.func
def _clipped(depth: float, clip: bool, max_distance: float, fill: float) -> float:
    if clip and (depth > max_distance or wp.isnan(depth)):
        return fill
    return depth


@wp.kernel(enable_backward=False)
def _camera_images(
    env_mask: wp.array(dtype=wp.bool),
    distances: wp.array(dtype=wp.float32),
    hit_normals: wp.array(dtype=wp.vec3f),
    starts: wp.array2d(dtype=wp.vec3f),
    directions: wp.array2d(dtype=wp.vec3f),
    camera_quat_w: wp.array(dtype=wp.quatf),
    width: int,
    clip: bool,
    max_distance: float,
    fill: float,
    write_to_camera: bool,
    write_to_plane: bool,
    write_normals: bool,
    hits: wp.array2d(dtype=wp.vec3f),
    ray_distance: wp.array2d(dtype=wp.float32),
    to_camera: wp.array4d(dtype=wp.float32),
    to_plane: wp.array4d(dtype=wp.float32),
    normals: wp.array4d(dtype=wp.float32),
):
    """Hit point, ray length and the requested image pixels of one ray; a miss (distance -1) reads inf."""
    env, ray = wp.tid()
    if not env_mask[env]:
        return
    row = ray // width
    col = ray - row * width
    flat = env * starts.shape[1] + ray
    d = distances[flat]
    direction = directions[env, ray]
    normal = wp.vec3f(wp.inf, wp.inf, wp.inf)
    if d < 0.0:
        d = wp.inf
        hits[env, ray] = wp.vec3f(wp.inf, wp.inf, wp.inf)
    else:
        hits[env, ray] = starts[env, ray] + d * direction
        if write_normals:
            normal = hit_normals[flat]
    ray_distance[env, ray] = d
    if write_to_camera:
        to_camera[env, row, col, 0] = _clipped(d, clip, max_distance, fill)
    if write_to_plane:
        # the world-convention camera frame looks along its +x axis
        along_axis = wp.quat_rotate_inv(camera_quat_w[env], direction)[0]
        to_plane[env, row, col, 0] = _clipped(d * along_axis, clip, max_distance, fill)
    if write_normals:
        for axis in range(3):
            normals[env, row, col, axis] = normal[axis]
