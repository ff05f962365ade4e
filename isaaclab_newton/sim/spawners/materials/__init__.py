"""Newton physics materials for Isaac Lab spawners."""

from .physics_materials import reject_newton_deformable_material
from .physics_materials_cfg import (
    NewtonDeformableBodyMaterialCfg,
    NewtonMaterialCfg,
    NewtonSurfaceDeformableBodyMaterialCfg,
)

__all__ = [
    "NewtonDeformableBodyMaterialCfg",
    "NewtonMaterialCfg",
    "NewtonSurfaceDeformableBodyMaterialCfg",
    "reject_newton_deformable_material",
]
