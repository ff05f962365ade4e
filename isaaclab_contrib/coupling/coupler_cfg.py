"""Configurations of Newton's partitioned couplers: entries, proxy mappings, proxy and ADMM coupling."""

from __future__ import annotations

from dataclasses import MISSING
from typing import Any, Literal

from isaaclab.utils import configclass

from isaaclab_newton.physics import NewtonSolverCfg


@configclass
class CouplerEntryCfg:
    """One sub-solver and the disjoint part of the shared model it owns.

    Ownership is selected through the scene: rigid bodies (with their shapes and the joints that attach them) by
    label pattern, further shapes by label pattern, the particles of named deformables, all particles, or the
    static (world) shapes.
    Patterns are regular expressions matched in full against Newton labels, e.g. ``"/World/envs/env_.*/Box"``.
    Every selector must match something, and no body, shape or particle may belong to two entries.
    """

    name: str = MISSING
    """Unique entry name, used by proxy mappings and contact pairs."""

    solver_cfg: NewtonSolverCfg = MISSING
    """Solver of this entry (e.g. ``MJWarpSolverCfg(use_mujoco_contacts=False)``, ``VBDSolverCfg()``); built
    through its manager class's ``_create_solver()`` on the entry's model view."""

    body_patterns: tuple[str, ...] = ()
    """Body label patterns; the bodies' shapes and the joints whose child is a selected body come along."""

    shape_patterns: tuple[str, ...] = ()
    """Shape label patterns."""

    deformables: tuple[str, ...] = ()
    """Prim paths (the ``DeformableObjectCfg.prim_path``) whose particles this entry owns."""

    all_particles: bool = False
    """Own every particle of the model."""

    static_shapes: bool = False
    """Own the shapes attached to the world (ground, fixed obstacles)."""

    substeps: int = 1
    """Sub-solver substeps per coupled step."""

    in_place: bool = False
    """Let the sub-solver step in place (only for solvers that support it)."""


@configclass
class CouplerProxyMappingCfg:
    """Expose bodies or particles of a source entry to a destination entry as proxies with lagged feedback."""

    source: str = MISSING
    """Entry owning the proxied bodies/particles."""

    destination: str = MISSING
    """Entry that sees them as proxies."""

    body_patterns: tuple[str, ...] = ()
    """Body label patterns (bodies of ``source``) to proxy."""

    deformables: tuple[str, ...] = ()
    """Deformables (of ``source``) whose particles are proxied."""

    mass_scale: float = 1.0
    """Scale of the proxies' mass and inertia (> 0)."""

    mode: Literal["lagged", "staggered"] = "lagged"
    """``"lagged"``: sync begin poses and end velocities; ``"staggered"``: sync end poses and velocities."""

    relaxation: float = 1.0
    """Feedback relaxation factor (>= 0; below 1 under-relaxes)."""

    relaxation_mode: Literal["fixed", "aitken"] = "fixed"
    """Fixed relaxation or Aitken updates from consecutive residuals."""

    relaxation_min: float = 0.1
    """Lower bound of the Aitken factor."""

    relaxation_max: float = 1.0
    """Upper bound of the Aitken factor."""

    destination_collision_pipeline: bool = False
    """Give the destination its own collision pipeline for proxy contacts (else it uses the shared contacts)."""

    collide_interval: int | None = None
    """Coupled steps between refreshes of that pipeline (``None``: every step)."""


@configclass
class SoftContactCfg:
    """Particle-shape penalty contact of the shared model (``None`` keeps the model's value)."""

    soft_contact_ke: float | None = None
    """Particle-shape contact stiffness [N/m] (``Model.soft_contact_ke``)."""

    soft_contact_kd: float | None = None
    """Particle-shape contact damping [N s/m] (``Model.soft_contact_kd``)."""

    soft_contact_mu: float | None = None
    """Particle-shape friction coefficient (``Model.soft_contact_mu``)."""


@configclass
class CouplerProxyCfg(NewtonSolverCfg):
    """Proxy coupling (:class:`newton.solvers.experimental.coupled.SolverCoupledProxy`)."""

    class_type: Any = "{DIR}.newton_coupler_manager:NewtonCouplerManager"
    solver_type: str = "coupled_proxy"

    entries: tuple[CouplerEntryCfg, ...] = ()
    """Sub-solvers and what each owns."""

    proxies: tuple[CouplerProxyMappingCfg, ...] = ()
    """Directed proxy mappings between entries."""

    iterations: int = 1
    """Proxy relaxation passes per step (>= 1)."""

    soft_contact: SoftContactCfg = SoftContactCfg()
    """Particle-shape contact settings applied to the model."""


@configclass
class CouplerAdmmCfg(NewtonSolverCfg):
    """Linearized ADMM coupling (:class:`newton.solvers.experimental.coupled.SolverCoupledADMM`)."""

    class_type: Any = "{DIR}.newton_coupler_manager:NewtonCouplerManager"
    solver_type: str = "coupled_admm"

    entries: tuple[CouplerEntryCfg, ...] = ()
    """Sub-solvers and what each owns."""

    iterations: int = 5
    """ADMM iterations per step."""

    rho: float = 1.0
    """Penalty parameter of the augmented Lagrangian."""

    gamma: float = 0.0
    """Dual damping."""

    baumgarte: float = 0.0
    """Baumgarte stabilization of the interface constraints."""

    joint_stiffness: float = 1.0e4
    """Linear stiffness of cross-solver joints [N/m]."""

    joint_damping: float = 0.0
    """Linear damping of cross-solver joints [N s/m]."""

    joint_angular_stiffness: float = 1.0e4
    """Angular stiffness of cross-solver joints [N m/rad]."""

    joint_angular_damping: float = 0.0
    """Angular damping of cross-solver joints [N m s/rad]."""

    contact_pairs: tuple[tuple[str, str], ...] | None = None
    """Entry pairs with ADMM contact rows; ``None`` auto-detects every cross-entry pair, ``()`` disables them."""

    soft_contact: SoftContactCfg = SoftContactCfg()
    """Particle-shape contact settings applied to the model."""
