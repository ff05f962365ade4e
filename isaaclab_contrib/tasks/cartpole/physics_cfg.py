"""Solver presets of the cartpole tasks: MuJoCo Warp by default, XPBD or Featherstone selectable."""

from __future__ import annotations

from isaaclab_newton.physics import FeatherstoneSolverCfg, MJWarpSolverCfg, NewtonCfg, XPBDSolverCfg

from ..solver_choice import check_solver_name


def cartpole_physics(solver: str = "mjwarp") -> NewtonCfg:
    """Return the Newton configuration of the cartpole tasks.

    Args:
        solver: ``"mjwarp"`` (default), ``"xpbd"`` or ``"featherstone"``.

    Raises:
        ValueError: For another solver name.
    """
    check_solver_name(solver, task="cartpole")
    if solver == "xpbd":
        return NewtonCfg(solver_cfg=XPBDSolverCfg(iterations=8), num_substeps=4)
    if solver == "featherstone":
        return NewtonCfg(solver_cfg=FeatherstoneSolverCfg(), num_substeps=4)
    return NewtonCfg(
        solver_cfg=MJWarpSolverCfg(njmax=5, nconmax=3, cone="pyramidal", impratio=1, integrator="implicitfast")
    )
