"""Offline spawners and schema fragments for the Newton backend (no Isaac Sim importer needed)."""

from .spawners import (
    ClothGridCfg,
    ClothMeshCfg,
    DeformableMaterialCfg,
    GroundPlaneCfg,
    MjcfFileCfg,
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
    "MjcfFileCfg",
    "NewtonUsdFileCfg",
    "SoftGridCfg",
    "SoftMeshCfg",
    "UrdfFileCfg",
]
