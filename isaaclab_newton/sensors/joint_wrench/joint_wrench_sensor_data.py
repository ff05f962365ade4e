"""Data container of the Newton joint wrench sensor."""

from __future__ import annotations

import warp as wp
from isaaclab.sensors.joint_wrench.base_joint_wrench_sensor_data import BaseJointWrenchSensorData
from isaaclab.utils.warp import ProxyArray


class JointWrenchSensorData(BaseJointWrenchSensorData):
    """Incoming joint force [N] and torque [N m] per body, in the child-side joint frame about the joint anchor."""

    def __init__(self, num_envs: int, num_bodies: int, device: str):
        self._force = wp.zeros((num_envs, num_bodies), dtype=wp.vec3f, device=device)
        self._torque = wp.zeros((num_envs, num_bodies), dtype=wp.vec3f, device=device)
        self._force_proxy = ProxyArray(self._force)
        self._torque_proxy = ProxyArray(self._torque)

    @property
    def force(self) -> ProxyArray:
        """Joint reaction force on each body [N], shape (num_envs, num_bodies)."""
        return self._force_proxy

    @property
    def torque(self) -> ProxyArray:
        """Joint reaction torque on each body about its joint anchor [N m], shape (num_envs, num_bodies)."""
        return self._torque_proxy
