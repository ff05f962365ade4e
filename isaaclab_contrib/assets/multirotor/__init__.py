"""Multirotor asset on Newton."""

from .multirotor import Multirotor
from .multirotor_cfg import MultirotorCfg
from .multirotor_data import MultirotorData

__all__ = ["Multirotor", "MultirotorCfg", "MultirotorData"]
