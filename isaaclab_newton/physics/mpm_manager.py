"""Manager running :class:`newton.solvers.SolverImplicitMPM`."""

from __future__ import annotations

from typing import TYPE_CHECKING

import newton
import warp as wp
from newton.solvers import SolverImplicitMPM

from .model_checks import has_dynamic_bodies
from .mpm_manager_cfg import MPMSolverCfg
from .newton_manager import NewtonManager
from .newton_solver_cfg import cfg_kwargs

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
    "max_leaf_node_count",
    "max_lower_node_count",
    "max_upper_node_count",
    "solver",
    "warmstart_mode",
    "collider_velocity_mode",
    "strain_basis",
    "velocity_basis",
    "collider_basis",
)


class _ProjectingImplicitMPM(SolverImplicitMPM):
    """Implicit MPM that projects particles found inside colliders back to their surface after every step.

    Projection is part of the solver's step, so it also runs where a coupler steps the solver as an entry.
    """

    def step(
        self,
        state_in: newton.State,
        state_out: newton.State,
        control: newton.Control,
        contacts: newton.Contacts | None,
        dt: float,
        *,
        observables: SolverBase.Observables | None = None,
    ) -> None:
        super().step(state_in, state_out, control, contacts, dt, observables=observables)
        self.project_outside(state_out, state_out, dt)


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
    def reset_solver_state(cls, *, world_mask: wp.array | None = None, flags: int | None = None) -> None:
        """Reset the running solver's history of the masked worlds now (MPM alone or inside a coupler).

        For MPM this clears the particles' deformation, stress and velocity-gradient history, warm starts and the
        cached collider poses of the selected worlds; a coupler forwards it to every entry. Particle positions and
        velocities are not changed: write them first (e.g. :meth:`MPMObject.write_particle_state_to_sim_index
        <isaaclab_newton.assets.MPMObject.write_particle_state_to_sim_index>`). Nothing is read back to the host.

        Args:
            world_mask: Boolean Warp array of shape ``(world_count + 1,)`` on the model device; the last entry
                selects the shared world ``-1``. ``None`` resets every world.
            flags: :class:`newton.StateFlags` bitmask of the state quantities to reset (``None``: all).

        Raises:
            RuntimeError: If no solver is running (before ``sim.reset()``).
            ValueError: If ``world_mask`` is not a boolean array of shape ``(world_count + 1,)``.
        """
        solver, model = NewtonManager.get_solver(), NewtonManager.get_model()
        if solver is None or model is None:
            raise RuntimeError("reset_solver_state() needs a running solver: call sim.reset() first.")
        if world_mask is not None:
            expected = (model.world_count + 1,)
            if not isinstance(world_mask, wp.array) or world_mask.dtype != wp.bool or world_mask.shape != expected:
                got = f"{type(world_mask).__name__} of shape {getattr(world_mask, 'shape', None)}"
                raise ValueError(
                    f"reset_solver_state(world_mask=...) needs a wp.bool array of shape {expected} (one entry per"
                    f" world plus the shared world), got a {got}; build it with wp.from_torch(mask, dtype=wp.bool)."
                )
        solver.reset(NewtonManager.get_state_0(), world_mask=world_mask, flags=flags)
        NewtonManager.note_state_write()

    @classmethod
    def _create_solver(cls, model: newton.Model, solver_cfg: MPMSolverCfg) -> SolverImplicitMPM:
        if solver_cfg.voxel_size <= 0.0:
            raise ValueError(f"MPMSolverCfg.voxel_size must be > 0 [m], got {solver_cfg.voxel_size}.")
        if solver_cfg.separate_worlds and model.world_count > 1 and not wp.get_device(model.device).is_cuda:
            raise ValueError(
                "MPMSolverCfg.separate_worlds=True needs a CUDA device: Newton builds the per-world grids with NanoVDB,"
                " which is CUDA-only. On CPU set separate_worlds=False (one grid shared by all worlds; keep the envs"
                " farther apart than a few voxels)."
            )
        config = SolverImplicitMPM.Config(**cfg_kwargs(solver_cfg, _CONFIG_FIELDS))
        solver_type = _ProjectingImplicitMPM if solver_cfg.project_outside_colliders else SolverImplicitMPM
        return solver_type(model, config)

    @classmethod
    def _build_solver(cls, model: newton.Model, solver_cfg: MPMSolverCfg) -> None:
        # Alone, MPM moves particles only; inside a coupler other entries integrate the bodies.
        if has_dynamic_bodies(model):
            raise ValueError(
                "The MPM manager integrates particles only, but the model has dynamic rigid bodies that would never"
                " move. Give them zero mass (static/kinematic colliders) or use a coupled manager."
            )
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
    def _supports_cuda_graph_capture(cls) -> bool:
        return False
