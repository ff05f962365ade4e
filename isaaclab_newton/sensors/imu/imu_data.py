"""Data container of the Newton IMU sensor."""

from __future__ import annotations

import warp as wp
from isaaclab.sensors.imu.base_imu_data import BaseImuData
from isaaclab.utils.warp import ProxyArray


class ImuData(BaseImuData):
    """Angular velocity [rad/s] and proper linear acceleration [m/s^2] in the IMU frame, one row per environment."""

    def __init__(self, num_envs: int, device: str):
        self._ang_vel_b = wp.zeros(num_envs, dtype=wp.vec3f, device=device)
        self._lin_acc_b = wp.zeros(num_envs, dtype=wp.vec3f, device=device)
        self._ang_vel_proxy = ProxyArray(self._ang_vel_b)
        self._lin_acc_proxy = ProxyArray(self._lin_acc_b)

    @property
    def ang_vel_b(self) -> ProxyArray:
        """Angular velocity of the IMU frame relative to the world, in the IMU frame [rad/s]."""
        return self._ang_vel_proxy

    @property
    def lin_acc_b(self) -> ProxyArray:
        """Proper linear acceleration in the IMU frame [m/s^2]: +g upward at rest, zero in free fall."""
        return self._lin_acc_proxy
