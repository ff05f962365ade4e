"""Joint reaction wrench sensor on the BODY_PARENT_F solver observable."""

from .joint_wrench_sensor import JointWrenchSensor
from .joint_wrench_sensor_data import JointWrenchSensorData

__all__ = ["JointWrenchSensor", "JointWrenchSensorData"]
