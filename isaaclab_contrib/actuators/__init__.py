"""Multirotor actuators: rotor thrusters with first-order motor dynamics."""

from .thruster import Thruster
from .thruster_cfg import ThrusterCfg

__all__ = ["Thruster", "ThrusterCfg"]
