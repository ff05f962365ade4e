"""The four slots a solver manager's ``_build_solver`` sets on the base manager, and their check."""

from __future__ import annotations

import warnings

SLOT_NAMES = ("_solver", "_use_single_state", "_needs_collision_pipeline", "_supports_rigid_body_force_input")
SLOT_DEFAULTS = {
    "_use_single_state": False,
    "_needs_collision_pipeline": False,
    "_supports_rigid_body_force_input": False,
}


def validate_slots(cls: type, base: type) -> None:
    """Move slots set on the subclass ``cls`` to ``base`` (``NewtonManager``) and default unset ones, warning each time.

    Raises:
        RuntimeError: If no solver was assigned.
    """
    for name in SLOT_NAMES:
        if cls is not base and name in cls.__dict__:
            value = cls.__dict__[name]
            delattr(cls, name)
            warnings.warn(
                f"{cls.__name__}._build_solver() set slot '{name}' on {cls.__name__} instead of {base.__name__};"
                f" the base manager reads {base.__name__}.{name}. Assign '{base.__name__}.{name} = ...'.",
                UserWarning,
                stacklevel=3,
            )
            if getattr(base, name) is None:
                setattr(base, name, value)
    if base._solver is None:
        raise RuntimeError(
            f"{cls.__name__}._build_solver() did not assign {base.__name__}._solver; construct the Newton solver"
            f" there and assign it with '{base.__name__}._solver = ...'."
        )
    for name, default in SLOT_DEFAULTS.items():
        if getattr(base, name) is None:
            warnings.warn(
                f"{cls.__name__}._build_solver() left slot '{name}' unset; using {default}. Assign"
                f" '{base.__name__}.{name}' explicitly.",
                UserWarning,
                stacklevel=3,
            )
            setattr(base, name, default)
