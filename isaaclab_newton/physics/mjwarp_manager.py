"""Manager running :class:`newton.solvers.SolverMuJoCo` (MuJoCo Warp or MuJoCo C)."""

from __future__ import annotations

import re
import warnings

import newton
from newton.solvers import SolverMuJoCo

from .mjwarp_manager_cfg import MJWarpSolverCfg
from .mujoco_substep import clear_rne_switch
from .newton_manager import NewtonManager
from .newton_solver_cfg import cfg_kwargs

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

_ZEROED_MARGIN = re.compile(r"^(?P<what>(Geom|Pair) .*): authored margin=.* zeroed for NATIVECCD")
"""SolverMuJoCo's per-geom (and per-pair) warning that MuJoCo's native collision drops an authored margin."""


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
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            solver = SolverMuJoCo(
                model,
                use_mujoco_cpu=solver_cfg.use_mujoco_cpu,
                use_mujoco_contacts=solver_cfg.use_mujoco_contacts,
                **kwargs,
            )
        _replay_warnings(caught)
        return solver

    @classmethod
    def _build_solver(cls, model: newton.Model, solver_cfg: MJWarpSolverCfg) -> None:
        NewtonManager._solver = cls._create_solver(model, solver_cfg)
        NewtonManager._use_single_state = False
        NewtonManager._needs_collision_pipeline = not solver_cfg.use_mujoco_contacts
        NewtonManager._supports_rigid_body_force_input = True

    @classmethod
    def _register_builder_attributes(cls, builder: newton.ModelBuilder) -> None:
        SolverMuJoCo.register_custom_attributes(builder)

    @classmethod
    def _initialize_contacts(cls) -> None:
        if not NewtonManager.get_solver_cfg().use_mujoco_contacts:
            super()._initialize_contacts()
            return
        # MuJoCo collides internally: export storage only, sized from MuJoCo's capacity; no pipeline runs.
        export = newton.CollisionPipeline(
            NewtonManager._model, rigid_contact_max=NewtonManager._solver.get_max_contact_count(), soft_contact_max=0
        )
        NewtonManager._contacts = export.contacts()

    @classmethod
    def _step_solver(
        cls,
        state_0: newton.State,
        state_1: newton.State,
        control: newton.Control,
        contacts: newton.Contacts | None,
        substep_dt: float,
    ) -> None:
        # Newton switches MuJoCo Warp's post-constraint RNE pass on for good once a substep asks for body
        # observables; clear it so it runs only on the substeps whose observables request it.
        clear_rne_switch(NewtonManager._solver)
        super()._step_solver(state_0, state_1, control, contacts, substep_dt)

    @classmethod
    def _supports_cuda_graph_capture(cls) -> bool:
        return not NewtonManager.get_solver_cfg().use_mujoco_cpu


def _replay_warnings(caught: list[warnings.WarningMessage]) -> None:
    """Re-issue the solver build's warnings, its zeroed-margin warnings (one per geom) folded into one."""
    zeroed = []
    for entry in caught:
        match = _ZEROED_MARGIN.match(str(entry.message))
        if match:
            zeroed.append(match.group("what"))
        else:
            warnings.warn_explicit(entry.message, entry.category, entry.filename, entry.lineno, source=entry.source)
    if zeroed:
        warnings.warn(
            f"{len(zeroed)} authored contact margins zeroed for NATIVECCD/MULTICCD compatibility (first: {zeroed[0]};"
            " Newton #2106): MuJoCo's own contacts ignore them. To honour them, use"
            " MJWarpSolverCfg(use_mujoco_contacts=False) and Newton's collision pipeline.",
            newton.NewtonWarning,
            stacklevel=3,
        )
