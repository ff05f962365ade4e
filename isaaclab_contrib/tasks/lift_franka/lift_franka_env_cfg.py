"""Task configurations: ``Isaac-Lift-Soft-Franka-v0`` (soft beam) and ``Isaac-Lift-Cloth-Franka-v0`` (cloth square)."""

from __future__ import annotations

from isaaclab.assets import DeformableObjectCfg
from isaaclab.utils import configclass

from isaaclab_newton.sim import ClothGridCfg, DeformableMaterialCfg, SoftGridCfg

from .lift_franka_env import LiftFrankaEnvCfg

BEAM_CFG = DeformableObjectCfg(
    prim_path="{ENV_REGEX_NS}/Object",
    spawn=SoftGridCfg(
        size=(0.04, 0.3, 0.04),
        resolution=(2, 12, 2),
        material=DeformableMaterialCfg(youngs_modulus=2.0e5, poisson_ratio=0.3, density=1000.0, damping=1.0),
    ),
    init_state=DeformableObjectCfg.InitialStateCfg(pos=(0.48, -0.15, 0.005)),
)
"""A 0.3 x 0.04 x 0.04 m beam (E 2e5 Pa, nu 0.3, 48 g) lying across the gripper's closing direction.

Its bottom nodes start one particle radius (5 mm) above the ground, where they rest: at z = 0 they would start
inside the ground's contact margin and be pushed out, launching the beam about 4 cm up after every reset.
"""

CLOTH_CFG = DeformableObjectCfg(
    prim_path="{ENV_REGEX_NS}/Object",
    spawn=ClothGridCfg(
        size=(0.2, 0.2),
        resolution=(10, 10),
        material=DeformableMaterialCfg(
            youngs_modulus=1.0e6, poisson_ratio=0.3, density=500.0, thickness=2.0e-3, damping=1.0e-2
        ),
    ),
    init_state=DeformableObjectCfg.InitialStateCfg(pos=(0.4, -0.1, 0.005)),
)
"""A 0.2 m cloth square (E 1e6 Pa, 2 mm, 40 g) flat on the ground, centred below the gripper."""


@configclass
class LiftSoftFrankaEnvCfg(LiftFrankaEnvCfg):
    """Lift a soft beam."""

    object_cfg: DeformableObjectCfg = BEAM_CFG


@configclass
class LiftClothFrankaEnvCfg(LiftFrankaEnvCfg):
    """Lift a cloth square."""

    object_cfg: DeformableObjectCfg = CLOTH_CFG
