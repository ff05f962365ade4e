"""Offline spawners and schema fragments for the Newton backend (no Isaac Sim importer needed)."""

from .spawners import GroundPlaneCfg, MjcfFileCfg, NewtonUsdFileCfg, UrdfFileCfg

__all__ = ["GroundPlaneCfg", "MjcfFileCfg", "NewtonUsdFileCfg", "UrdfFileCfg"]
