"""Pose-velocity-acceleration sensor on the BODY_QDD solver observable."""

from .pva import Pva
from .pva_data import PvaData

__all__ = ["Pva", "PvaData"]
