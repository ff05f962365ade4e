"""Newton physics manager, solver managers and their configurations for Isaac Lab.

The solver managers load on first use (``from isaaclab_newton.physics import NewtonXPBDManager`` works as
usual): each imports its Newton solver's kernels, seconds of import time a task on another solver never needs.
Their cfgs name them by ``"module:Class"`` strings, so importing a cfg loads no solver.
"""

import importlib

from .builder_defaults_cfg import NewtonShapeCfg, NewtonSoftContactCfg
from .featherstone_manager_cfg import FeatherstoneSolverCfg
from .kamino_manager_cfg import KaminoPADMMCfg, KaminoPADMMSolverCfg, KaminoSolverCfg
from .mjwarp_manager_cfg import MJWarpSolverCfg
from .mpm_manager_cfg import MPMSolverCfg
from .newton_manager import NewtonManager
from .newton_manager_cfg import NewtonCfg, NewtonCollisionPipelineCfg
from .newton_solver_cfg import NewtonSolverCfg
from .scene_index import ENTITY_KINDS, BodySelection, PrimEntities, SceneIndex
from .semi_implicit_manager_cfg import SemiImplicitSolverCfg
from .vbd_manager_cfg import VBDSolverCfg
from .xpbd_manager_cfg import XPBDSolverCfg

_SOLVER_MANAGERS = {
    "NewtonFeatherstoneManager": "featherstone_manager",
    "NewtonKaminoManager": "kamino_manager",
    "NewtonMJWarpManager": "mjwarp_manager",
    "NewtonMPMManager": "mpm_manager",
    "NewtonSemiImplicitManager": "semi_implicit_manager",
    "NewtonVBDManager": "vbd_manager",
    "NewtonXPBDManager": "xpbd_manager",
}
"""Solver manager class -> its module in this package, imported on first attribute access."""


def __getattr__(name: str):
    if name in _SOLVER_MANAGERS:
        return getattr(importlib.import_module(f".{_SOLVER_MANAGERS[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
    "VBDSolverCfg",
    "XPBDSolverCfg",
]
