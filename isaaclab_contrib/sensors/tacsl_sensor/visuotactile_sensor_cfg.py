"""Configuration of the visuo-tactile sensor (not supported on the Newton backend yet)."""

from __future__ import annotations

from typing import Any

from isaaclab.sensors import SensorBaseCfg
from isaaclab.utils import configclass


class VisuoTactileSensor:
    """Placeholder class type that refuses construction with an explanation."""

    def __init__(self, cfg: VisuoTactileSensorCfg, *args: Any, **kwargs: Any):
        raise NotImplementedError(
            "VisuoTactileSensor (TacSL) is not supported on the isaaclab_newton backend yet. Remove the sensor from"
            " the scene or use ContactSensorCfg for contact forces."
        )


@configclass
class VisuoTactileSensorCfg(SensorBaseCfg):
    """Visuo-tactile sensor settings, kept so scenes that mention the sensor can be parsed."""

    class_type: type = VisuoTactileSensor

    camera_cfg: Any = None
    """Camera configuration of the tactile imprint renderer."""

    contact_object_prim_path_expr: str | None = None
    """Prim path expression of the object touched by the elastomer."""
