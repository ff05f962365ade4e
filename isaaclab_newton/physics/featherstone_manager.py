"""Manager running :class:`newton.solvers.SolverFeatherstone`."""

from __future__ import annotations

import newton
from newton.solvers import SolverFeatherstone

from .featherstone_manager_cfg import FeatherstoneSolverCfg
from .newton_manager import NewtonManager
from .solver_slots import SolverSlots


class NewtonFeatherstoneManager(NewtonManager):
    """Runs Featherstone on Newton's collision pipeline, double-buffered, with wrenches from ``State.body_f``."""

    @classmethod
    def _create_solver(cls, model: newton.Model, solver_cfg: FeatherstoneSolverCfg) -> SolverFeatherstone:
        if solver_cfg.update_mass_matrix_interval < 1:
            raise ValueError(
                "FeatherstoneSolverCfg.update_mass_matrix_interval must be >= 1, got"
                f" {solver_cfg.update_mass_matrix_interval}."
            )
        unjointed = _unjointed_bodies(model)
        if unjointed:
            raise ValueError(
                f"SolverFeatherstone simulates bodies through their joints, but bodies {unjointed[:8]} have no inbound"
                " joint and would not move: attach each with a joint (ModelBuilder.add_body adds a free joint) or"
                " pick XPBDSolverCfg."
            )
        return SolverFeatherstone(
            model,
            angular_damping=solver_cfg.angular_damping,
            update_mass_matrix_interval=solver_cfg.update_mass_matrix_interval,
            use_tile_gemm=solver_cfg.use_tile_gemm,
            fuse_cholesky=solver_cfg.fuse_cholesky,
        )

    @classmethod
    def _build_solver(cls, model: newton.Model, solver_cfg: FeatherstoneSolverCfg) -> SolverSlots:
        return SolverSlots(cls._create_solver(model, solver_cfg))


def _unjointed_bodies(model: newton.Model) -> list[int]:
    if not model.body_count:
        return []
    children = set(model.joint_child.numpy().tolist()) if model.joint_count else set()
    return [body for body in range(model.body_count) if body not in children]
