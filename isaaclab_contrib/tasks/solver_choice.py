"""Pick a task's Newton solver by name (``cfg.solver``): MuJoCo Warp by default, XPBD or Featherstone."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from isaaclab_newton.physics import NewtonCfg

SOLVER_TYPES: dict[str, str] = {"mjwarp": "mujoco_warp", "xpbd": "xpbd", "featherstone": "featherstone"}
"""Task-level solver names and the ``solver_type`` of the matching Newton solver configuration."""


def check_solver_name(solver: str) -> None:
    """Raise a ``ValueError`` naming the valid choices when ``solver`` is unknown."""
    if solver not in SOLVER_TYPES:
        raise ValueError(f"Unknown solver {solver!r}; pick one of {sorted(SOLVER_TYPES)}.")


def apply_solver(cfg: Any, physics_for: Callable[[str], NewtonCfg]) -> None:
    """Make ``cfg.sim.physics`` match ``cfg.solver``, keeping a physics cfg that already uses that solver.

    Args:
        cfg: An environment configuration with a ``solver`` field and ``sim.physics``.
        physics_for: The task's ``solver name -> NewtonCfg`` preset function.
    """
    check_solver_name(cfg.solver)
    current = getattr(getattr(cfg.sim.physics, "solver_cfg", None), "solver_type", None)
    if current != SOLVER_TYPES[cfg.solver]:
        cfg.sim.physics = physics_for(cfg.solver)
