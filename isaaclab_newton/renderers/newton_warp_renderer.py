"""Newton Warp renderer: camera rendering is not available in this backend yet."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .newton_warp_renderer_cfg import NewtonWarpRendererCfg


class NewtonWarpRenderer:
    """Renderer backend of :class:`NewtonWarpRendererCfg`; constructing it reports that cameras are unsupported."""

    def __init__(self, cfg: NewtonWarpRendererCfg):
        raise NotImplementedError(
            "Camera sensors cannot be rendered on the isaaclab_newton backend yet: NewtonWarpRendererCfg"
            " (rendering through newton.sensors.SensorTiledCamera) is not implemented. Remove the camera from"
            " the scene or run the task on a backend with a camera renderer."
        )
