"""Contact sensor on the CONTACT_F solver observable."""

from .contact_sensor import ContactSensor
from .contact_sensor_cfg import ContactSensorCfg
from .contact_sensor_data import ContactSensorData

__all__ = ["ContactSensor", "ContactSensorCfg", "ContactSensorData"]
