"""Contact-sensor configuration name that Isaac Lab's Newton task presets import."""

from __future__ import annotations

from isaaclab.sensors.contact_sensor.contact_sensor_cfg import ContactSensorCfg as _CoreContactSensorCfg
from isaaclab.utils import configclass


@configclass
class ContactSensorCfg(_CoreContactSensorCfg):
    """Core's contact sensor configuration, built on this backend's :class:`ContactSensor` (``CONTACT_F``).

    It adds no fields: every field of core's configuration is honoured by the Newton contact sensor.
    """
