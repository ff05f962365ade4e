"""Configuration of the Newton Warp renderer (Newton's ray-traced camera)."""

from __future__ import annotations

from typing import Any, Literal

import warp as wp
from isaaclab.renderers.output_contract import RenderBufferKind, RenderBufferSpec
from isaaclab.renderers.renderer_cfg import RendererCfg
from isaaclab.utils import configclass

_K = RenderBufferKind
OUTPUT_SPECS: dict[RenderBufferKind, RenderBufferSpec] = {
    _K.RGB: RenderBufferSpec(3, wp.uint8),
    _K.RGBA: RenderBufferSpec(4, wp.uint8),
    _K.ALBEDO: RenderBufferSpec(4, wp.uint8),
    _K.DEPTH: RenderBufferSpec(1, wp.float32),
    _K.DISTANCE_TO_IMAGE_PLANE: RenderBufferSpec(1, wp.float32),
    _K.DISTANCE_TO_CAMERA: RenderBufferSpec(1, wp.float32),
    _K.NORMALS: RenderBufferSpec(3, wp.float32),
    _K.INSTANCE_SEGMENTATION: RenderBufferSpec(1, wp.int32),
}
"""Data types the renderer writes and their per-pixel layouts (``semantic_segmentation`` is added by the cfg).

``normals`` are world-frame unit normals; ``instance_segmentation`` is the Newton shape index of the pixel's
surface (``-1`` where the ray hits nothing).
"""


@configclass
class NewtonWarpRendererCfg(RendererCfg):
    """Render camera sensors with Newton's ray-traced camera (:class:`newton.sensors.SensorCamera`).

    One tile per camera and environment; data types: ``rgb``, ``rgba``, ``albedo``, ``depth`` /
    ``distance_to_image_plane``, ``distance_to_camera``, ``normals``, ``instance_segmentation`` (Newton shape
    indices) and ``semantic_segmentation`` (from the prims' USD semantic labels). See ``docs/cameras.md``.
    """

    class_type: Any = "{DIR}.newton_warp_renderer:NewtonWarpRenderer"
    renderer_type: str = "newton_warp"

    enable_shadows: bool = True
    """Cast shadows from the default directional light."""

    max_distance: float | None = None
    """Distance [m] beyond which rays miss. ``None`` keeps Newton's default."""

    depth_clipping_behavior: Literal["max", "zero", "none"] = "none"
    """Depth of misses and of hits beyond the far clipping distance: the far distance (``"max"``), zero, or
    infinity (``"none"``)."""

    colorize_semantic_segmentation: bool = True
    """Write ``semantic_segmentation`` as RGBA colours (uint8, 4 channels, ``(0, 0, 0, 0)`` where nothing is hit,
    ``(0, 0, 0, 255)`` for unlabelled shapes) instead of int32 semantic ids (0 background, 1 unlabelled)."""

    def supported_output_types(self) -> dict[RenderBufferKind, RenderBufferSpec]:
        """Layouts of the data types this renderer writes (see :data:`OUTPUT_SPECS`)."""
        semantic = (
            RenderBufferSpec(4, wp.uint8) if self.colorize_semantic_segmentation else RenderBufferSpec(1, wp.int32)
        )
        return {**OUTPUT_SPECS, RenderBufferKind.SEMANTIC_SEGMENTATION: semantic}
