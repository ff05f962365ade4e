"""Offline spawners: robot files with Newton's own importers (MJCF, URDF, USD), deformables and MPM particles."""

from .deformable_spawners import spawn_deformable_marker
from .deformable_spawners_cfg import (
    ClothGridCfg,
    ClothMeshCfg,
    DeformableMaterialCfg,
    DeformableSpawnerCfg,
    SoftGridCfg,
    SoftMeshCfg,
)
from .file_spawners import spawn_ground_plane_marker, spawn_newton_file
from .file_spawners_cfg import GroundPlaneCfg, MjcfFileCfg, NewtonFileCfg, NewtonUsdFileCfg, UrdfFileCfg
from .mpm import MPMGridCfg, MPMParticleMaterialCfg

__all__ = [
    "ClothGridCfg",
    "ClothMeshCfg",
    "DeformableMaterialCfg",
    "DeformableSpawnerCfg",
    "GroundPlaneCfg",
    "MPMGridCfg",
    "MPMParticleMaterialCfg",
    "MjcfFileCfg",
    "NewtonFileCfg",
    "NewtonUsdFileCfg",
    "SoftGridCfg",
    "SoftMeshCfg",
    "UrdfFileCfg",
    "spawn_deformable_marker",
    "spawn_ground_plane_marker",
    "spawn_newton_file",
]
