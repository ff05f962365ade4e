"""Configurations of the multirotor action terms."""

from __future__ import annotations

from dataclasses import MISSING

from isaaclab.managers import ActionTermCfg
from isaaclab.utils import configclass

from ..controllers import LeeVelControllerCfg
from .thrust_actions import NavigationAction, ThrustAction


@configclass
class ThrustActionCfg(ActionTermCfg):
    """Rotor thrusts from actions: ``thrust_target = action * scale + offset``, clipped per rotor by ``clip``.

    ``clip`` maps thruster-name expressions to (min, max) thrust [N].
    """

    class_type: type = ThrustAction

    thruster_names_expr: list[str] = [".*"]
    """Thrusters driven by the term (expressions over :attr:`Multirotor.thruster_names`)."""

    scale: float | dict[str, float] = 1.0
    """Thrust per unit action [N], one value or per thruster-name expression."""

    offset: float | dict[str, float] = 0.0
    """Thrust at zero action [N], one value or per thruster-name expression."""

    preserve_order: bool = False
    """Whether the action columns follow ``thruster_names_expr`` order (else the multirotor's thruster order)."""

    use_default_offset: bool = False
    """Use the thrust at the default rotor speeds (``init_state.rps``) as the offset instead of :attr:`offset`."""


@configclass
class NavigationActionCfg(ActionTermCfg):
    """Three actions in [-1, 1] to a velocity and yaw-rate command, tracked by a Lee velocity controller.

    After ``action * scale + offset`` and clamping to [-1, 1]: ``a0`` sets the speed ``(a0 + 1) / 2 *
    max_magnitude``, ``a1`` the climb angle ``a1 * max_inclination_angle`` of the velocity in the heading's
    vertical plane, ``a2`` the yaw rate ``a2 * max_yaw_command``. The velocity is expressed in the yaw-aligned
    frame (forward along the current heading).
    """

    class_type: type = NavigationAction

    controller_cfg: LeeVelControllerCfg = MISSING
    """The velocity controller."""

    scale: float = 1.0
    """Scale of the raw actions."""

    offset: float = 0.0
    """Offset of the raw actions."""

    preserve_order: bool = False
    """Not applicable (the term drives no named joints or rotors); ``True`` raises when the env is built."""

    use_default_offset: bool = False
    """Not applicable (no default command); ``True`` raises when the env is built."""

    max_magnitude: float = 2.0
    """Largest commanded speed [m/s]."""

    max_yaw_command: float = 1.0471975511965976
    """Largest commanded yaw rate [rad/s]."""

    max_inclination_angle: float = 0.7853981633974483
    """Largest climb or descent angle of the commanded velocity [rad]."""
