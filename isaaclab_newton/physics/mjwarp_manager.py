"""Manager running :class:`newton.solvers.SolverMuJoCo` (MuJoCo Warp or MuJoCo C)."""

from __future__ import annotations

import functools

import newton
from newton.solvers import SolverMuJoCo

from .mjwarp_manager_cfg import MJWarpSolverCfg
from .mujoco_substep import step_mujoco
from .newton_manager import NewtonManager
from .newton_solver_cfg import NewtonSolverCfg, cfg_kwargs
from .solver_slots import SolverSlots

_OPTIONAL_KWARGS = (
    "njmax",
    "nconmax",
    "iterations",
    "ls_iterations",
    "ccd_iterations",
    "solver",
    "integrator",
    "cone",
    "impratio",
    "tolerance",
    "ls_tolerance",
    "disable_contacts",
    "update_data_interval",
)


class NewtonMJWarpManager(NewtonManager):
    """Runs MuJoCo Warp. With ``use_mujoco_contacts`` MuJoCo detects contacts itself and exports them into a
    pipeline sized from :meth:`SolverMuJoCo.get_max_contact_count`; the manager never collides then."""

    @classmethod
    def _create_solver(cls, model: newton.Model, solver_cfg: MJWarpSolverCfg) -> SolverMuJoCo:
        kwargs = cfg_kwargs(solver_cfg, optional=_OPTIONAL_KWARGS)
        if solver_cfg.ls_parallel:
            raise ValueError(
                "MJWarpSolverCfg.ls_parallel=True cannot be honoured: MuJoCo Warp 3.9.1 removed the parallel line"
                " search. Set ls_parallel=False."
            )
        if solver_cfg.use_mujoco_cpu and "cuda" in str(model.device):
            raise ValueError("MJWarpSolverCfg(use_mujoco_cpu=True) needs device='cpu'; MuJoCo C runs on the CPU only.")
        return SolverMuJoCo(
            model,
            use_mujoco_cpu=solver_cfg.use_mujoco_cpu,
            use_mujoco_contacts=solver_cfg.use_mujoco_contacts,
            **kwargs,
        )

    @classmethod
    def _build_solver(cls, model: newton.Model, solver_cfg: MJWarpSolverCfg) -> SolverSlots:
        solver = cls._create_solver(model, solver_cfg)
        return SolverSlots(
            solver,
            needs_collision_pipeline=not solver_cfg.use_mujoco_contacts,
            substep=functools.partial(step_mujoco, solver),
        )

    @classmethod
    def _register_builder_attributes(cls, builder: newton.ModelBuilder, solver_cfg: NewtonSolverCfg | None) -> None:
        SolverMuJoCo.register_custom_attributes(builder)

    @classmethod
    def _initialize_contacts(
        cls, solver_cfg: MJWarpSolverCfg
    ) -> tuple[newton.CollisionPipeline | None, newton.Contacts | None]:
        if not solver_cfg.use_mujoco_contacts:
            return super()._initialize_contacts(solver_cfg)
        # MuJoCo collides internally: export storage only, sized from MuJoCo's capacity; no pipeline runs.
        export = newton.CollisionPipeline(
            NewtonManager.get_model(),
            rigid_contact_max=NewtonManager.get_solver().get_max_contact_count(),
            soft_contact_max=0,
        )
        return None, export.contacts()

    @classmethod
    def _supports_cuda_graph_capture(cls, solver_cfg: MJWarpSolverCfg) -> bool:
        return not solver_cfg.use_mujoco_cpu
