"""Configuration of the Featherstone solver manager."""

from __future__ import annotations

from typing import Any

from isaaclab.utils import configclass

from .newton_solver_cfg import NewtonSolverCfg


@configclass
class FeatherstoneSolverCfg(NewtonSolverCfg):
    """Featherstone (:class:`newton.solvers.SolverFeatherstone`) settings.

    Reduced (joint) coordinates with the composite rigid body algorithm and symplectic Euler; contacts
    are penalty forces from Newton's collision pipeline. Every body must be connected to the world by a
    joint (a free-floating body needs a free joint, which ``ModelBuilder.add_body`` adds).
    """

    class_type: Any = "{DIR}.featherstone_manager:NewtonFeatherstoneManager"
    solver_type: str = "featherstone"

    angular_damping: float = 0.05
    """Angular damping factor applied to body angular velocities [1/s]."""

    update_mass_matrix_interval: int = 1
    """Recompute the joint-space mass matrix every this many solver steps."""

    use_tile_gemm: bool = False
    """Solve for joint accelerations with Warp's tile API (one kernel per articulation size)."""

    fuse_cholesky: bool = True
    """Fuse the Cholesky factorization into the mass-matrix kernel (only with :attr:`use_tile_gemm`)."""
