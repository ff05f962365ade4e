"""Configuration of the semi-implicit (symplectic Euler) solver manager."""

from __future__ import annotations

from typing import Any

from isaaclab.utils import configclass

from .newton_solver_cfg import NewtonSolverCfg


@configclass
class SemiImplicitSolverCfg(NewtonSolverCfg):
    """Semi-implicit Euler (:class:`newton.solvers.SolverSemiImplicit`) settings.

    Maximal coordinates; joints are penalty springs (:attr:`joint_attach_ke` / :attr:`joint_attach_kd`) and
    contacts are penalty forces from the shape materials (``ke``, ``kd``, ``kf``, ``mu``). Explicit: it needs
    small substeps for stiff joints and contacts.
    """

    class_type: Any = "{DIR}.semi_implicit_manager:NewtonSemiImplicitManager"
    solver_type: str = "semi_implicit"

    angular_damping: float = 0.05
    """Angular damping factor applied to body angular velocities [1/s]."""

    joint_attach_ke: float = 1.0e4
    """Stiffness of the springs that hold joint frames together [N/m and N m/rad]."""

    joint_attach_kd: float = 1.0e2
    """Damping of the springs that hold joint frames together [N s/m and N m s/rad]."""

    joint_mimic_ke: float = 1.0e2
    """Position gain of joint mimic springs [N/m or N m/rad]."""

    joint_mimic_kd: float = 1.0
    """Velocity gain of joint mimic springs [N s/m or N m s/rad]."""

    enable_tri_contact: bool = True
    """Evaluate particle-triangle contacts of cloth."""
