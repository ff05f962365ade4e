"""Custom shared-model coupled managers (several Newton solvers on one model, a fixed substep order)."""

from .coupled_solver import CoupledMJWarpVBDSolver
from .coupled_mjwarp_vbd_manager import NewtonCoupledMJWarpVBDManager
from .coupled_mjwarp_vbd_manager_cfg import CoupledMJWarpVBDSolverCfg

__all__ = ["CoupledMJWarpVBDSolver", "CoupledMJWarpVBDSolverCfg", "NewtonCoupledMJWarpVBDManager"]
