"""Configuration of the Kamino solver manager."""

from __future__ import annotations

from typing import Any, Literal

from isaaclab.utils import configclass

from .newton_solver_cfg import NewtonSolverCfg


@configclass
class KaminoPADMMCfg:
    """Proximal ADMM settings of Kamino (``SolverKamino.Config.padmm``).

    Each set field overrides the field of the same name of Kamino's PADMM configuration; ``None`` keeps
    Kamino's default.
    """

    max_iterations: int | None = None
    """Maximum PADMM iterations per step."""

    primal_tolerance: float | None = None
    """Primal residual tolerance."""

    dual_tolerance: float | None = None
    """Dual residual tolerance."""

    compl_tolerance: float | None = None
    """Complementarity residual tolerance."""

    restart_tolerance: float | None = None
    """Residual ratio below which the accelerated iteration restarts."""

    eta: float | None = None
    """Proximal regularization."""

    rho_0: float | None = None
    """Initial ALM penalty."""

    rho_min: float | None = None
    """Lower bound of the ALM penalty."""

    penalty_update_method: str | None = None
    """Penalty update rule (Kamino's names, e.g. ``"fixed"``)."""

    use_acceleration: bool | None = None
    """Nesterov-type acceleration of the iteration."""

    warmstart_mode: str | None = None
    """Warm-start source (Kamino's names, e.g. ``"containers"``)."""


@configclass
class KaminoSolverCfg(NewtonSolverCfg):
    """Kamino (:class:`newton.solvers.SolverKamino`) settings.

    Maximal coordinates with hard joint, limit and frictional contact constraints solved as a nonlinear
    complementarity problem (kinematic loops allowed). Fields map to :class:`SolverKamino.Config`; ``None`` keeps
    the value authored on the model (KaminoSceneAPI attributes) or Kamino's default.
    """

    class_type: Any = "{DIR}.kamino_manager:NewtonKaminoManager"
    solver_type: str = "kamino"

    dynamics_solver: Literal["padmm", "dvi", "lox"] = "padmm"
    """Forward-dynamics backend: proximal ADMM, DVI, or the experimental LOX."""

    sparse_jacobian: bool | None = None
    """Use sparse constraint Jacobians. ``None`` picks the backend default (dense for PADMM)."""

    sparse_dynamics: bool = False
    """Use sparse dynamics data (needs :attr:`sparse_jacobian`)."""

    use_collision_detector: bool = False
    """Detect contacts with Kamino's own detector instead of the manager's Newton collision pipeline."""

    max_contacts_per_world: int | None = None
    """Contact capacity per world: of Kamino's own detector with :attr:`use_collision_detector`, else of the
    manager's Newton collision pipeline (``rigid_contact_max = max_contacts_per_world * world_count``)."""

    use_fk_solver: bool = False
    """Enable Kamino's forward-kinematics solver for consistent initial states of closed loops."""

    integrator: Literal["euler", "moreau"] = "euler"
    """Time integrator (``"moreau"`` needs :attr:`use_collision_detector`)."""

    rotation_correction: Literal["twopi", "continuous", "none"] = "twopi"
    """Correction mode of rotational joint coordinates."""

    angular_velocity_damping: float = 0.0
    """Damping factor of body angular velocities during integration, in [0, 1]."""

    dynamics_solver_cfg: KaminoPADMMCfg | None = None
    """Settings of the dynamics backend (PADMM only). ``None`` keeps Kamino's defaults."""


KaminoPADMMSolverCfg = KaminoSolverCfg
"""Name Isaac Lab's task configurations import for Kamino with its default PADMM backend."""
