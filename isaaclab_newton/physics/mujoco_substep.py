"""One :class:`newton.solvers.SolverMuJoCo` substep whose post-constraint RNE pass runs only when it is asked for."""

from __future__ import annotations

import newton
from newton.solvers import SolverBase, SolverMuJoCo


def step_mujoco(
    solver: SolverMuJoCo,
    state_in: newton.State,
    state_out: newton.State,
    control: newton.Control,
    contacts: newton.Contacts | None,
    dt: float,
    *,
    observables: SolverBase.Observables | None = None,
) -> None:
    """Advance ``solver`` by one substep of ``dt`` seconds.

    Newton switches MuJoCo Warp's ``opt.run_rne_postconstraint`` on for the first substep that requests
    ``body_qdd`` or ``body_parent_f`` and never off again, so every later substep (and every CUDA graph captured
    later) would pay for the RNE pass whether or not it asks for body observables. The switch is cleared before
    each substep here, and Newton sets it again on the substeps whose ``observables`` (or output state fields)
    request them. Users who want the pass on every substep schedule the kinds with ``every_substep=True``.

    Args:
        solver: The MuJoCo solver; with ``use_mujoco_cpu=True`` (MuJoCo C decides per step) nothing is cleared.
        state_in: State at the start of the substep.
        state_out: State written at the end of the substep.
        control: Joint targets and forces.
        contacts: Contacts of this substep, or ``None`` when MuJoCo collides itself.
        dt: Substep length [s].
        observables: Observables requested on this substep, or ``None``.
    """
    clear_rne_switch(solver)
    solver.step(state_in, state_out, control, contacts, dt, observables=observables)


def clear_rne_switch(solver: SolverBase) -> None:
    """Switch MuJoCo Warp's post-constraint RNE pass off until a step's observables ask for it again.

    For a solver that steps a :class:`SolverMuJoCo` inside its own step (Newton's coupled solvers), call this
    before that step; :func:`step_mujoco` calls it itself. Other solvers, and MuJoCo C, are left as they are.

    Args:
        solver: Any Newton solver.
    """
    if isinstance(solver, SolverMuJoCo) and not solver.use_mujoco_cpu:
        solver.mjw_model.opt.run_rne_postconstraint = False
