"""The one value a solver manager's ``_build_solver`` returns: the solver and how the base loop drives it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import newton
    from newton.solvers import SolverBase

SubstepFn = Callable[..., None]
"""``substep(state_0, state_1, control, contacts, dt, *, observables=None)``: one solver substep."""


@dataclass(frozen=True)
class SolverSlots:
    """A built solver and the settings the base manager's substep loop needs to drive it.

    Returned by ``_build_solver(model, solver_cfg)`` of every solver manager, the way Newton's
    :class:`~newton.solvers.experimental.coupled.SolverCoupled.Entry` bundles one entry.

    Attributes:
        solver: The Newton solver that advances the model.
        use_single_state: The solver advances one state in place; otherwise the loop ping-pongs two states.
        needs_collision_pipeline: The manager creates a collision pipeline, collides before each substep and passes
            its contacts; ``False`` for solvers that detect contacts themselves.
        supports_rigid_body_force_input: The solver consumes ``State.body_f``; the manager's external wrench
            buffer is copied into it before every substep.
        substep: One substep, called as ``substep(state_0, state_1, control, contacts, dt, observables=...)``;
            ``None`` runs ``solver.step``. Use it to change what one substep does (MuJoCo's RNE switch, a coupled
            substep order) without overriding the loop.
    """

    solver: SolverBase
    use_single_state: bool = False
    needs_collision_pipeline: bool = True
    supports_rigid_body_force_input: bool = True
    substep: SubstepFn | None = None

    def __post_init__(self) -> None:
        from newton.solvers import SolverBase

        if not isinstance(self.solver, SolverBase):
            raise TypeError(
                f"SolverSlots.solver must be a newton.solvers.SolverBase, got {type(self.solver).__name__}; construct"
                " the Newton solver in _build_solver() and return SolverSlots(solver, ...)."
            )
        for name in ("use_single_state", "needs_collision_pipeline", "supports_rigid_body_force_input"):
            if not isinstance(getattr(self, name), bool):
                raise TypeError(f"SolverSlots.{name} must be a bool, got {getattr(self, name)!r}.")
        if self.substep is not None and not callable(self.substep):
            raise TypeError(f"SolverSlots.substep must be callable or None, got {type(self.substep).__name__}.")

    def step(
        self,
        state_0: newton.State,
        state_1: newton.State,
        control: newton.Control,
        contacts: newton.Contacts | None,
        dt: float,
        *,
        observables: SolverBase.Observables | None = None,
    ) -> None:
        """Advance one substep of ``dt`` [s] from ``state_0`` into ``state_1``."""
        step = self.solver.step if self.substep is None else self.substep
        step(state_0, state_1, control, contacts, dt, observables=observables)


def check_slots(manager_name: str, slots: object) -> SolverSlots:
    """Return ``slots`` when it is a :class:`SolverSlots`.

    Raises:
        TypeError: If ``_build_solver`` returned anything else (the message names the manager and the fix).
    """
    if not isinstance(slots, SolverSlots):
        raise TypeError(
            f"{manager_name}._build_solver() returned {type(slots).__name__}; it must return"
            " SolverSlots(solver, use_single_state=..., needs_collision_pipeline=...,"
            " supports_rigid_body_force_input=...) from isaaclab_newton.physics."
        )
    return slots
