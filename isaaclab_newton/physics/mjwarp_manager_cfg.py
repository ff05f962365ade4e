"""Configuration of the MuJoCo Warp solver manager."""

from __future__ import annotations

from typing import Any, Literal

from isaaclab.utils import configclass

from .newton_solver_cfg import NewtonSolverCfg


@configclass
class MJWarpSolverCfg(NewtonSolverCfg):
    """MuJoCo Warp (:class:`newton.solvers.SolverMuJoCo`) settings.

    ``None`` keeps the value from the model (imported MJCF options) or MuJoCo's default.
    """

    class_type: Any = "{DIR}.mjwarp_manager:NewtonMJWarpManager"
    solver_type: str = "mujoco_warp"

    use_mujoco_cpu: bool = False
    """Run MuJoCo's C library instead of MuJoCo Warp (CPU only, slow; for reference checks)."""

    use_mujoco_contacts: bool = True
    """Use MuJoCo's own collision detection. When ``False`` Newton's collision pipeline feeds the solver."""

    njmax: int | None = None
    """Maximum constraint rows per world."""

    nconmax: int | None = None
    """Maximum contacts per world."""

    iterations: int | None = None
    """Main solver iterations."""

    ls_iterations: int | None = None
    """Line-search iterations."""

    ccd_iterations: int | None = None
    """Iterations of the convex collision detection (GJK/EPA) of MuJoCo's own contacts."""

    ls_parallel: bool = False
    """Parallel line search. MuJoCo Warp 3.9.1 removed this option, so only ``False`` (the serial search it
    always runs) can be honoured; ``True`` is rejected when the solver is built."""

    solver: Literal["cg", "newton"] | None = None
    """Constraint solver algorithm."""

    integrator: Literal["euler", "implicitfast", "rk4"] | None = None
    """Numerical integrator."""

    cone: Literal["pyramidal", "elliptic"] | None = None
    """Friction cone model."""

    impratio: float | None = None
    """Ratio of frictional to normal constraint impedance."""

    tolerance: float | None = None
    """Solver convergence tolerance."""

    ls_tolerance: float | None = None
    """Line-search tolerance."""

    disable_contacts: bool | None = None
    """Disable all contacts."""

    update_data_interval: int | None = None
    """Steps between syncs of MuJoCo data from the Newton state (1 = every step)."""
