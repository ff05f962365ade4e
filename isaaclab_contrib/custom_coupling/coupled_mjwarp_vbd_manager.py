"""Custom shared-model manager: MuJoCo Warp advances rigid bodies, VBD advances particles, one contact pass."""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, ClassVar

import newton
import warp as wp

from isaaclab_newton.physics import NewtonManager
from isaaclab_newton.physics.mjwarp_manager import NewtonMJWarpManager
from isaaclab_newton.physics.observables import ObservableRequests, ObservableSchedule, allocate_schedule
from isaaclab_newton.physics.vbd_manager import NewtonVBDManager

from .coupled_mjwarp_vbd_manager_cfg import CoupledMJWarpVBDSolverCfg
from .coupled_solver import CoupledMJWarpVBDSolver

if TYPE_CHECKING:
    from newton.solvers import SolverBase, SolverVBD

_SOFT_KINDS = frozenset({"contact_f"})


class NewtonCoupledMJWarpVBDManager(NewtonManager):
    """MuJoCo Warp + VBD on one model: the substep order is the coupling algorithm.

    Each substep is one :meth:`CoupledMJWarpVBDSolver.step <.coupled_solver.CoupledMJWarpVBDSolver.step>` (clear
    the force accumulators, one collision pass, two-way: the particle reactions into ``body_f``, MuJoCo Warp, clear
    the particle forces, VBD), built by :meth:`_create_solver`.

    :meth:`NewtonManager.get_solver` is the MuJoCo solver (bodies, joints, model-change notifications); the VBD solver
    is :meth:`get_soft_solver`. Observables: body kinds go to MuJoCo Warp (:meth:`get_observables`), ``contact_f``
    goes to VBD, whose rigid-soft rows follow the pipeline's rigid capacity (:meth:`get_soft_observables`; its
    rigid rows are zero because MuJoCo owns rigid contacts). Everything launches Warp work only: the substep loop is
    captured in the manager's graph (CUDA graph, or Warp CPU graph) like the rigid managers' loops, and per-world
    resets (VBD and MuJoCo Warp) can be recorded in a CUDA graph too.
    """

    _coupled: ClassVar[CoupledMJWarpVBDSolver | None] = None
    _soft_schedule: ClassVar[ObservableSchedule | None] = None
    _substep: ClassVar[int] = 0
    _rebuild_soft_bvh: ClassVar[bool] = False

    # -- accessors -------------------------------------------------------------------------------------

    @classmethod
    def get_soft_solver(cls) -> SolverVBD | None:
        """Return the VBD solver advancing the particles."""
        coupled = NewtonCoupledMJWarpVBDManager._coupled
        return None if coupled is None else coupled.soft

    @classmethod
    def get_soft_observables(cls) -> SolverBase.Observables | None:
        """Return VBD's observable container (``contact_f``), or ``None`` when it was not requested."""
        schedule = NewtonCoupledMJWarpVBDManager._soft_schedule
        return None if schedule is None else schedule.container

    @classmethod
    def get_soft_contact_reaction(cls) -> wp.array | None:
        """Per-body wrench [N, N m] (world frame, at the CoM) the particles exerted in the last substep's step 3.

        Zero in one-way mode.
        """
        coupled = NewtonCoupledMJWarpVBDManager._coupled
        return None if coupled is None else coupled.reaction_f

    # -- construction ----------------------------------------------------------------------------------

    @classmethod
    def _create_solver(cls, model: newton.Model, solver_cfg: CoupledMJWarpVBDSolverCfg) -> CoupledMJWarpVBDSolver:
        """Both solvers and the shared collision pipeline on ``model``, without touching manager state."""
        if solver_cfg.coupling_mode not in ("one_way", "two_way"):
            raise ValueError(
                f"CoupledMJWarpVBDSolverCfg.coupling_mode must be 'one_way' or 'two_way', got"
                f" {solver_cfg.coupling_mode!r}."
            )
        if not solver_cfg.soft_solver_cfg.integrate_with_external_rigid_solver:
            raise ValueError(
                "CoupledMJWarpVBDSolverCfg.soft_solver_cfg needs integrate_with_external_rigid_solver=True: MuJoCo"
                " Warp integrates the rigid bodies, VBD only the particles."
            )
        if model.particle_count == 0:
            raise ValueError(
                "CoupledMJWarpVBDSolverCfg needs particles (a DeformableObject); for rigid-only scenes use"
                " MJWarpSolverCfg."
            )
        with warnings.catch_warnings():
            # Shape margins are kept for the particle-shape contacts VBD runs on Newton's pipeline; MuJoCo's own
            # rigid contacts zero them in their spec, as they must, and say so once per geom and build.
            warnings.filterwarnings("ignore", message=r".*zeroed for NATIVECCD", category=newton.NewtonWarning)
            rigid = NewtonMJWarpManager._create_solver(model, solver_cfg.rigid_solver_cfg)
        return CoupledMJWarpVBDSolver(
            model,
            rigid,
            NewtonVBDManager._create_solver(model, solver_cfg.soft_solver_cfg),
            two_way=solver_cfg.coupling_mode == "two_way",
            rigid_uses_newton_contacts=not solver_cfg.rigid_solver_cfg.use_mujoco_contacts,
            pipeline_kwargs=cls._collision_pipeline_kwargs(model),
        )

    @classmethod
    def _build_solver(cls, model: newton.Model, solver_cfg: CoupledMJWarpVBDSolverCfg) -> None:
        target = NewtonCoupledMJWarpVBDManager
        target._coupled = cls._create_solver(model, solver_cfg)
        target._rebuild_soft_bvh = bool(solver_cfg.soft_solver_cfg.particle_enable_self_contact)
        NewtonManager._solver = target._coupled.rigid
        NewtonManager._use_single_state = False
        # The coupled substep runs its own single collision pass (step 2), not the base loop's.
        NewtonManager._needs_collision_pipeline = False
        NewtonManager._supports_rigid_body_force_input = True

    @classmethod
    def _register_builder_attributes(cls, builder: newton.ModelBuilder) -> None:
        NewtonMJWarpManager._register_builder_attributes(builder)

    @classmethod
    def _prepare_builder_for_finalize(cls, builder: newton.ModelBuilder) -> None:
        with cls._nested_solver_cfg(NewtonManager.get_solver_cfg().soft_solver_cfg):
            NewtonVBDManager._prepare_builder_for_finalize(builder)  # VBD's coloring

    @classmethod
    def _initialize_contacts(cls) -> None:
        """The coupled substep's shared contacts; the base loop runs no pipeline."""
        NewtonManager._contacts = NewtonCoupledMJWarpVBDManager._coupled.contacts

    @classmethod
    def _allocate_observables(cls, requests: ObservableRequests) -> ObservableSchedule | None:
        """Route ``contact_f`` to VBD (rigid-soft rows) and every other kind to MuJoCo Warp."""
        rigid_req, soft_req = ObservableRequests(), ObservableRequests()
        for kinds, every in ((requests.final, False), (requests.every_substep, True)):
            if kinds & _SOFT_KINDS:
                soft_req.add(kinds & _SOFT_KINDS, every_substep=every)
            if kinds - _SOFT_KINDS:
                rigid_req.add(kinds - _SOFT_KINDS, every_substep=every)
        coupled = NewtonCoupledMJWarpVBDManager._coupled
        NewtonCoupledMJWarpVBDManager._soft_schedule = allocate_schedule(
            coupled.soft,
            soft_req,
            NewtonManager.get_contacts(),
            solver_name=f"{cls.__name__} (VBD)",
            pipeline=coupled.pipeline,
        )
        return allocate_schedule(
            NewtonManager.get_solver(), rigid_req, None, solver_name=f"{cls.__name__} (MuJoCo Warp)", pipeline=None
        )

    # -- the coupled substep ---------------------------------------------------------------------------

    @classmethod
    def _simulate_physics_only(cls) -> None:
        target = NewtonCoupledMJWarpVBDManager
        if target._rebuild_soft_bvh:
            target._coupled.soft.rebuild_bvh(NewtonManager.get_state_0())
        target._substep = 0
        super()._simulate_physics_only()

    @classmethod
    def _step_solver(
        cls,
        state_0: newton.State,
        state_1: newton.State,
        control: newton.Control,
        contacts: newton.Contacts | None,
        substep_dt: float,
    ) -> None:
        """One coupled substep (:meth:`CoupledMJWarpVBDSolver.step`) with the applied wrenches and observables."""
        target = NewtonCoupledMJWarpVBDManager
        substep = target._substep
        target._substep = substep + 1
        schedule = target._soft_schedule
        soft_obs = None if schedule is None else schedule.for_substep(substep, NewtonManager.get_num_substeps())
        target._coupled.step(
            state_0,
            state_1,
            control,
            contacts,
            substep_dt,
            external_body_f=NewtonManager.get_external_wrench(),
            observables=NewtonManager.get_substep_observables(),
            soft_observables=soft_obs,
        )

    # -- lifecycle -------------------------------------------------------------------------------------

    @classmethod
    def _reset_solver_internals(cls) -> None:
        """VBD's per-world reset, then MuJoCo Warp's (the base): device work only."""
        world_mask = NewtonManager.get_reset_world_mask()
        NewtonCoupledMJWarpVBDManager._coupled.soft.reset(NewtonManager._state_0, world_mask=world_mask)
        super()._reset_solver_internals()

    @classmethod
    def _solver_specific_clear(cls) -> None:
        target = NewtonCoupledMJWarpVBDManager
        target._coupled = None
        target._soft_schedule = None
        target._substep = 0
        target._rebuild_soft_bvh = False

    @classmethod
    def _supports_cuda_graph_capture(cls) -> bool:
        return not NewtonManager.get_solver_cfg().rigid_solver_cfg.use_mujoco_cpu
