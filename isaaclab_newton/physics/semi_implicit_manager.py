"""Manager running :class:`newton.solvers.SolverSemiImplicit`."""

from __future__ import annotations

import newton
from newton.solvers import SolverSemiImplicit

from .newton_manager import NewtonManager
from .newton_solver_cfg import cfg_kwargs
from .semi_implicit_manager_cfg import SemiImplicitSolverCfg

_KWARGS = (
    "angular_damping",
    "joint_attach_ke",
    "joint_attach_kd",
    "joint_mimic_ke",
    "joint_mimic_kd",
    "enable_tri_contact",
)


class NewtonSemiImplicitManager(NewtonManager):
    """Runs semi-implicit Euler on Newton's collision pipeline, double-buffered, with ``State.body_f`` input."""

    @classmethod
    def _create_solver(cls, model: newton.Model, solver_cfg: SemiImplicitSolverCfg) -> SolverSemiImplicit:
        for name in ("joint_attach_ke", "joint_attach_kd"):
            if getattr(solver_cfg, name) < 0.0:
                raise ValueError(f"SemiImplicitSolverCfg.{name} must be >= 0, got {getattr(solver_cfg, name)}.")
        return SolverSemiImplicit(model, **cfg_kwargs(solver_cfg, _KWARGS))

    @classmethod
    def _build_solver(cls, model: newton.Model, solver_cfg: SemiImplicitSolverCfg) -> None:
        NewtonManager._solver = cls._create_solver(model, solver_cfg)
        NewtonManager._use_single_state = False
        NewtonManager._needs_collision_pipeline = True
        NewtonManager._supports_rigid_body_force_input = True
