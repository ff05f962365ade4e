"""Configuration of the XPBD solver manager."""

from __future__ import annotations

from typing import Any

from isaaclab.utils import configclass

from .newton_solver_cfg import NewtonSolverCfg


@configclass
class XPBDSolverCfg(NewtonSolverCfg):
    """XPBD (:class:`newton.solvers.SolverXPBD`) settings: maximal coordinates, position-based constraints."""

    class_type: Any = "{DIR}.xpbd_manager:NewtonXPBDManager"
    solver_type: str = "xpbd"

    iterations: int = 2
    """Constraint iterations per substep."""

    soft_body_relaxation: float = 0.9
    """Relaxation of soft-body constraints."""

    soft_contact_relaxation: float = 0.9
    """Relaxation of particle contacts."""

    joint_linear_relaxation: float = 0.7
    """Relaxation of linear joint constraints."""

    joint_angular_relaxation: float = 0.4
    """Relaxation of angular joint constraints."""

    rigid_contact_relaxation: float = 0.8
    """Relaxation of rigid contacts."""

    angular_damping: float = 0.0
    """Angular velocity damping [1/s]."""

    enable_restitution: bool = False
    """Apply restitution in a separate pass."""
