"""Spawner configurations that load robot files with Newton's own importers (MJCF, URDF, USD)."""

from .file_spawners import spawn_ground_plane_marker, spawn_newton_file
from .file_spawners_cfg import GroundPlaneCfg, MjcfFileCfg, NewtonFileCfg, NewtonUsdFileCfg, UrdfFileCfg

__all__ = [
    "GroundPlaneCfg",
    "MjcfFileCfg",
    "NewtonFileCfg",
    "NewtonUsdFileCfg",
    "UrdfFileCfg",
    "spawn_ground_plane_marker",
    "spawn_newton_file",
]
