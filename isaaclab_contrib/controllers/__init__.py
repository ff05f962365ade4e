"""Multirotor controllers: Lee geometric velocity and position control, batched over envs in torch."""

from .lee_position_control import LeePosController
from .lee_position_control_cfg import LeePosControllerCfg
from .lee_velocity_control import LeeVelController
from .lee_velocity_control_cfg import LeeVelControllerCfg

__all__ = ["LeePosController", "LeePosControllerCfg", "LeeVelController", "LeeVelControllerCfg"]
