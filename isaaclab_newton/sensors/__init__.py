"""Isaac Lab sensors on the Newton backend, fed by solver observables."""

from .contact_sensor.contact_sensor_cfg import ContactSensorCfg

__all__ = ["ContactSensorCfg"]
