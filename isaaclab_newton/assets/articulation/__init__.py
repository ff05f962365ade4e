"""Articulation on Newton."""

from .articulation import Articulation
from .articulation_data import ArticulationData

__all__ = ["Articulation", "ArticulationData"]
