"""Configuration of the Newton Warp (tiled-camera) renderer."""

from __future__ import annotations

from typing import Any

from isaaclab.renderers.renderer_cfg import RendererCfg
from isaaclab.utils import configclass


@configclass
class NewtonWarpRendererCfg(RendererCfg):
    """Render camera sensors with Newton's Warp ray tracer (:class:`newton.sensors.SensorTiledCamera`).

    Camera rendering is not implemented in this backend yet: creating the renderer, which Isaac Lab does when
    a camera sensor is built, raises :class:`NotImplementedError`. Tasks without cameras never create it, so
    they are unaffected by a task configuration that names this renderer.
    """

    class_type: Any = "{DIR}.newton_warp_renderer:NewtonWarpRenderer"
    renderer_type: str = "newton_warp"

    enable_shadows: bool = True
    """Cast shadows from the scene lights."""

    max_distance: float | None = None
    """Distance [m] beyond which rays miss. ``None`` keeps Newton's default."""
