"""Checks of the four slots a solver manager's ``_build_solver()`` assigns on ``NewtonManager``."""

from __future__ import annotations

import warnings

import numpy as np

SLOT_NAMES = ("_solver", "_use_single_state", "_needs_collision_pipeline", "_supports_rigid_body_force_input")
"""The slots, in the order the extension contract lists them."""

_FLAG_SLOTS = SLOT_NAMES[1:]
"""The slots besides ``_solver``; each runs as ``False`` when ``_build_solver()`` leaves it unset (``None``)."""


def check_slots(manager: type, owner: type) -> None:
    """Check the slots ``manager._build_solver()`` just assigned on ``owner`` and set unset flags to ``False``.

    Args:
        manager: The solver manager whose ``_build_solver()`` ran.
        owner: The class the slots live on (``NewtonManager``); they were ``None`` before the build.

    Raises:
        RuntimeError: If a slot was assigned on ``manager`` (or a class between it and ``owner``) instead of on
            ``owner`` (the stray copy is removed, so it cannot shadow the slot later), or ``_solver`` is unset.
        TypeError: If ``_solver`` is not a Newton solver or a flag is not a bool.
    """
    from newton.solvers import SolverBase

    for klass in manager.__mro__[: manager.__mro__.index(owner)]:
        misplaced = [name for name in SLOT_NAMES if name in vars(klass)]
        if misplaced:
            for name in misplaced:
                delattr(klass, name)
            raise RuntimeError(
                f"{manager.__name__}._build_solver() assigned {', '.join(misplaced)} on {klass.__name__}: the slots"
                f" live on {owner.__name__} itself, which the base manager reads. Write"
                f" `{owner.__name__}.{misplaced[0]} = ...`, not `cls.{misplaced[0]} = ...`."
            )
    solver = owner._solver
    if solver is None:
        raise RuntimeError(
            f"{manager.__name__}._build_solver() did not assign {owner.__name__}._solver: construct the Newton solver"
            f" there and assign it, e.g. `{owner.__name__}._solver = SolverXPBD(model)`."
        )
    if not isinstance(solver, SolverBase):
        raise TypeError(
            f"{manager.__name__}._build_solver() assigned a {type(solver).__name__} to {owner.__name__}._solver; it"
            " must be a newton.solvers.SolverBase (the constructed Newton solver)."
        )
    unset = [name for name in _FLAG_SLOTS if getattr(owner, name) is None]
    for name in _FLAG_SLOTS:
        value = getattr(owner, name)
        if value is not None and not isinstance(value, (bool, np.bool_)):
            raise TypeError(
                f"{manager.__name__}._build_solver() set {owner.__name__}.{name} = {value!r}; it must be a bool."
            )
        setattr(owner, name, bool(value))
    if unset:
        warnings.warn(
            f"{manager.__name__}._build_solver() left {', '.join(f'{owner.__name__}.{n}' for n in unset)} unset; it"
            f" runs with {', '.join(f'{n} = False' for n in unset)} (double-buffered states, no collision pipeline,"
            f" no external wrench input, where unset). Assign all four slots in _build_solver().",
            UserWarning,
            stacklevel=4,
        )
