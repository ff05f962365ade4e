"""IMU sensor on the BODY_QDD solver observable."""

from .imu import Imu
from .imu_data import ImuData

__all__ = ["Imu", "ImuData"]
