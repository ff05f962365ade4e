"""Solver observables of the Newton manager: requests, their container and its per-substep schedule."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from .manager_state import NewtonManagerState
from .observables import ObservableRequests, ObservableSchedule, allocate_schedule, check_known_kinds, normalize_kinds

if TYPE_CHECKING:
    from newton.solvers import SolverBase


class NewtonObservables(NewtonManagerState):
    """The observables part of :class:`~.newton_manager.NewtonManager`: requests from every consumer, unioned, and the
    container the solver allocates for them."""

    @classmethod
    def request_observables(cls, kinds: Iterable[str], *, every_substep: bool = False) -> None:
        """Declare solver observable kinds a consumer needs; requests from all consumers are unioned.

        Call before the solver is initialized: before ``sim.reset()``, or from a ``PhysicsEvent.PHYSICS_READY``
        callback (it runs on every hard reset, after the model exists and before the solver is rebuilt). Sensors
        do so when they are built. Requests persist across hard resets and are dropped by :meth:`close`.

        Args:
            kinds: Collection of kind names, e.g. ``{"body_qdd"}`` (never a bare string).
            every_substep: Write these kinds on every substep instead of only the final one.

        Raises:
            TypeError: If ``kinds`` is a bare string or holds non-string entries.
            ValueError: If a kind is not declared by any solver's observable container (the message lists the
                known kinds); known kinds the configured solver does not produce fail at ``sim.reset()``.
            RuntimeError: If kinds not yet covered are requested while a solver and its container exist.
        """
        requests = NewtonManagerState._observable_requests
        kinds = normalize_kinds(kinds)
        check_known_kinds(kinds, what="request_observables()")
        if NewtonManagerState._slots is not None and not requests.covers(kinds, every_substep=every_substep):
            cadence = "every substep" if every_substep else "the final substep"
            solver_name = type(NewtonManagerState._slots.solver).__name__
            raise RuntimeError(
                f"Observables {sorted(kinds)} (on {cadence}) requested after {solver_name} allocated its container"
                f" for {sorted(requests.all)}; it cannot grow while the solver runs. Request them before"
                " sim.reset(), or from a PhysicsEvent.PHYSICS_READY callback, which runs on every hard reset before"
                " the solver and its observables are rebuilt."
            )
        requests.add(kinds, every_substep=every_substep)

    @classmethod
    def get_observables(cls) -> SolverBase.Observables | None:
        """Return the observable container (read-only use), or ``None`` when nothing was requested."""
        schedule = NewtonManagerState._observable_schedule
        return None if schedule is None else schedule.container

    @classmethod
    def get_requested_observables(cls) -> frozenset[str]:
        """Return the union of requested observable kinds."""
        return NewtonManagerState._observable_requests.all

    @classmethod
    def supported_observables(cls) -> frozenset[str]:
        """Return the observable kinds the configured solver supports (needs an initialized solver)."""
        if NewtonManagerState._slots is None:
            raise RuntimeError("supported_observables() needs an initialized solver: call sim.reset() first.")
        return frozenset(NewtonManagerState._slots.solver.supported_observables)

    @classmethod
    def _allocate_observables(cls, requests: ObservableRequests) -> ObservableSchedule | None:
        """Allocate the observable container of ``requests`` from the solver (``None`` when nothing is requested).

        Runs after :meth:`_initialize_contacts` and before graph capture. A manager with several sub-solvers
        overrides it to route each kind to the sub-solver that produces it.

        Args:
            requests: The requests of every consumer, unioned (:meth:`request_observables`).
        """
        return allocate_schedule(
            NewtonManagerState._slots.solver,
            requests,
            NewtonManagerState._contacts,
            solver_name=cls.__name__,
            pipeline=NewtonManagerState._collision_pipeline,
        )
