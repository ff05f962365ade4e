"""The substep loop of one physics step, with every piece of state it touches passed in."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import newton
import warp as wp

if TYPE_CHECKING:
    from newton.solvers import SolverBase

    from .observables import ObservableSchedule

StepSolverFn = Callable[[newton.State, newton.State, newton.Control, "newton.Contacts | None", float], None]
"""``step(state_0, state_1, control, contacts, substep_dt)``: one solver substep (a manager's ``_step_solver``)."""

SetObservablesFn = Callable[["SolverBase.Observables | None"], None]
"""Publishes the observables of the substep about to run (read by ``_step_solver``)."""


def run_substeps(
    state_0: newton.State,
    state_1: newton.State,
    control: newton.Control,
    contacts: newton.Contacts | None,
    step: StepSolverFn,
    *,
    substep_dt: float,
    num_substeps: int,
    use_single_state: bool,
    pipeline: newton.CollisionPipeline | None = None,
    collision_every: int = 1,
    external_body_f: wp.array | None = None,
    schedule: ObservableSchedule | None = None,
    set_observables: SetObservablesFn | None = None,
) -> tuple[newton.State, newton.State]:
    """Run ``num_substeps`` solver substeps of ``substep_dt`` [s] and return the states in their new roles.

    Before each substep the external wrench buffer is copied into ``state_0.body_f``, particle forces are cleared
    and, every ``collision_every``-th substep, ``pipeline`` collides into ``contacts``. Double-buffered solvers
    then swap the two states, except after the final substep of an odd count, where the result is copied into the
    first state instead; so the returned first state is always the ``state_0`` passed in.

    Args:
        state_0: The current state (input of the first substep).
        state_1: The scratch output state (unused when ``use_single_state``).
        control: Joint targets and forces.
        contacts: Contacts passed to the solver, or ``None``.
        step: One substep: ``step(state_0, state_1, control, contacts, substep_dt)``.
        substep_dt: Substep length [s].
        num_substeps: Substeps to run.
        use_single_state: The solver advances ``state_0`` in place.
        pipeline: Collision pipeline run before the substeps it is due on, or ``None``.
        collision_every: Collide on every ``collision_every``-th substep, counted from the first.
        external_body_f: Per-body wrenches copied into ``body_f`` before every substep, or ``None``.
        schedule: Observable schedule; ``set_observables`` receives each substep's container (or ``None``).
        set_observables: Called with the substep's observables before each ``step``.

    Returns:
        ``(state_0, state_1)`` after the loop: the same two objects, ``state_0`` holding the result.
    """
    for substep in range(num_substeps):
        out = state_0 if use_single_state else state_1
        if external_body_f is not None:
            wp.copy(state_0.body_f, external_body_f)
        if state_0.particle_f is not None:
            state_0.particle_f.zero_()
        if pipeline is not None and substep % collision_every == 0:
            pipeline.collide(state_0, contacts)
        if set_observables is not None:
            set_observables(None if schedule is None else schedule.for_substep(substep, num_substeps))
        step(state_0, out, control, contacts, substep_dt)
        if use_single_state:
            continue
        if substep == num_substeps - 1 and num_substeps % 2 == 1:
            state_0.assign(state_1)
        else:
            state_0, state_1 = state_1, state_0
    return state_0, state_1
