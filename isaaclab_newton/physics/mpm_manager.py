"""Manager running :class:`newton.solvers.SolverImplicitMPM`."""

from __future__ import annotations

from typing import TYPE_CHECKING

import newton
import numpy as np
from newton.solvers import SolverImplicitMPM

from .mpm_manager_cfg import MPMSolverCfg
from .newton_manager import NewtonManager

if TYPE_CHECKING:
    from newton.solvers import SolverBase

_CONFIG_FIELDS = (
    "voxel_size",
    "grid_type",
    "max_iterations",
    "tolerance",
    "transfer_scheme",
    "integration_scheme",
    "air_drag",
    "separate_worlds",
    "grid_padding",
    "max_active_cell_count",
    "solver",
    "warmstart_mode",
    "collider_velocity_mode",
    "strain_basis",
    "velocity_basis",
    "collider_basis",
)


class NewtonMPMManager(NewtonManager):
    """Runs implicit MPM on the model's particles, in place on one state.

    MPM steps in place (``state_in`` may be ``state_out``) and attaches grid-transfer arrays to its output state;
    ping-ponging would leave those on one state only and break the odd-substep copy, so the manager keeps one
    state.

    MPM collides particles with the model's shapes itself, so the manager owns no collision pipeline and passes
    no contacts. It overrides both builder hooks: :meth:`_register_builder_attributes` registers the ``mpm:*``
    material attributes, and :meth:`_prepare_builder_for_finalize` rejects scenes MPM cannot advance before any
    model is built. The substep loop runs eagerly: outside fixed-capacity CUDA grids MPM sizes its grid on the host.
    """

    @classmethod
    def _create_solver(cls, model: newton.Model, solver_cfg: MPMSolverCfg) -> SolverImplicitMPM:
        if solver_cfg.voxel_size <= 0.0:
            raise ValueError(f"MPMSolverCfg.voxel_size must be > 0 [m], got {solver_cfg.voxel_size}.")
        if model.body_count and np.any(model.body_inv_mass.numpy() > 0.0):
            raise ValueError(
                "The MPM manager integrates particles only, but the model has dynamic rigid bodies that would never"
                " move. Give them zero mass (static/kinematic colliders) or use a coupled manager."
            )
        config = SolverImplicitMPM.Config(**{name: getattr(solver_cfg, name) for name in _CONFIG_FIELDS})
        return SolverImplicitMPM(model, config)

    @classmethod
    def _build_solver(cls, model: newton.Model, solver_cfg: MPMSolverCfg) -> None:
        NewtonManager._solver = cls._create_solver(model, solver_cfg)
        NewtonManager._use_single_state = True
        NewtonManager._needs_collision_pipeline = False
        NewtonManager._supports_rigid_body_force_input = False

    @classmethod
    def _register_builder_attributes(cls, builder: newton.ModelBuilder) -> None:
        SolverImplicitMPM.register_custom_attributes(builder)

    @classmethod
    def _prepare_builder_for_finalize(cls, builder: newton.ModelBuilder) -> None:
        if builder.particle_count == 0:
            raise ValueError(
                "MPMSolverCfg needs particles, but the scene has none: add them to the builder (e.g."
                " builder.add_particle_grid(...)) before sim.reset()."
            )

    @classmethod
    def _step_solver(
        cls,
        state_0: newton.State,
        state_1: newton.State,
        control: newton.Control,
        contacts: newton.Contacts | None,
        substep_dt: float,
        *,
        observables: SolverBase.Observables | None = None,
    ) -> None:
        """Advance one substep in place, then project particles that entered colliders back to their surface."""
        solver = NewtonManager._solver
        solver.step(state_0, state_1, control, None, substep_dt, observables=observables)
        if NewtonManager._solver_cfg.project_outside_colliders:
            solver.project_outside(state_1, state_1, substep_dt)

    @classmethod
    def _supports_cuda_graph_capture(cls) -> bool:
        return False
