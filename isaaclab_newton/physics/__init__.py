"""Newton physics manager and solver managers for Isaac Lab."""

from .featherstone_manager_cfg import FeatherstoneSolverCfg
from .kamino_manager_cfg import KaminoPADMMSolverCfg, KaminoSolverCfg
from .mjwarp_manager_cfg import MJWarpSolverCfg
from .mpm_manager_cfg import MPMSolverCfg
from .newton_manager import NewtonManager
from .newton_manager_cfg import NewtonCfg, NewtonCollisionCfg, NewtonSolverCfg
from .scene_index import ENTITY_KINDS, BodySelection, PrimEntities, SceneIndex
from .semi_implicit_manager_cfg import SemiImplicitSolverCfg
from .vbd_manager_cfg import VBDSolverCfg
from .xpbd_manager_cfg import XPBDSolverCfg

__all__ = [
    "ENTITY_KINDS",
    "BodySelection",
    "FeatherstoneSolverCfg",
    "KaminoPADMMSolverCfg",
    "KaminoSolverCfg",
    "MJWarpSolverCfg",
    "MPMSolverCfg",
    "NewtonCfg",
    "NewtonCollisionCfg",
    "NewtonManager",
    "NewtonSolverCfg",
    "PrimEntities",
    "SceneIndex",
    "SemiImplicitSolverCfg",
    "VBDSolverCfg",
    "XPBDSolverCfg",
]
