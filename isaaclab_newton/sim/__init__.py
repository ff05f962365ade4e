"""Offline spawners and schema fragments for the Newton backend (no Isaac Sim importer needed)."""

from .spawners import (
    ClothGridCfg,
    ClothMeshCfg,
    DeformableMaterialCfg,
    GroundPlaneCfg,
    MjcfFileCfg,
    MPMGridCfg,
    MPMParticleMaterialCfg,
    NewtonUsdFileCfg,
    SoftGridCfg,
    SoftMeshCfg,
    UrdfFileCfg,
)

__all__ = [
    "ClothGridCfg",
    "ClothMeshCfg",
    "DeformableMaterialCfg",
    "GroundPlaneCfg",
    "MPMGridCfg",
    "MPMParticleMaterialCfg",
    "MjcfFileCfg",
    "NewtonUsdFileCfg",
    "SoftGridCfg",
    "SoftMeshCfg",
    "UrdfFileCfg",
]
