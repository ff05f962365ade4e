"""Visuo-tactile (TacSL-style) sensor configuration.

Isaac Lab core imports :class:`VisuoTactileSensorCfg` at module level; the sensor itself is not supported on
the Newton backend yet, so building one raises :class:`NotImplementedError`.
"""

from .visuotactile_sensor_cfg import VisuoTactileSensor, VisuoTactileSensorCfg

__all__ = ["VisuoTactileSensor", "VisuoTactileSensorCfg"]
