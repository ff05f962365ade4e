"""Solver choices of the cartpole tasks: MuJoCo Warp by default, XPBD selectable."""

from __future__ import annotations

from isaaclab_newton.physics import MJWarpSolverCfg, NewtonCfg, XPBDSolverCfg


def cartpole_physics(solver: str = "mjwarp") -> NewtonCfg:
    """Return the Newton configuration of the cartpole tasks.

    Args:
        solver: ``"mjwarp"`` (default) or ``"xpbd"``.

    Raises:
        ValueError: For another solver name.
    """
    if solver == "mjwarp":
        return NewtonCfg(
            solver_cfg=MJWarpSolverCfg(njmax=5, nconmax=3, cone="pyramidal", impratio=1, integrator="implicitfast")
        )
    if solver == "xpbd":
        return NewtonCfg(solver_cfg=XPBDSolverCfg(iterations=8), num_substeps=4)
    raise ValueError(f"Unknown cartpole solver {solver!r}; use 'mjwarp' or 'xpbd'.")
