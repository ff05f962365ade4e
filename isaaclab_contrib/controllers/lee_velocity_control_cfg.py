"""Configuration of the Lee geometric velocity controller."""

from __future__ import annotations

from dataclasses import MISSING

from isaaclab.utils import configclass

from .lee_velocity_control import LeeVelController


@configclass
class LeeVelControllerCfg:
    """Gains and limits of :class:`LeeVelController`.

    Gain ranges are ``((low x, y, z), (high x, y, z))``; every env draws its gains uniformly between them when
    the controller is built and when its envs reset.
    """

    class_type: type = LeeVelController

    K_vel_range: tuple[tuple[float, float, float], tuple[float, float, float]] = MISSING  # noqa: N815
    """Velocity gains [1/s]: commanded acceleration per velocity error, world axes."""

    K_rot_range: tuple[tuple[float, float, float], tuple[float, float, float]] = MISSING  # noqa: N815
    """Attitude gains [N m/rad], body axes."""

    K_angvel_range: tuple[tuple[float, float, float], tuple[float, float, float]] = MISSING  # noqa: N815
    """Angular-rate gains [N m s/rad], body axes."""

    max_inclination_angle_rad: float = 1.0471975511965976
    """Largest tilt of the commanded force from world +z [rad]."""

    max_yaw_rate: float = 1.0471975511965976
    """Largest commanded yaw rate [rad/s]."""
