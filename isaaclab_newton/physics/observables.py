"""Solver observable requests, allocation and per-substep schedule.

Consumers (sensors, tasks, user code) declare the observable kinds they need before the solver is
initialized. The manager unions the requests, allocates one container from the solver, and derives
the per-substep subsets with :meth:`newton.solvers.SolverBase.Observables.select` before any graph
capture, so the captured graph holds the schedule.

Newton 1.8 does not yet freeze contact capacities after allocation nor check contact identity at step
time; :meth:`ObservableSchedule.check_contacts` enforces both on the manager's side.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import newton
import warp as wp

if TYPE_CHECKING:
    from newton.solvers import SolverBase

_CONTACT_FREQUENCIES = frozenset(
    {
        newton.Model.AttributeFrequency.CONTACT,
        newton.Model.AttributeFrequency.CONTACT_RIGID,
        newton.Model.AttributeFrequency.CONTACT_SOFT,
    }
)


def normalize_kinds(kinds: Iterable[str], *, what: str = "kinds") -> frozenset[str]:
    """Validate a collection of observable kind strings.

    Args:
        kinds: Collection of kind names, e.g. ``{"body_qdd", "contact_f"}``.
        what: Name of the argument, used in error messages.

    Returns:
        The kinds as a frozen set.

    Raises:
        TypeError: If ``kinds`` is a bare string, not iterable, or holds non-string or empty entries.
    """
    if isinstance(kinds, (str, bytes)):
        name = kinds.decode() if isinstance(kinds, bytes) else kinds
        raise TypeError(f"{what} must be a collection of kind strings such as {{{name!r}}}, not a bare string.")
    try:
        result = frozenset(kinds)
    except TypeError as exc:
        raise TypeError(
            f"{what} must be a collection of kind strings such as {{'body_qdd'}}, got {type(kinds).__name__}."
        ) from exc
    bad = [kind for kind in result if not isinstance(kind, str) or not kind]
    if bad:
        raise TypeError(f"{what} must hold non-empty kind strings; got {bad!r}.")
    return result


def known_observable_kinds() -> frozenset[str]:
    """Return every observable kind declared by Newton's observable containers (all solvers, imported ones).

    The kinds are those of :class:`newton.solvers.SolverBase.Observables` and of every subclass defined so far
    (each solver's container, including user solvers once their module is imported).
    """
    from newton.solvers import SolverBase

    kinds: set[str] = set()
    pending = [SolverBase.Observables]
    while pending:
        container = pending.pop()
        kinds.update(container._observable_fields())
        pending.extend(container.__subclasses__())
    return frozenset(kinds)


def check_known_kinds(kinds: frozenset[str], *, what: str = "kinds") -> None:
    """Reject kinds no observable container declares (typos), listing the known ones.

    A known kind that the configured solver does not produce is reported later, when the solver allocates its
    container (``sim.reset()``), as unsupported by that solver.

    Raises:
        ValueError: If a kind is unknown.
    """
    known = known_observable_kinds()
    unknown = sorted(kinds - known)
    if unknown:
        raise ValueError(
            f"Unknown solver observable kind(s) {unknown} in {what}; known kinds: {sorted(known)}. Fix the spelling,"
            " or import the module defining a custom solver's Observables before requesting its kinds."
        )


def is_contact_indexed(solver: SolverBase, kind: str) -> bool:
    """Return whether ``kind`` is indexed by contact rows in ``solver``'s observable container.

    Args:
        solver: The solver that will allocate the container.
        kind: Observable kind name.
    """
    declarations = type(solver).Observables._observable_fields()
    if kind not in declarations:
        return False
    return declarations[kind][1].frequency in _CONTACT_FREQUENCIES


@dataclass
class ObservableRequests:
    """Union of the observable kinds requested by every consumer."""

    final: set[str] = field(default_factory=set)
    """Kinds written on the final substep of each physics step."""

    every_substep: set[str] = field(default_factory=set)
    """Kinds written on every substep (a kind requested both ways is written on every substep)."""

    def add(self, kinds: Iterable[str], *, every_substep: bool = False) -> None:
        """Add kinds to the request.

        Args:
            kinds: Collection of kind names.
            every_substep: Write these kinds on every substep instead of only the final one.

        Raises:
            TypeError: If ``kinds`` is a bare string or holds non-string entries.
            ValueError: If a kind is not declared by any observable container (see :func:`check_known_kinds`).
        """
        kinds = normalize_kinds(kinds)
        check_known_kinds(kinds)
        (self.every_substep if every_substep else self.final).update(kinds)

    def covers(self, kinds: Iterable[str], *, every_substep: bool = False) -> bool:
        """Return whether ``kinds`` are already requested at (at least) the given cadence.

        Args:
            kinds: Collection of kind names.
            every_substep: Whether the kinds must be written on every substep.
        """
        kinds = normalize_kinds(kinds)
        return kinds <= (frozenset(self.every_substep) if every_substep else self.all)

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
        container: The container holding every requested array; passed on the final substep.
        early: Subset passed on every substep but the last: the every-substep kinds, or ``None`` when
            no kind is requested every substep.
        contacts: Contact storage the container is bound to (``None`` without contact-indexed kinds).
        pipeline: Collision pipeline that fills :attr:`contacts` (``None`` when the manager owns none).
        rigid_contact_max: Rigid capacity frozen at allocation (``None`` without contact-indexed kinds).
        soft_contact_max: Soft capacity frozen at allocation (``None`` without contact-indexed kinds).
    """

    container: SolverBase.Observables
    early: SolverBase.Observables | None
    contacts: newton.Contacts | None = None
    pipeline: newton.CollisionPipeline | None = None
    rigid_contact_max: int | None = None
    soft_contact_max: int | None = None

    def for_substep(self, substep: int, num_substeps: int) -> SolverBase.Observables | None:
        """Return the container to pass to ``solver.step`` on ``substep`` (0-based) of ``num_substeps``."""
        return self.container if substep == num_substeps - 1 else self.early

    def check_contacts(
        self,
        contacts: newton.Contacts | None,
        pipeline: newton.CollisionPipeline | None,
        model: newton.Model,
    ) -> None:
        """Reject contact storage or capacities that changed since allocation.

        Host-only checks (no device work), run by the manager before each step.

        Args:
            contacts: The contacts the manager passes to the solver.
            pipeline: The collision pipeline the manager runs (``None`` when it owns none).
            model: The model; its published capacities must still match the frozen ones.

        Raises:
            RuntimeError: If the contacts object, the pipeline, or any capacity changed since allocation.
        """
        if self.contacts is None:
            return
        fix = (
            " Contact capacities are frozen once contact observables are allocated: set NewtonCfg.collision_cfg and"
            " hard-reset with sim.reset(), which rebuilds the pipeline and re-allocates the observables."
        )
        if contacts is not self.contacts:
            raise RuntimeError(
                "The contacts passed to the solver are not the ones the observables were allocated with." + fix
            )
        if pipeline is not self.pipeline:
            raise RuntimeError(
                "The collision pipeline was replaced after the observables were allocated with its contacts." + fix
            )
        frozen = (self.rigid_contact_max, self.soft_contact_max)
        for name, now in (
            ("contacts", (contacts.rigid_contact_max, contacts.soft_contact_max)),
            ("model", (model.rigid_contact_max, model.soft_contact_max)),
        ):
            if now != frozen:
                raise RuntimeError(
                    f"Contact capacities on the {name} changed after observable allocation (rigid, soft):"
                    f" {frozen} -> {now}; a collision pipeline was probably rebuilt with other capacities." + fix
                )


def allocate_schedule(
    solver: SolverBase,
    requests: ObservableRequests,
    contacts: newton.Contacts | None,
    *,
    solver_name: str,
    pipeline: newton.CollisionPipeline | None = None,
) -> ObservableSchedule | None:
    """Allocate the observable container for ``requests`` and build its substep subsets.

    Call after the collision pipeline and contacts exist and before any graph capture. Contacts are
    passed to :meth:`~newton.solvers.SolverBase.observables` only when a contact-indexed kind is
    requested; a solver that owns its collision pipeline provides them through ``solver.contacts``.

    Args:
        solver: The configured solver.
        requests: The union of requested kinds.
        contacts: Contacts the manager passes to the solver (``None`` when it owns none).
        solver_name: Name of the solver manager, used in error messages.
        pipeline: Collision pipeline filling ``contacts``, recorded to reject replacements.

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
            f"{solver_name} ({type(solver).__name__}) does not support solver observable(s) {unsupported} (known"
            " kinds that this solver does not produce);"
            f" solver.supported_observables = {sorted(supported)}. Pick a solver that produces them or drop the"
            " request (sensor, NewtonCfg.observables or NewtonManager.request_observables)."
        )
    contact_kinds = sorted(kind for kind in kinds if is_contact_indexed(solver, kind))
    bound = None
    if contact_kinds:
        bound = contacts if contacts is not None else solver.contacts
        if bound is None:
            raise ValueError(
                f"{solver_name} has no contact storage, but contact-indexed observable(s) {contact_kinds} were"
                " requested. Use a solver manager that owns a collision pipeline or exposes its native contacts."
            )
    container = solver.observables(kinds=kinds, contacts=bound)
    early = container.select(requests.every_substep) if requests.every_substep else None
    return ObservableSchedule(
        container=container,
        early=early,
        contacts=bound,
        pipeline=pipeline if bound is not None and bound is contacts else None,
        rigid_contact_max=None if bound is None else bound.rigid_contact_max,
        soft_contact_max=None if bound is None else bound.soft_contact_max,
    )


def clear_world_rows(container: SolverBase.Observables, model: newton.Model, world_mask: wp.array) -> None:
    """Zero the body-indexed observable rows (``body_qdd``, ``body_parent_f``, ...) of the masked worlds.

    Runs when worlds are reset, so sensors reading the container before the next step see no pre-reset
    (possibly non-finite) values. Spatial-vector body kinds are cleared; contact-indexed kinds are rebuilt by
    the next collision pass and are left alone.

    Args:
        container: The allocated observable container.
        model: The finalized model (its ``body_world`` maps rows to worlds).
        world_mask: Boolean mask of shape ``(world_count + 1,)``; the last entry selects the shared world ``-1``.
    """
    if not model.body_count:
        return
    for kind, (name, spec) in type(container)._observable_fields().items():
        array = getattr(container, name)
        if (
            array is None
            or kind not in container.kinds
            or spec.frequency != newton.Model.AttributeFrequency.BODY
            or array.dtype != wp.spatial_vector
        ):
            continue
        wp.launch(
            _zero_world_rows, dim=model.body_count, inputs=[model.body_world, world_mask, array], device=array.device
        )


@wp.kernel
def _zero_world_rows(
    body_world: wp.array(dtype=wp.int32), world_mask: wp.array(dtype=wp.bool), rows: wp.array(dtype=wp.spatial_vector)
):
    b = wp.tid()
    w = body_world[b]
    if w < 0:
        w = world_mask.shape[0] - 1
    if world_mask[w]:
        rows[b] = wp.spatial_vector()
