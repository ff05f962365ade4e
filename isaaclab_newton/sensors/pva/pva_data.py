"""Data container of the Newton PVA sensor."""

from __future__ import annotations

import warp as wp
from isaaclab.sensors.pva.base_pva_data import BasePvaData
from isaaclab.utils.warp import ProxyArray


class PvaData(BasePvaData):
    """World pose, body-frame velocities and coordinate accelerations of the sensor frame, one row per environment."""

    def __init__(self, num_envs: int, device: str):
        self._pose_w = wp.zeros(num_envs, dtype=wp.transformf, device=device)
        self._pos_w = wp.zeros(num_envs, dtype=wp.vec3f, device=device)
        self._quat_w = wp.zeros(num_envs, dtype=wp.quatf, device=device)
        self._projected_gravity_b = wp.zeros(num_envs, dtype=wp.vec3f, device=device)
        self._lin_vel_b = wp.zeros(num_envs, dtype=wp.vec3f, device=device)
        self._ang_vel_b = wp.zeros(num_envs, dtype=wp.vec3f, device=device)
        self._lin_acc_b = wp.zeros(num_envs, dtype=wp.vec3f, device=device)
        self._ang_acc_b = wp.zeros(num_envs, dtype=wp.vec3f, device=device)
        self._proxies = {
            name: ProxyArray(getattr(self, f"_{name}"))
            for name in (
                "pose_w",
                "pos_w",
                "quat_w",
                "projected_gravity_b",
                "lin_vel_b",
                "ang_vel_b",
                "lin_acc_b",
                "ang_acc_b",
            )
        }

    @property
    def pose_w(self) -> ProxyArray:
        """Pose of the sensor frame in the world frame (x, y, z [m], qx, qy, qz, qw)."""
        return self._proxies["pose_w"]

    @property
    def pos_w(self) -> ProxyArray:
        """Position of the sensor frame in the world frame [m]."""
        return self._proxies["pos_w"]

    @property
    def quat_w(self) -> ProxyArray:
        """Orientation of the sensor frame in the world frame (x, y, z, w)."""
        return self._proxies["quat_w"]

    @property
    def projected_gravity_b(self) -> ProxyArray:
        """Unit gravity direction in the sensor frame."""
        return self._proxies["projected_gravity_b"]

    @property
    def lin_vel_b(self) -> ProxyArray:
        """Linear velocity of the sensor point relative to the world, in the sensor frame [m/s]."""
        return self._proxies["lin_vel_b"]

    @property
    def ang_vel_b(self) -> ProxyArray:
        """Angular velocity of the sensor frame relative to the world, in the sensor frame [rad/s]."""
        return self._proxies["ang_vel_b"]

    @property
    def lin_acc_b(self) -> ProxyArray:
        """Coordinate acceleration of the sensor point in the sensor frame [m/s^2]: gravity in free fall."""
        return self._proxies["lin_acc_b"]

    @property
    def ang_acc_b(self) -> ProxyArray:
        """Angular acceleration of the sensor frame in the sensor frame [rad/s^2]."""
        return self._proxies["ang_acc_b"]
