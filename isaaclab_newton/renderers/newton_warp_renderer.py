"""Render core's camera sensors with Newton's ray-traced camera (:class:`newton.sensors.SensorCamera`).

One view per camera and environment: view ``i`` renders world ``i`` (plus the shared world ``-1``, e.g. the
ground), so other environments' bodies never appear in a tile. Camera poses follow the camera's site (its body or
its environment's origin, see :class:`~isaaclab_newton.sim.views.NewtonSiteFrameView`), computed on the device
in :meth:`NewtonWarpRenderer.render`; outputs are written into core's camera buffers without host reads.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import warp as wp
from isaaclab.renderers import BaseRenderer, RenderBufferKind, RenderBufferSpec
from newton.sensors import SensorCamera

from ..physics.newton_manager import NewtonManager
from ..sim.views import NewtonSiteFrameView, site_kernels
from .pixel_threads import PIXELS_PER_THREAD, pixel_values, thread_count
from .semantic_labels import semantic_from_shape_index, semantic_table, shape_semantic_ids

if TYPE_CHECKING:
    from isaaclab.renderers import CameraRenderSpec

    from .newton_warp_renderer_cfg import NewtonWarpRendererCfg


@wp.kernel(enable_backward=False)
def _clip_depth(depth: wp.array(dtype=wp.float32), far: float, value: float, threads: int):
    """Replace misses (0) and hits beyond the far clipping distance [m] with ``value``.

    ``depth`` is every view's image as one flat array; thread ``t`` of ``threads`` clips pixels ``t``, ``t + threads``,
    ... (:mod:`~isaaclab_newton.renderers.pixel_threads`).
    """
    t = wp.tid()
    values = pixel_values()
    for u in range(PIXELS_PER_THREAD):
        i = t + u * threads
        if i < depth.shape[0]:
            values[u] = depth[i]
    for u in range(PIXELS_PER_THREAD):
        i = t + u * threads
        if i < depth.shape[0] and (values[u] <= 0.0 or values[u] > far):
            depth[i] = value


@dataclass
class NewtonCameraRenderData:
    """Renderer-owned state of one camera sensor (one view per environment)."""

    spec: CameraRenderSpec
    sensor: SensorCamera
    sites: NewtonSiteFrameView
    transforms: wp.array
    far: float
    """Far clipping distance [m] (infinite without a clipping range)."""
    rays: wp.array | None = None
    outputs: dict[str, wp.array] | None = None
    """Core's output buffers by data type."""
    images: dict[str, wp.array] | None = None
    """Newton's image arguments, views of :attr:`outputs`."""
    clipped: tuple[wp.array, ...] = ()
    """Flat views of the depth images that the far clipping distance applies to."""
    semantic: tuple[wp.array, int, dict] | None = None
    """Per-shape semantic values, background value and ``idToLabels`` info (with ``semantic_segmentation``)."""


