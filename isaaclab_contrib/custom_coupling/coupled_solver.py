"""The coupled substep of MuJoCo Warp + VBD on one model: the two solvers, one collision pass, the reactions."""

from __future__ import annotations

from typing import TYPE_CHECKING

import newton
import warp as wp

# Newton 1.8 keeps its particle-shape penalty kernel private; it is the contact law of the semi-implicit solver.
from newton._src.solvers.semi_implicit.kernels_contact import eval_particle_body_contact_forces

from isaaclab_newton.physics.mujoco_substep import step_mujoco

if TYPE_CHECKING:
    from newton.solvers import SolverBase, SolverMuJoCo, SolverVBD


class CoupledMJWarpVBDSolver:
    """MuJoCo Warp and VBD advancing one shared model, one collision pass per substep.

    One substep (:meth:`step`), in order:

    1. :meth:`_clear_force_accumulators`: ``body_f`` back to the applied external wrenches (zero without them),
       ``particle_f`` to zero.
    2. :meth:`_detect_contacts`: one Newton collision pass over the current rigid and particle state.
    3. :meth:`_apply_soft_to_rigid_reactions` (two-way only): the particle-shape penalty reactions of those contacts
       are added to ``body_f`` (and kept in :attr:`reaction_f`).
    4. :meth:`_step_rigid`: MuJoCo Warp advances the bodies on its own contacts with that ``body_f``.
    5. :meth:`_clear_rigid_step_particle_forces`: the particle forces step 3 wrote are cleared; contacts stay.
    6. :meth:`_step_soft`: VBD advances the particles against the same contacts, the bodies moving from the input
       to the output pose (``integrate_with_external_rigid_solver``).

    Every step launches Warp work only (no host reads, no allocations), so a substep loop of it can be captured in a
    graph. The physics manager steps it; benchmarks build a second one on the same model for the raw solver loop.

    Args:
        model: The finalized model (with particles).
        rigid: The MuJoCo Warp solver of the bodies.
        soft: The VBD solver of the particles (``integrate_with_external_rigid_solver=True``).
        two_way: Whether the particle contact reactions act on the bodies.
        rigid_uses_newton_contacts: Whether MuJoCo steps on the shared Newton contacts instead of its own.
        pipeline_kwargs: Keyword arguments of the shared :class:`newton.CollisionPipeline`.
    """

    def __init__(
        self,
        model: newton.Model,
        rigid: SolverMuJoCo,
        soft: SolverVBD,
        *,
        two_way: bool,
        rigid_uses_newton_contacts: bool,
        pipeline_kwargs: dict | None = None,
    ):
        self.model = model
        self.rigid = rigid
        self.soft = soft
        self.two_way = two_way
        self.rigid_uses_newton_contacts = rigid_uses_newton_contacts
        self.pipeline = newton.CollisionPipeline(model, **(pipeline_kwargs or {}))
        self.contacts = self.pipeline.contacts()
        self.reaction_f = (
            wp.zeros(model.body_count, dtype=wp.spatial_vector, device=model.device) if model.body_count else None
        )
        """Per-body wrench [N, N m] (world frame, at the CoM) the particles exerted in the last substep's step 3."""

    def step(
        self,
        state_0: newton.State,
        state_1: newton.State,
        control: newton.Control,
        contacts: newton.Contacts | None,
        dt: float,
        *,
        external_body_f: wp.array | None = None,
        observables: SolverBase.Observables | None = None,
        soft_observables: SolverBase.Observables | None = None,
    ) -> None:
        """One coupled substep of ``dt`` [s] from ``state_0`` to ``state_1`` (the six steps of the class docstring).

        Args:
            state_0: Input state (its force accumulators are rewritten).
            state_1: Output state.
            control: Joint targets and actuation the rigid solver reads.
            contacts: The shared contacts (``None``: :attr:`contacts`).
            dt: Substep size [s].
            external_body_f: Applied external wrenches, layout of ``State.body_f`` (``None``: none).
            observables: MuJoCo Warp's observable container of this substep.
            soft_observables: VBD's observable container of this substep.
        """
        contacts = self.contacts if contacts is None else contacts
        self._clear_force_accumulators(state_0, external_body_f)
        self._detect_contacts(state_0, contacts)
        if self.two_way:
            self._apply_soft_to_rigid_reactions(state_0, contacts)
        self._step_rigid(state_0, state_1, control, contacts, dt, observables)
        self._clear_rigid_step_particle_forces(state_0)
        self._step_soft(state_0, state_1, control, contacts, dt, soft_observables)

    def _clear_force_accumulators(self, state: newton.State, external_body_f: wp.array | None) -> None:
        """Step 1: ``body_f`` = applied external wrenches (or zero), ``particle_f`` = 0."""
        if state.body_f is not None:
            if external_body_f is not None:
                wp.copy(state.body_f, external_body_f)
            else:
                state.body_f.zero_()
        state.particle_f.zero_()

    def _detect_contacts(self, state: newton.State, contacts: newton.Contacts) -> None:
        """Step 2: one collision pass over rigid shapes and particles."""
        self.pipeline.collide(state, contacts)

    def _apply_soft_to_rigid_reactions(self, state: newton.State, contacts: newton.Contacts) -> None:
        """Step 3: add the particle-shape penalty reactions to ``body_f`` (world frame, about the CoM)."""
        reaction = self.reaction_f
        if reaction is None:
            return
        reaction.zero_()
        eval_particle_body_contact_forces(
            self.model, state, contacts, state.particle_f, reaction, body_f_in_world_frame=False
        )
        wp.launch(_add_wrench_kernel, dim=reaction.shape[0], inputs=[reaction, state.body_f], device=reaction.device)

    def _step_rigid(self, state_0, state_1, control, contacts, dt: float, observables) -> None:
        """Step 4: MuJoCo Warp on its own contacts (the shared ones when ``rigid_uses_newton_contacts``)."""
        rigid_contacts = contacts if self.rigid_uses_newton_contacts else None
        step_mujoco(self.rigid, state_0, state_1, control, rigid_contacts, dt, observables=observables)

    def _clear_rigid_step_particle_forces(self, state: newton.State) -> None:
        """Step 5: drop the particle forces written before the rigid step; the contacts are kept."""
        state.particle_f.zero_()

    def _step_soft(self, state_0, state_1, control, contacts, dt: float, observables) -> None:
        """Step 6: VBD on the same contacts, rigid bodies moving from ``state_0`` to ``state_1``."""
        self.soft.step(state_0, state_1, control, contacts, dt, observables=observables)


@wp.kernel
def _add_wrench_kernel(src: wp.array(dtype=wp.spatial_vector), dst: wp.array(dtype=wp.spatial_vector)):
    i = wp.tid()
    dst[i] = dst[i] + src[i]
