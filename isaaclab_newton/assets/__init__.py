"""Isaac Lab asset backends on Newton: core's factories resolve ``isaaclab.assets.X`` to these classes."""

from .articulation import Articulation, ArticulationData

__all__ = ["Articulation", "ArticulationData"]
