"""Assets built on the Newton backend's articulation: multirotors driven by rotor thrusters."""

from .multirotor import Multirotor, MultirotorCfg, MultirotorData

__all__ = ["Multirotor", "MultirotorCfg", "MultirotorData"]
