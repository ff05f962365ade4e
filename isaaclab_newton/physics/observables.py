"""Solver observable requests, allocation and per-substep schedule.

Consumers (sensors, tasks, user code) declare the observable kinds they need before the solver is
initialized. The manager unions the requests, allocates one container from the solver, and derives
the per-substep subsets with :meth:`newton.solvers.SolverBase.Observables.select` before any graph
capture, so the captured graph holds the schedule.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import newton
    from newton.solvers import SolverBase


def normalize_kinds(kinds: Iterable[str], *, what: str = "kinds") -> frozenset[str]:
    """Validate a collection of observable kind strings.

    Args:
        kinds: Collection of kind names, e.g. ``{"body_qdd", "contact_f"}``.
        what: Name of the argument, used in error messages.

    Returns:
        The kinds as a frozen set.

    Raises:
        TypeError: If ``kinds`` is a bare string or holds non-string or empty entries.
    """
    if isinstance(kinds, (str, bytes)):
        raise TypeError(f"{what} must be a collection of kind strings such as {{{kinds!r}}}, not a bare string.")
    result = frozenset(kinds)
    bad = [kind for kind in result if not isinstance(kind, str) or not kind]
    if bad:
        raise TypeError(f"{what} must hold non-empty kind strings; got {bad!r}.")
    return result


def is_contact_indexed(solver: SolverBase, kind: str) -> bool:
    """Return whether ``kind`` is indexed by contact rows in ``solver``'s observable container.

    Args:
        solver: The solver that will allocate the container.
        kind: Observable kind name.
    """
    declarations = type(solver).Observables._observable_fields()
    if kind not in declarations:
        return False
    frequency = declarations[kind][1].frequency
    return "CONTACT" in str(getattr(frequency, "name", frequency)).upper()


@dataclass
class ObservableRequests:
    """Union of the observable kinds requested by every consumer."""

    final: set[str] = field(default_factory=set)
    """Kinds written on the final substep of each physics step."""

    every_substep: set[str] = field(default_factory=set)
    """Kinds written on every substep."""

    def add(self, kinds: Iterable[str], *, every_substep: bool = False) -> None:
        """Add kinds to the request.

        Args:
            kinds: Collection of kind names.
            every_substep: Write these kinds on every substep instead of only the final one.
        """
        kinds = normalize_kinds(kinds)
        (self.every_substep if every_substep else self.final).update(kinds)

    @property
    def all(self) -> frozenset[str]:
        """Every requested kind."""
        return frozenset(self.final | self.every_substep)

    def clear(self) -> None:
        """Forget every request."""
        self.final.clear()
        self.every_substep.clear()


@dataclass
class ObservableSchedule:
    """One allocated container plus the subsets passed on each substep.

    Attributes:
        container: The container holding every requested array; pass it on the final substep.
        early: Subset passed on every substep but the last (``None`` when nothing is needed there).
        contacts: Contact storage the container is bound to (``None`` without contact kinds).
        rigid_contact_max: Rigid capacity frozen at allocation.
        soft_contact_max: Soft capacity frozen at allocation.
    """

    container: SolverBase.Observables
    early: SolverBase.Observables | None
    contacts: newton.Contacts | None
    rigid_contact_max: int | None
    soft_contact_max: int | None

    def for_substep(self, substep: int, num_substeps: int) -> SolverBase.Observables | None:
        """Return the container to pass to ``solver.step`` on ``substep`` (0-based)."""
        return self.container if substep == num_substeps - 1 else self.early

    def check_contacts(self, contacts: newton.Contacts | None) -> None:
        """Reject contact storage that differs from the one the container was allocated with.

        Newton 1.8 does not freeze capacities after allocation nor check contact identity at step time,
        so the manager enforces both.

        Raises:
            RuntimeError: If the contacts object or its capacities changed since allocation.
        """
        if self.contacts is None:
            return
        if contacts is not self.contacts:
            raise RuntimeError(
                "The contacts passed to the solver are not the ones the observables were allocated with. Rebuild the"
                " collision pipeline only through a hard reset (sim.reset()), which re-allocates the observables."
            )
        if (contacts.rigid_contact_max, contacts.soft_contact_max) != (self.rigid_contact_max, self.soft_contact_max):
            raise RuntimeError(
                f"Contact capacities changed after observable allocation (rigid {self.rigid_contact_max} ->"
                f" {contacts.rigid_contact_max}, soft {self.soft_contact_max} -> {contacts.soft_contact_max})."
                " Capacities are frozen once contact observables exist; configure NewtonCfg.collision_cfg and do a"
                " hard reset instead."
            )


def allocate_schedule(
    solver: SolverBase,
    requests: ObservableRequests,
    contacts: newton.Contacts | None,
    *,
    solver_name: str,
) -> ObservableSchedule | None:
    """Allocate the observable container for ``requests`` and build its substep subsets.

    Args:
        solver: The configured solver.
        requests: The union of requested kinds.
        contacts: Contacts bound to contact-indexed kinds (passed only when one is requested).
        solver_name: Name of the solver manager, used in error messages.

    Returns:
        The schedule, or ``None`` when nothing was requested.

    Raises:
        ValueError: If a kind is not supported by the solver, or contact kinds lack contacts.
    """
    kinds = requests.all
    if not kinds:
        return None
    supported = frozenset(solver.supported_observables)
    unsupported = sorted(kinds - supported)
    if unsupported:
        raise ValueError(
            f"{solver_name} ({type(solver).__name__}) does not support solver observable(s) {unsupported}; it supports"
            f" {sorted(supported) or 'none'} (solver.supported_observables). Pick a solver that produces them or drop"
            " the request."
        )
    contact_kinds = sorted(kind for kind in kinds if is_contact_indexed(solver, kind))
    if contact_kinds and contacts is None:
        raise ValueError(
            f"{solver_name} has no contact storage, but contact-indexed observable(s) {contact_kinds} were requested."
            " Use a solver manager that owns a collision pipeline or exposes its native contacts."
        )
    container = solver.observables(kinds=kinds, contacts=contacts if contact_kinds else None)
    early = container.select(requests.every_substep) if requests.every_substep else None
    bound = contacts if contact_kinds else None
    return ObservableSchedule(
        container=container,
        early=early,
        contacts=bound,
        rigid_contact_max=None if bound is None else bound.rigid_contact_max,
        soft_contact_max=None if bound is None else bound.soft_contact_max,
    )