class NewtonWarpRenderer(BaseRenderer):
    """Renderer backend of :class:`NewtonWarpRendererCfg` over :class:`newton.sensors.SensorCamera`.

    Args:
        cfg: The renderer configuration.
    """

    def __init__(self, cfg: NewtonWarpRendererCfg):
        self.cfg = cfg

    def supported_output_types(self) -> dict[RenderBufferKind, RenderBufferSpec]:
        """Layouts of the data types this renderer writes (see :data:`OUTPUT_SPECS`)."""
        return self.cfg.supported_output_types()

    def prepare_stage(self, stage: Any, num_envs: int) -> None:
        """Nothing to prepare: Newton renders its own model, not the USD stage."""

    def create_render_data(self, spec: CameraRenderSpec) -> NewtonCameraRenderData:
        """Build the camera's Newton sensor and its per-environment sites.

        Raises:
            RuntimeError: Before the Newton model is finalized.
            ValueError: For camera options this renderer cannot honour (named in the message).
        """
        cfg = spec.cfg
        model = NewtonManager.get_model()
        if model is None:
            raise RuntimeError("NewtonWarpRenderer needs a finalized Newton model: build the camera in a scene.")
        _check_options(cfg)
        sites = NewtonSiteFrameView(cfg.prim_path, device=spec.device)
        if sites.count != spec.num_instances:
            raise ValueError(
                f"NewtonWarpRenderer: camera {cfg.prim_path!r} resolves to {sites.count} views but the sensor has"
                f" {spec.num_instances} instances."
            )
        far = float(cfg.spawn.clipping_range[1]) if cfg.spawn.clipping_range is not None else math.inf
        render_config = SensorCamera.RenderConfig(enable_shadows=bool(self.cfg.enable_shadows))
        if self.cfg.max_distance is not None:
            render_config.max_distance = float(self.cfg.max_distance)
        background = cfg.background_color
        clear = SensorCamera.ClearData(clear_color=_pack_rgba(background) if background is not None else 0)
        sensor = SensorCamera(model, default_clear_data=clear, default_render_config=render_config)
        sensor.create_default_light(enable_shadows=bool(self.cfg.enable_shadows))
        transforms = wp.zeros(sites.count, dtype=wp.transformf, device=spec.device)
        data = NewtonCameraRenderData(spec=spec, sensor=sensor, sites=sites, transforms=transforms, far=far)
        if "semantic_segmentation" in cfg.data_types:
            from isaaclab.sim.utils.stage import get_current_stage

            ids, labels = shape_semantic_ids(model, get_current_stage(), NewtonManager.get_scene_index())
            colorize = bool(self.cfg.colorize_semantic_segmentation)
            data.semantic = semantic_table(ids, labels, colorize=colorize, device=spec.device)
        return data

    def set_outputs(self, render_data: NewtonCameraRenderData, output_data: dict[str, Any]) -> None:
        """Bind core's output buffers to Newton's image arguments (zero-copy views where the layout matches)."""
        n, h, w = render_data.sites.count, render_data.spec.cfg.height, render_data.spec.cfg.width
        kwargs: dict[str, wp.array] = {}
        outputs = {name: proxy.warp for name, proxy in output_data.items()}
        # core allocates ``rgb`` as a view of ``rgba`` (alpha skipped), so both read Newton's packed RGBA
        if "rgba" in outputs:
            kwargs["color_image"] = _view(outputs["rgba"], wp.uint32, (n, h, w))
        if "albedo" in outputs:
            kwargs["albedo_image"] = _view(outputs["albedo"], wp.uint32, (n, h, w))
        for name in ("depth", "distance_to_image_plane"):
            if name in outputs:
                kwargs["forward_depth_image"] = _view(outputs[name], wp.float32, (n, h, w))
                break
        if "distance_to_camera" in outputs:
            kwargs["depth_image"] = _view(outputs["distance_to_camera"], wp.float32, (n, h, w))
        if "normals" in outputs:
            kwargs["normal_image"] = _view(outputs["normals"], wp.vec3f, (n, h, w))
        if "instance_segmentation" in outputs:
            kwargs["shape_index_image"] = _view(outputs["instance_segmentation"], wp.uint32, (n, h, w))
        elif "semantic_segmentation" in outputs:  # semantic classes are looked up from the shape index
            kwargs["shape_index_image"] = wp.empty((n, h, w), dtype=wp.uint32, device=render_data.spec.device)
        render_data.outputs = outputs
        render_data.images = kwargs
        depth_images = (kwargs[key] for key in ("forward_depth_image", "depth_image") if key in kwargs)
        render_data.clipped = tuple(_view(image, wp.float32, (image.size,)) for image in depth_images)

    def update_transforms(self) -> None:
        """Nothing to sync: :meth:`render` reads ``State.body_q`` directly."""

    def update_geometries(self) -> None:
        """Nothing to sync: Newton's camera syncs deformable surfaces from the state when it renders."""

    def update_camera(self, render_data: NewtonCameraRenderData, positions, orientations, intrinsics) -> None:
        """Build the pinhole rays from ``intrinsics`` on the first call (at camera initialization).

        The views' poses are the sites' (:class:`~isaaclab_newton.sim.views.NewtonSiteFrameView`): core's
        ``set_world_poses`` writes them through the view, and :meth:`render` places each view at its body or
        environment origin times its site offset. Core's pose buffers are not read back: with
        ``update_latest_camera_pose=False`` they keep the poses of the last reset, which are stale for
        body-mounted cameras.
        """
        if render_data.rays is None:
            self._build_rays(render_data, intrinsics.warp)

    def update_camera_intrinsics(
        self, render_data: NewtonCameraRenderData, intrinsics: wp.array, parameters: wp.array
    ) -> None:
        """Rebuild the pinhole rays for a new calibration (shared by every view of the camera)."""
        self._build_rays(render_data, intrinsics)

    def _build_rays(self, render_data: NewtonCameraRenderData, intrinsics: wp.array) -> None:
        cfg = render_data.spec.cfg
        k = intrinsics.numpy().reshape(-1, 3, 3)
        if not np.allclose(k, k[0], rtol=1e-6, atol=1e-6):
            raise ValueError(
                "NewtonWarpRenderer renders every environment of a camera with one ray bundle; per-environment"
                " intrinsics differ. Give all environments the same calibration."
            )
        fx, fy, cx, cy = (float(k[0, 0, 0]), float(k[0, 1, 1]), float(k[0, 0, 2]), float(k[0, 1, 2]))
        render_data.rays = SensorCamera.compute_camera_rays_pinhole_opencv(
            cfg.width, cfg.height, fx, fy, cx, cy, out_rays=render_data.rays, device=render_data.spec.device
        )

    def render(self, render_data: NewtonCameraRenderData) -> None:
        """Refit the shape BVH, place the views and render every environment's tile (device work only)."""
        self.render_batch([render_data])

    def render_batch(self, render_data: Sequence[NewtonCameraRenderData]) -> None:
        """Refit the shape BVH once, then place and render each camera's views (device work only)."""
        if not render_data:
            return
        state = NewtonManager.get_state_0()
        NewtonManager.get_model().bvh_refit_shapes(state)
        for data in render_data:
            sites = data.sites
            wp.launch(
                site_kernels.site_camera_transforms,
                dim=sites.count,
                inputs=[state.body_q, sites.parent_bodies, sites.parent_origins, sites.offsets],
                outputs=[data.transforms],
                device=data.spec.device,
            )
            data.sensor.update(state, data.transforms, data.rays, **data.images)
            self._finish_outputs(data)

    def _finish_outputs(self, render_data: NewtonCameraRenderData) -> None:
        images = render_data.images
        device = render_data.spec.device
        outputs = render_data.outputs
        far = render_data.far
        value = {"none": math.inf, "max": far, "zero": 0.0}[self.cfg.depth_clipping_behavior]
        for depth in render_data.clipped:
            threads = thread_count(depth.shape[0])
            wp.launch(_clip_depth, dim=threads, inputs=[depth, far, value, threads], device=device)
        if "depth" in outputs and "distance_to_image_plane" in outputs:
            wp.copy(outputs["distance_to_image_plane"], outputs["depth"])
        if render_data.semantic is not None:
            table, background, _ = render_data.semantic
            shape_index = images["shape_index_image"]
            out = _view(outputs["semantic_segmentation"], wp.uint32, shape_index.shape)
            wp.launch(
                semantic_from_shape_index,
                dim=shape_index.shape,
                inputs=[shape_index, table, wp.uint32(background)],
                outputs=[out],
                device=device,
            )

    def read_output(self, render_data: NewtonCameraRenderData, camera_data) -> None:
        """Nothing to copy (:meth:`render` wrote straight into the camera's buffers); semantic labels into ``info``."""
        if render_data.semantic is not None:
            camera_data.info["semantic_segmentation"] = render_data.semantic[2]

    def cleanup(self, render_data: NewtonCameraRenderData | None) -> None:
        """Drop the camera's Newton sensor and buffers."""
        if render_data is not None:
            render_data.outputs = None
            render_data.images = None
            render_data.clipped = ()


