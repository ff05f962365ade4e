"""Newton physics manager, solver managers and their configurations for Isaac Lab."""

from .builder_defaults_cfg import NewtonShapeCfg, NewtonSoftContactCfg
from .featherstone_manager import NewtonFeatherstoneManager
from .featherstone_manager_cfg import FeatherstoneSolverCfg
from .kamino_manager import NewtonKaminoManager
from .kamino_manager_cfg import KaminoPADMMCfg, KaminoPADMMSolverCfg, KaminoSolverCfg
from .mjwarp_manager import NewtonMJWarpManager
from .mjwarp_manager_cfg import MJWarpSolverCfg
from .mpm_manager import NewtonMPMManager
from .mpm_manager_cfg import MPMSolverCfg
from .newton_manager import NewtonManager
from .newton_manager_cfg import NewtonCfg, NewtonCollisionPipelineCfg
from .newton_solver_cfg import NewtonSolverCfg
from .scene_index import ENTITY_KINDS, BodySelection, PrimEntities, SceneIndex
from .semi_implicit_manager import NewtonSemiImplicitManager
from .semi_implicit_manager_cfg import SemiImplicitSolverCfg
from .solver_slots import SolverSlots
from .vbd_manager import NewtonVBDManager
from .vbd_manager_cfg import VBDSolverCfg
from .xpbd_manager import NewtonXPBDManager
from .xpbd_manager_cfg import XPBDSolverCfg

__all__ = [
    "ENTITY_KINDS",
    "BodySelection",
    "FeatherstoneSolverCfg",
    "KaminoPADMMCfg",
    "KaminoPADMMSolverCfg",
    "KaminoSolverCfg",
    "MJWarpSolverCfg",
    "MPMSolverCfg",
    "NewtonCfg",
    "NewtonCollisionPipelineCfg",
    "NewtonFeatherstoneManager",
    "NewtonKaminoManager",
    "NewtonMJWarpManager",
    "NewtonMPMManager",
    "NewtonManager",
    "NewtonSemiImplicitManager",
    "NewtonShapeCfg",
    "NewtonSoftContactCfg",
    "NewtonSolverCfg",
    "NewtonVBDManager",
    "NewtonXPBDManager",
    "PrimEntities",
    "SceneIndex",
    "SemiImplicitSolverCfg",
    "SolverSlots",
    "VBDSolverCfg",
    "XPBDSolverCfg",
]
