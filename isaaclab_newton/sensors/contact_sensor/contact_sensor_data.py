"""Data container of the Newton contact sensor."""

from __future__ import annotations

import warp as wp
from isaaclab.sensors.contact_sensor.base_contact_sensor_data import BaseContactSensorData
from isaaclab.utils.warp import ProxyArray


def _named(names: tuple[str, ...], arrays: list[wp.array] | None) -> dict[str, wp.array | None]:
    """``arrays`` by name; every name maps to ``None`` when the buffers are not tracked (``arrays is None``)."""
    return dict(zip(names, arrays if arrays is not None else [None] * len(names), strict=True))


class ContactSensorData(BaseContactSensorData):
    """Contact forces [N] (world frame) per sensor body, split into normal and friction parts, with history."""

    def __init__(
        self,
        num_envs: int,
        num_sensors: int,
        num_filters: int,
        history_length: int,
        device: str,
        *,
        track_pose: bool,
        track_air_time: bool,
    ):
        def vec(*shape):
            return wp.zeros(shape, dtype=wp.vec3f, device=device)

        h = max(history_length, 1)
        self._net = [vec(num_envs, num_sensors) for _ in range(3)]  # total, normal, friction
        self._net_hist = [vec(num_envs, h, num_sensors) for _ in range(3)]
        self._matrix = [vec(num_envs, num_sensors, num_filters) for _ in range(3)] if num_filters else None
        self._matrix_hist = [vec(num_envs, h, num_sensors, num_filters) for _ in range(3)] if num_filters else None
        self._pos = vec(num_envs, num_sensors) if track_pose else None
        self._quat = wp.zeros((num_envs, num_sensors), dtype=wp.quatf, device=device) if track_pose else None
        self._times = (
            [wp.zeros((num_envs, num_sensors), dtype=wp.float32, device=device) for _ in range(4)]
            if track_air_time
            else None
        )  # current air, last air, current contact, last contact
        proxied = {
            "pos_w": self._pos,
            "quat_w": self._quat,
            **_named(("net_forces_w", "net_normal_forces_w", "net_friction_forces_w"), self._net),
            **_named(
                ("net_forces_w_history", "net_normal_forces_w_history", "net_friction_forces_w_history"), self._net_hist
            ),
            **_named(("force_matrix_w", "normal_force_matrix_w", "friction_force_matrix_w"), self._matrix),
            **_named(
                ("force_matrix_w_history", "normal_force_matrix_w_history", "friction_force_matrix_w_history"),
                self._matrix_hist,
            ),
            **_named(("current_air_time", "last_air_time", "current_contact_time", "last_contact_time"), self._times),
        }
        self._proxies: dict[str, ProxyArray | None] = {
            name: None if array is None else ProxyArray(array) for name, array in proxied.items()
        }

    @property
    def pose_w(self) -> ProxyArray | None:
        """Not provided: read :attr:`pos_w` and :attr:`quat_w`."""
        raise NotImplementedError("ContactSensorData.pose_w is not provided by the Newton backend; use pos_w/quat_w.")

    @property
    def pos_w(self) -> ProxyArray | None:
        """Sensor body positions [m] (``track_pose=True``), shape (num_envs, num_sensors)."""
        return self._proxies["pos_w"]

    @property
    def quat_w(self) -> ProxyArray | None:
        """Sensor body orientations (x, y, z, w) (``track_pose=True``), shape (num_envs, num_sensors)."""
        return self._proxies["quat_w"]

    @property
    def net_forces_w(self) -> ProxyArray:
        """Total contact force on each sensor body [N], world frame."""
        return self._proxies["net_forces_w"]

    @property
    def net_normal_forces_w(self) -> ProxyArray:
        """Normal part of the contact force on each sensor body [N], world frame."""
        return self._proxies["net_normal_forces_w"]

    @property
    def net_friction_forces_w(self) -> ProxyArray:
        """Friction (tangential) part of the contact force on each sensor body [N], world frame."""
        return self._proxies["net_friction_forces_w"]

    @property
    def friction_forces_w(self) -> ProxyArray:
        """Same as :attr:`net_friction_forces_w`."""
        return self.net_friction_forces_w

    @property
    def net_forces_w_history(self) -> ProxyArray:
        """History of :attr:`net_forces_w`, newest first, shape (num_envs, history_length, num_sensors)."""
        return self._proxies["net_forces_w_history"]

    @property
    def net_normal_forces_w_history(self) -> ProxyArray:
        """History of :attr:`net_normal_forces_w`, newest first."""
        return self._proxies["net_normal_forces_w_history"]

    @property
    def net_friction_forces_w_history(self) -> ProxyArray:
        """History of :attr:`net_friction_forces_w`, newest first."""
        return self._proxies["net_friction_forces_w_history"]

    @property
    def force_matrix_w(self) -> ProxyArray | None:
        """Total force on each sensor body from each filter body [N], shape (num_envs, num_sensors, num_filters)."""
        return self._proxies["force_matrix_w"]

    @property
    def normal_force_matrix_w(self) -> ProxyArray | None:
        """Normal part of :attr:`force_matrix_w` [N]."""
        return self._proxies["normal_force_matrix_w"]

    @property
    def friction_force_matrix_w(self) -> ProxyArray | None:
        """Friction part of :attr:`force_matrix_w` [N]."""
        return self._proxies["friction_force_matrix_w"]

    @property
    def force_matrix_w_history(self) -> ProxyArray | None:
        """History of :attr:`force_matrix_w`, newest first."""
        return self._proxies["force_matrix_w_history"]

    @property
    def normal_force_matrix_w_history(self) -> ProxyArray | None:
        """History of :attr:`normal_force_matrix_w`, newest first."""
        return self._proxies["normal_force_matrix_w_history"]

    @property
    def friction_force_matrix_w_history(self) -> ProxyArray | None:
        """History of :attr:`friction_force_matrix_w`, newest first."""
        return self._proxies["friction_force_matrix_w_history"]

    @property
    def contact_pos_w(self) -> ProxyArray | None:
        """Not provided by the Newton backend yet."""
        raise NotImplementedError("ContactSensorData.contact_pos_w (track_contact_points) is not supported yet.")

    @property
    def current_air_time(self) -> ProxyArray | None:
        """Time since the body last lost contact [s] (``track_air_time=True``)."""
        return self._proxies["current_air_time"]

    @property
    def last_air_time(self) -> ProxyArray | None:
        """Duration of the last completed air phase [s]."""
        return self._proxies["last_air_time"]

    @property
    def current_contact_time(self) -> ProxyArray | None:
        """Time since the body last made contact [s]."""
        return self._proxies["current_contact_time"]

    @property
    def last_contact_time(self) -> ProxyArray | None:
        """Duration of the last completed contact phase [s]."""
        return self._proxies["last_contact_time"]