def _check_options(cfg) -> None:
    """Raise for camera options Newton's camera cannot honour."""
    from isaaclab.sim.spawners.sensors import PinholeCameraCfg

    if not isinstance(cfg.spawn, PinholeCameraCfg) or type(cfg.spawn).__name__ != "PinholeCameraCfg":
        raise ValueError(
            f"NewtonWarpRenderer renders pinhole cameras only; {type(cfg.spawn).__name__} is not supported."
            " Use sim_utils.PinholeCameraCfg."
        )
    if cfg.isp_cfg is not None:
        raise ValueError("NewtonWarpRenderer has no image signal processor; set CameraCfg.isp_cfg=None.")
    if "semantic_segmentation" in cfg.data_types and cfg.semantic_filter != "*:*":
        raise ValueError(
            f"NewtonWarpRenderer segments every semantic label; CameraCfg.semantic_filter={cfg.semantic_filter!r} is"
            " not supported. Keep the default '*:*'."
        )


def _view(array: wp.array, dtype, shape: tuple[int, ...]) -> wp.array:
    """Reinterpret a contiguous buffer (an (N, H, W, C) output, an (N, H, W) image) as ``shape`` of ``dtype``."""
    return wp.array(ptr=array.ptr, dtype=dtype, shape=shape, device=array.device, copy=False)


def _pack_rgba(color: tuple[float, float, float]) -> int:
    r, g, b = (int(round(255 * min(max(c, 0.0), 1.0))) for c in color)
    return (255 << 24) | (b << 16) | (g << 8) | r
