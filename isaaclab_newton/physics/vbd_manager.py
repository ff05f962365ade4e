"""Manager running :class:`newton.solvers.SolverVBD`."""

from __future__ import annotations

import newton
from newton.solvers import SolverVBD

from .model_checks import has_dynamic_bodies
from .newton_manager import NewtonManager
from .newton_solver_cfg import cfg_kwargs
from .vbd_manager_cfg import VBDSolverCfg

_KWARGS = (
    "friction_epsilon",
    "integrate_with_external_rigid_solver",
    "particle_enable_self_contact",
    "particle_enable_tile_solve",
    "rigid_avbd_gamma",
    "rigid_body_contact_buffer_size",
    "rigid_body_particle_contact_buffer_size",
)
_OPTIONAL_KWARGS = (
    "iterations",
    "particle_self_contact_margin",
    "particle_self_contact_gap",
    "rigid_joint_linear_ke",
    "rigid_joint_angular_ke",
    "rigid_joint_linear_kd",
    "rigid_joint_angular_kd",
)


class NewtonVBDManager(NewtonManager):
    """Runs VBD on Newton's collision pipeline, double-buffered, with wrenches from ``State.body_f``.

    VBD needs graph coloring of particles and rigid bodies; :meth:`_prepare_builder_for_finalize` colors the
    builder right before ``finalize()`` so scenes from ``set_builder``, USD or the cloner all get it.
    """

    @classmethod
    def _create_solver(cls, model: newton.Model, solver_cfg: VBDSolverCfg) -> SolverVBD:
        if solver_cfg.iterations is not None and solver_cfg.iterations < 1:
            raise ValueError(f"VBDSolverCfg.iterations must be >= 1 or None, got {solver_cfg.iterations}.")
        return SolverVBD(model, **cfg_kwargs(solver_cfg, _KWARGS, optional=_OPTIONAL_KWARGS))

    @classmethod
    def _build_solver(cls, model: newton.Model, solver_cfg: VBDSolverCfg) -> None:
        if solver_cfg.integrate_with_external_rigid_solver and has_dynamic_bodies(model):
            raise ValueError(
                "VBDSolverCfg(integrate_with_external_rigid_solver=True) leaves rigid bodies to another solver, but"
                " the standalone VBD manager has none: the model's dynamic bodies would never move. Set it to False,"
                " or use a coupled manager (e.g. CoupledMJWarpVBDSolverCfg)."
            )
        NewtonManager._solver = cls._create_solver(model, solver_cfg)
        NewtonManager._use_single_state = False
        NewtonManager._needs_collision_pipeline = True
        NewtonManager._supports_rigid_body_force_input = not solver_cfg.integrate_with_external_rigid_solver

    @classmethod
    def _prepare_builder_for_finalize(cls, builder: newton.ModelBuilder) -> None:
        if builder.particle_count or builder.body_count:
            include_bending = bool(getattr(NewtonManager.get_solver_cfg(), "color_include_bending", False))
            builder.color(include_bending=include_bending)
