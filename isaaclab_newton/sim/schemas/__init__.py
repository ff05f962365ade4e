"""Newton and MuJoCo schema fragments that Isaac Lab asset configurations import (e.g. ``CARTPOLE_CFG``)."""

from isaaclab.sim.schemas.backend_hooks import register_articulation_root_companion

from .schemas import apply_mujoco_fixed_tendon, apply_newton_sdf_collision, reject_newton_deformable
from .schemas_cfg import (
    MujocoCollisionCfg,
    MujocoFixedTendonCfg,
    MujocoJointCfg,
    MujocoRigidBodyCfg,
    NewtonArticulationCfg,
    NewtonCollisionCfg,
    NewtonDeformableBodyPropertiesCfg,
    NewtonMeshCollisionCfg,
    NewtonMeshCollisionPropertiesCfg,
    NewtonSDFCollisionPropertiesCfg,
)

register_articulation_root_companion("NewtonArticulationRootAPI", "newton")

__all__ = [
    "MujocoCollisionCfg",
    "MujocoFixedTendonCfg",
    "MujocoJointCfg",
    "MujocoRigidBodyCfg",
    "NewtonArticulationCfg",
    "NewtonCollisionCfg",
    "NewtonDeformableBodyPropertiesCfg",
    "NewtonMeshCollisionCfg",
    "NewtonMeshCollisionPropertiesCfg",
    "NewtonSDFCollisionPropertiesCfg",
    "apply_mujoco_fixed_tendon",
    "apply_newton_sdf_collision",
    "reject_newton_deformable",
]
