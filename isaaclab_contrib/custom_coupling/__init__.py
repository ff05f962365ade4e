"""Custom shared-model coupled managers (several Newton solvers on one model, a fixed substep order)."""

from .coupled_mjwarp_vbd_manager import NewtonCoupledMJWarpVBDManager
from .coupled_mjwarp_vbd_manager_cfg import CoupledMJWarpVBDSolverCfg
from .coupled_solver import CoupledMJWarpVBDSolver

__all__ = ["CoupledMJWarpVBDSolver", "CoupledMJWarpVBDSolverCfg", "NewtonCoupledMJWarpVBDManager"]
