"""Pick a task's Newton solver by name (``cfg.solver``): MuJoCo Warp by default, XPBD or Featherstone where offered."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from isaaclab_newton.physics import NewtonCfg

SOLVER_TYPES: dict[str, str] = {"mjwarp": "mujoco_warp", "xpbd": "xpbd", "featherstone": "featherstone"}
"""Task-level solver names and the ``solver_type`` of the matching Newton solver configuration."""

SUPPORTED_SOLVERS: dict[str, tuple[str, ...]] = {
    "cartpole": ("mjwarp", "xpbd", "featherstone"),
    "ant": ("mjwarp", "featherstone"),
    "humanoid": ("mjwarp", "featherstone"),
}
"""Solvers each task family offers: each runs a full episode of random actions finite and bounded (docs/solvers.md)."""

_NOT_OFFERED: dict[tuple[str, str], str] = {
    ("ant", "xpbd"): (
        "Newton 1.8's XPBD ignores joint armature and joint damping, so the light MJCF legs (density 5) spin up under"
        " the 7.5 N m efforts and the ant is thrown meters into the air"
    ),
    ("humanoid", "xpbd"): (
        "Newton 1.8's XPBD ignores joint armature and joint damping; under random efforts the humanoid's state turns"
        " NaN within a few steps"
    ),
}


def check_solver_name(solver: str, *, task: str | None = None) -> None:
    """Raise a ``ValueError`` naming the valid choices when ``solver`` is unknown or not offered for ``task``.

    Args:
        solver: The task-level solver name.
        task: Task family (a key of :data:`SUPPORTED_SOLVERS`); ``None`` checks only that the name is known.
    """
    if solver not in SOLVER_TYPES:
        raise ValueError(f"Unknown solver {solver!r}; pick one of {sorted(SOLVER_TYPES)}.")
    if task is None or solver in SUPPORTED_SOLVERS[task]:
        return
    raise ValueError(
        f"Solver {solver!r} is not offered for the {task} tasks: {_NOT_OFFERED[(task, solver)]}. Supported solvers:"
        f" {list(SUPPORTED_SOLVERS[task])} (see docs/solvers.md)."
    )


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
