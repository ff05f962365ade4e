"""Configuration of the Lee geometric position controller."""

from __future__ import annotations

from dataclasses import MISSING

from isaaclab.utils import configclass

from .lee_position_control import LeePosController
from .lee_velocity_control_cfg import LeeVelControllerCfg


@configclass
class LeePosControllerCfg(LeeVelControllerCfg):
    """Gains and limits of :class:`LeePosController`: the velocity controller's, plus position gains."""

    class_type: type = LeePosController

    K_pos_range: tuple[tuple[float, float, float], tuple[float, float, float]] = MISSING  # noqa: N815
    """Position gains [1/s^2]: commanded acceleration per position error, world axes."""
