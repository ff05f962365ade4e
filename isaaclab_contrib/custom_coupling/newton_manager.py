"""Custom shared-model manager: MuJoCo Warp advances rigid bodies, VBD advances particles, one contact pass."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import newton
import warp as wp

# Newton 1.8 keeps its particle-shape penalty kernel private; it is the contact law of the semi-implicit solver.
from newton._src.solvers.semi_implicit.kernels_contact import eval_particle_body_contact_forces

from isaaclab_newton.physics import NewtonManager
from isaaclab_newton.physics.mjwarp_manager import NewtonMJWarpManager
from isaaclab_newton.physics.observables import ObservableRequests, ObservableSchedule, allocate_schedule
from isaaclab_newton.physics.vbd_manager import NewtonVBDManager

from .newton_manager_cfg import CoupledMJWarpVBDSolverCfg

if TYPE_CHECKING:
    from newton.solvers import SolverBase, SolverVBD

_SOFT_KINDS = frozenset({"contact_f"})


class NewtonCoupledMJWarpVBDManager(NewtonManager):
    """MuJoCo Warp + VBD on one model: the substep order is the coupling algorithm.

    One substep (:meth:`_step_solver`), in order:

    1. :meth:`_clear_force_accumulators`: ``body_f`` back to the applied external wrenches, ``particle_f`` to zero.
    2. :meth:`_detect_contacts`: one Newton collision pass over the current rigid and particle state.
    3. :meth:`_apply_soft_to_rigid_reactions` (``"two_way"`` only): the particle-shape penalty reactions of those
       contacts are added to ``body_f`` (and kept in :meth:`get_soft_contact_reaction`).
    4. :meth:`_step_rigid`: MuJoCo Warp advances the bodies on its own contacts with that ``body_f``.
    5. :meth:`_clear_rigid_step_particle_forces`: the particle forces step 3 wrote are cleared; contacts stay.
    6. :meth:`_step_soft`: VBD advances the particles against the same contacts, the bodies moving from the input
       to the output pose (``integrate_with_external_rigid_solver``).

    ``NewtonManager._solver`` is the MuJoCo solver (bodies, joints, model-change notifications); the VBD solver
    is :meth:`get_soft_solver`. Observables: body kinds go to MuJoCo Warp (:meth:`get_observables`), ``contact_f``
    goes to VBD, whose rigid-soft rows follow the pipeline's rigid capacity (:meth:`get_soft_observables`; its
    rigid rows are zero because MuJoCo owns rigid contacts). Everything launches Warp work only, so the substep
    loop is graph-capturable.
    """

    _soft_solver: ClassVar[SolverVBD | None] = None
    _coupled_pipeline: ClassVar[newton.CollisionPipeline | None] = None
    _soft_schedule: ClassVar[ObservableSchedule | None] = None
    _reaction_f: ClassVar[wp.array | None] = None
    _two_way: ClassVar[bool] = True
    _substep: ClassVar[int] = 0

    # -- accessors -------------------------------------------------------------------------------------

    @classmethod
    def get_soft_solver(cls) -> SolverVBD | None:
        """Return the VBD solver advancing the particles."""
        return cls._soft_solver

    @classmethod
    def get_soft_observables(cls) -> SolverBase.Observables | None:
        """Return VBD's observable container (``contact_f``), or ``None`` when it was not requested."""
        return None if cls._soft_schedule is None else cls._soft_schedule.container

    @classmethod
    def get_soft_contact_reaction(cls) -> wp.array | None:
        """Per-body wrench [N, N m] (world frame, at the CoM) the particles exerted in the last substep's step 3.

        Zero in one-way mode.
        """
        return cls._reaction_f

    # -- construction ----------------------------------------------------------------------------------

    @classmethod
    def _build_solver(cls, model: newton.Model, solver_cfg: CoupledMJWarpVBDSolverCfg) -> None:
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
        rigid = NewtonMJWarpManager._create_solver(model, solver_cfg.rigid_solver_cfg)
        cls_base = NewtonCoupledMJWarpVBDManager
        cls_base._soft_solver = NewtonVBDManager._create_solver(model, solver_cfg.soft_solver_cfg)
        cls_base._two_way = solver_cfg.coupling_mode == "two_way"
        NewtonManager._solver = rigid
        NewtonManager._use_single_state = False
        # The manager runs its own single collision pass inside _step_solver (step 2), not the base loop's.
        NewtonManager._needs_collision_pipeline = False
        NewtonManager._supports_rigid_body_force_input = True

    @classmethod
    def _register_builder_attributes(cls, builder: newton.ModelBuilder) -> None:
        NewtonMJWarpManager._register_builder_attributes(builder)

    @classmethod
    def _prepare_builder_for_finalize(cls, builder: newton.ModelBuilder) -> None:
        # VBD needs the particle graph coloring.
        builder.color(include_bending=bool(NewtonManager._solver_cfg.soft_solver_cfg.color_include_bending))

    @classmethod
    def _initialize_contacts(cls) -> None:
        """Own the shared pipeline: it feeds VBD and step 3; the base loop never runs it."""
        model = NewtonManager._model
        pipeline = newton.CollisionPipeline(model, **cls._collision_pipeline_kwargs())
        NewtonCoupledMJWarpVBDManager._coupled_pipeline = pipeline
        NewtonManager._collision_pipeline = None
        NewtonManager._contacts = pipeline.contacts()
        body_f = NewtonManager._state_0.body_f
        NewtonCoupledMJWarpVBDManager._reaction_f = wp.zeros_like(body_f) if body_f is not None else None

    @classmethod
    def _allocate_observables(cls) -> ObservableSchedule | None:
        """Route ``contact_f`` to VBD (rigid-soft rows) and every other kind to MuJoCo Warp."""
        requests = NewtonManager._observable_requests
        rigid_req, soft_req = ObservableRequests(), ObservableRequests()
        for kinds, every in ((requests.final, False), (requests.every_substep, True)):
            if kinds & _SOFT_KINDS:
                soft_req.add(kinds & _SOFT_KINDS, every_substep=every)
            if kinds - _SOFT_KINDS:
                rigid_req.add(kinds - _SOFT_KINDS, every_substep=every)
        NewtonCoupledMJWarpVBDManager._soft_schedule = allocate_schedule(
            cls._soft_solver,
            soft_req,
            NewtonManager._contacts,
            solver_name=f"{cls.__name__} (VBD)",
            pipeline=cls._coupled_pipeline,
        )
        return allocate_schedule(
            NewtonManager._solver, rigid_req, None, solver_name=f"{cls.__name__} (MuJoCo Warp)", pipeline=None
        )

    # -- the coupled substep ---------------------------------------------------------------------------

    @classmethod
    def _simulate_physics_only(cls) -> None:
        if NewtonManager._solver_cfg.soft_solver_cfg.particle_enable_self_contact:
            cls._soft_solver.rebuild_bvh(NewtonManager._state_0)
        cls._substep = 0
        super()._simulate_physics_only()

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
        """One coupled substep: the six steps of the class docstring, in order."""
        substep = cls._substep
        cls._substep = substep + 1
        soft_obs = None
        if cls._soft_schedule is not None:
            soft_obs = cls._soft_schedule.for_substep(substep, NewtonManager._num_substeps)
        cls._clear_force_accumulators(state_0)
        cls._detect_contacts(state_0, contacts)
        if cls._two_way:
            cls._apply_soft_to_rigid_reactions(state_0, contacts)
        cls._step_rigid(state_0, state_1, control, contacts, substep_dt, observables)
        cls._clear_rigid_step_particle_forces(state_0)
        cls._step_soft(state_0, state_1, control, contacts, substep_dt, soft_obs)

    @classmethod
    def _clear_force_accumulators(cls, state: newton.State) -> None:
        """Step 1: ``body_f`` = applied external wrenches, ``particle_f`` = 0."""
        if NewtonManager._external_body_f is not None:
            wp.copy(state.body_f, NewtonManager._external_body_f)
        state.particle_f.zero_()

    @classmethod
    def _detect_contacts(cls, state: newton.State, contacts: newton.Contacts) -> None:
        """Step 2: one collision pass over rigid shapes and particles."""
        cls._coupled_pipeline.collide(state, contacts)

    @classmethod
    def _apply_soft_to_rigid_reactions(cls, state: newton.State, contacts: newton.Contacts) -> None:
        """Step 3: add the particle-shape penalty reactions to ``body_f`` (world frame, about the CoM)."""
        reaction = cls._reaction_f
        if reaction is None:
            return
        reaction.zero_()
        eval_particle_body_contact_forces(
            NewtonManager._model, state, contacts, state.particle_f, reaction, body_f_in_world_frame=False
        )
        wp.launch(_add_wrench_kernel, dim=reaction.shape[0], inputs=[reaction, state.body_f], device=reaction.device)

    @classmethod
    def _step_rigid(cls, state_0, state_1, control, contacts, dt: float, observables) -> None:
        """Step 4: MuJoCo Warp on its own contacts (Newton's rigid contacts when ``use_mujoco_contacts=False``)."""
        rigid_contacts = None if NewtonManager._solver_cfg.rigid_solver_cfg.use_mujoco_contacts else contacts
        NewtonManager._solver.step(state_0, state_1, control, rigid_contacts, dt, observables=observables)

    @classmethod
    def _clear_rigid_step_particle_forces(cls, state: newton.State) -> None:
        """Step 5: drop the particle forces written before the rigid step; the contacts are kept."""
        state.particle_f.zero_()

    @classmethod
    def _step_soft(cls, state_0, state_1, control, contacts, dt: float, observables) -> None:
        """Step 6: VBD on the same contacts, rigid bodies moving from ``state_0`` to ``state_1``."""
        cls._soft_solver.step(state_0, state_1, control, contacts, dt, observables=observables)

    # -- lifecycle -------------------------------------------------------------------------------------

    @classmethod
    def _reset_solver_internals(cls) -> None:
        if NewtonManager._reset_pending and cls._soft_solver is not None:
            cls._soft_solver.reset(NewtonManager._state_0, world_mask=NewtonManager._reset_world_mask)
        super()._reset_solver_internals()

    @classmethod
    def _solver_specific_clear(cls) -> None:
        target = NewtonCoupledMJWarpVBDManager
        target._soft_solver = None
        target._coupled_pipeline = None
        target._soft_schedule = None
        target._reaction_f = None
        target._substep = 0

    @classmethod
    def _supports_cuda_graph_capture(cls) -> bool:
        return not NewtonManager._solver_cfg.rigid_solver_cfg.use_mujoco_cpu


@wp.kernel
def _add_wrench_kernel(src: wp.array(dtype=wp.spatial_vector), dst: wp.array(dtype=wp.spatial_vector)):
    i = wp.tid()
    dst[i] = dst[i] + src[i]
