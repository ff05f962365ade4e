"""Manager running :class:`newton.solvers.SolverXPBD`."""

from __future__ import annotations

import newton
from newton.solvers import SolverXPBD

from .newton_manager import NewtonManager
from .newton_solver_cfg import cfg_kwargs
from .xpbd_manager_cfg import XPBDSolverCfg

_KWARGS = (
    "iterations",
    "soft_body_relaxation",
    "soft_contact_relaxation",
    "joint_linear_relaxation",
    "joint_angular_relaxation",
    "rigid_contact_relaxation",
    "angular_damping",
    "enable_restitution",
)


class NewtonXPBDManager(NewtonManager):
    """Runs XPBD on Newton's collision pipeline, double-buffered, with external wrenches from ``State.body_f``."""

    @classmethod
    def _create_solver(cls, model: newton.Model, solver_cfg: XPBDSolverCfg) -> SolverXPBD:
        if solver_cfg.iterations < 1:
            raise ValueError(f"XPBDSolverCfg.iterations must be >= 1, got {solver_cfg.iterations}.")
        return SolverXPBD(model, **cfg_kwargs(solver_cfg, _KWARGS))

    @classmethod
    def _build_solver(cls, model: newton.Model, solver_cfg: XPBDSolverCfg) -> None:
        NewtonManager._solver = cls._create_solver(model, solver_cfg)
        NewtonManager._use_single_state = False
        NewtonManager._needs_collision_pipeline = True
        NewtonManager._supports_rigid_body_force_input = True
