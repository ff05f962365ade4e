"""Newton physics manager and solver managers for Isaac Lab."""

from .mjwarp_manager_cfg import MJWarpSolverCfg
from .newton_manager import NewtonManager
from .newton_manager_cfg import NewtonCfg, NewtonCollisionCfg, NewtonSolverCfg
from .xpbd_manager_cfg import XPBDSolverCfg

__all__ = [
    "MJWarpSolverCfg",
    "NewtonCfg",
    "NewtonCollisionCfg",
    "NewtonManager",
    "NewtonSolverCfg",
    "XPBDSolverCfg",
]
