"""Configuration of the VBD solver manager."""

from __future__ import annotations

from typing import Any

from isaaclab.utils import configclass

from .newton_solver_cfg import NewtonSolverCfg


@configclass
class VBDSolverCfg(NewtonSolverCfg):
    """Vertex Block Descent (:class:`newton.solvers.SolverVBD`) settings.

    VBD integrates particles (cloth, soft bodies) and, in Newton 1.8, rigid bodies and their joints (AVBD with
    compliant augmented Lagrangian rows). The manager colors the builder before ``finalize()``, as VBD requires.
    ``None`` keeps the value authored on the model (``newton:*`` scene attributes) or Newton's default.
    """

    class_type: Any = "{DIR}.vbd_manager:NewtonVBDManager"
    solver_type: str = "vbd"

    iterations: int | None = None
    """VBD iterations per substep. ``None`` reads the scene's value, else Newton uses 10."""

    friction_epsilon: float = 1.0e-2
    """Relative speed [m/s] below which friction is smoothed (particle and rigid contacts)."""

    integrate_with_external_rigid_solver: bool = False
    """Leave rigid bodies to another solver (coupling only). A standalone manager rejects it when the model has
    dynamic bodies, since nothing would integrate them."""

    particle_enable_self_contact: bool = False
    """Detect and resolve particle self-contact (cloth folding onto itself)."""

    particle_self_contact_margin: float | None = None
    """Self-contact interaction distance [m]. ``None`` keeps Newton's default (0.2 m)."""

    particle_self_contact_gap: float | None = None
    """Extra detection-only distance [m] added to :attr:`particle_self_contact_margin`."""

    particle_enable_tile_solve: bool = True
    """Accelerate the particle solve with Warp's tile API."""

    rigid_avbd_gamma: float = 0.999
    """Per-step decay of persisted constraint multipliers (0..1)."""

    rigid_body_contact_buffer_size: int = 64
    """Capacity of the per-body body-body contact list."""

    rigid_body_particle_contact_buffer_size: int = 256
    """Capacity of the per-body soft-contact list."""

    rigid_joint_linear_ke: float | None = None
    """Structural linear joint stiffness [N/m]. ``None`` reads the scene, else 1e5."""

    rigid_joint_angular_ke: float | None = None
    """Structural angular joint stiffness [N m/rad]. ``None`` reads the scene, else 1e5."""

    rigid_joint_linear_kd: float | None = None
    """Linear joint damping [N s/m]. ``None`` reads the scene, else 0."""

    rigid_joint_angular_kd: float | None = None
    """Angular joint damping [N m s/rad]. ``None`` reads the scene, else 0."""

    color_include_bending: bool = False
    """Include bending edges in the coloring graph (set when the model has bending edges)."""
