"""Manager running :class:`newton.solvers.SolverFeatherstone`."""

from __future__ import annotations

import newton
from newton.solvers import SolverFeatherstone

from .featherstone_manager_cfg import FeatherstoneSolverCfg
from .model_checks import unjointed_bodies
from .newton_manager import NewtonManager
from .newton_solver_cfg import cfg_kwargs

_KWARGS = ("angular_damping", "update_mass_matrix_interval", "use_tile_gemm", "fuse_cholesky")


class NewtonFeatherstoneManager(NewtonManager):
    """Runs Featherstone on Newton's collision pipeline, double-buffered, with wrenches from ``State.body_f``."""

    @classmethod
    def _create_solver(cls, model: newton.Model, solver_cfg: FeatherstoneSolverCfg) -> SolverFeatherstone:
        if (interval := solver_cfg.update_mass_matrix_interval) < 1:
            raise ValueError(f"FeatherstoneSolverCfg.update_mass_matrix_interval must be >= 1, got {interval}.")
        unjointed = unjointed_bodies(model)
        if unjointed:
            raise ValueError(
                f"SolverFeatherstone simulates bodies through their joints, but bodies {unjointed[:8]} have no inbound"
                " joint and would not move: attach each with a joint (ModelBuilder.add_body adds a free joint) or"
                " pick XPBDSolverCfg."
            )
        return SolverFeatherstone(model, **cfg_kwargs(solver_cfg, _KWARGS))

    @classmethod
    def _build_solver(cls, model: newton.Model, solver_cfg: FeatherstoneSolverCfg) -> None:
        NewtonManager._solver = cls._create_solver(model, solver_cfg)
        NewtonManager._use_single_state = False
        NewtonManager._needs_collision_pipeline = True
        NewtonManager._supports_rigid_body_force_input = True
