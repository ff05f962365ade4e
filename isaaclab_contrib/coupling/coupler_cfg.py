"""Configurations of Newton's partitioned couplers: entries, proxy mappings, proxy and ADMM coupling."""

from __future__ import annotations

from dataclasses import MISSING
from typing import Any, Literal

from isaaclab.utils import configclass

from isaaclab_newton.physics import NewtonCollisionPipelineCfg, NewtonSolverCfg


@configclass
class CouplerEntryCfg:
    """One sub-solver and the disjoint part of the shared model it owns (``SolverCoupled.Entry``).

    Ownership is selected through the scene: rigid bodies by label pattern (with their shapes and the joints that
    attach them, unless switched off), further shapes by label pattern, the particles of named deformables, all
    particles, or the static (world) shapes. Patterns are regular expressions matched from the start of a Newton
    label (:func:`re.match`), so ``"/World/envs/env_.*/Robot"`` selects every body below the robot's prim; end a
    pattern with ``$`` to match whole labels only. Every selector must match something, and no body, joint, shape
    or particle may belong to two entries.
    """

    name: str = MISSING
    """Unique entry name, used by proxy mappings and contact pairs."""

    solver_cfg: NewtonSolverCfg = MISSING
    """Solver of this entry (e.g. ``MJWarpSolverCfg(use_mujoco_contacts=False)``, ``VBDSolverCfg()``); built
    through its manager class's ``_create_solver()`` on the entry's model view."""

    bodies: list[str] = []
    """Body label patterns of the rigid bodies this entry owns (``Entry.bodies``)."""

    shape_label_patterns: list[str] = []
    """Shape label patterns of further shapes this entry owns (``Entry.shapes``)."""

    deformables: list[str] = []
    """Prim paths (the ``DeformableObjectCfg.prim_path``) whose particles this entry owns (``Entry.particles``)."""

    all_particles: bool = False
    """Own every particle of the model."""

    include_static_shapes: bool = False
    """Own the shapes attached to the world (ground, fixed obstacles)."""

    include_body_shapes: bool = True
    """Own the shapes attached to the selected bodies. With ``False`` and no other shape selected, the entry owns
    no shapes and Newton lets it see its bodies' shapes and the static shapes without owning them."""

    include_child_joints: bool = True
    """Own the joints whose child is a selected body. With ``False`` they stay unowned, and Newton gives each
    selected body a free root joint in this entry's view (the entry moves the bodies without their joints)."""

    substeps: int = 1
    """Sub-solver substeps per coupled step (>= 1)."""

    in_place: bool = False
    """Let the sub-solver step in place (only for solvers that support it; not for the source of a lagged
    proxy)."""


@configclass
class CouplerProxyMappingCfg:
    """Expose bodies or particles of a source entry to a destination entry as proxies with lagged feedback
    (``SolverCoupledProxy.Proxy``)."""

    source: str = MISSING
    """Entry owning the proxied bodies/particles."""

    destination: str = MISSING
    """Entry that sees them as proxies."""

    bodies: list[str] = []
    """Body label patterns (bodies owned by ``source``) to proxy; matched like :attr:`CouplerEntryCfg.bodies`.
    The proxies keep the source's fixed, prismatic and revolute joints among these bodies."""

    deformables: list[str] = []
    """Deformables (owned by ``source``) whose particles are proxied."""

    mass_scale: float = 1.0
    """Scale of the proxies' mass and inertia in the destination (> 0); the source's own masses are unchanged."""

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

    collision_pipeline: NewtonCollisionPipelineCfg | None = NewtonCollisionPipelineCfg()
    """Settings of the destination's own ``newton.CollisionPipeline`` on its model view, which detects the proxy
    contacts before the destination solve. ``None``: no own pipeline, the destination uses the shared contacts."""

    collide_interval: int | None = None
    """Coupled steps between refreshes of :attr:`collision_pipeline` (``None``: every step; needs a pipeline)."""


@configclass
class CouplerProxyCfg(NewtonSolverCfg):
    """Proxy coupling (:class:`newton.solvers.experimental.coupled.SolverCoupledProxy`).

    Particle-shape contact parameters come from :attr:`NewtonCfg.soft_contact_cfg
    <isaaclab_newton.physics.NewtonCfg.soft_contact_cfg>`, as for every Newton solver.
    """

    class_type: Any = "{DIR}.newton_coupler_manager:NewtonCouplerManager"
    solver_type: str = "coupled_proxy"

    entries: list[CouplerEntryCfg] = []
    """Sub-solvers and what each owns."""

    proxies: list[CouplerProxyMappingCfg] = []
    """Directed proxy mappings between entries."""

    iterations: int = 1
    """Proxy relaxation passes per step (>= 1; Newton's default 1).

    One pass is the explicit lagged-impulse scheme: each side sees the other's impulse of the previous step, which
    can add energy on a stiff contact (a 1 kg box dropped 1 cm onto a 1e5 Pa soft block bounces 3 cm above its
    drop height). Two or more passes re-solve the step with the impulse just harvested and hold it without a
    bounce, at that many times the cost."""


@configclass
class CouplerAdmmCfg(NewtonSolverCfg):
    """Linearized ADMM coupling (:class:`newton.solvers.experimental.coupled.SolverCoupledADMM`).

    Particle-shape contact parameters come from :attr:`NewtonCfg.soft_contact_cfg
    <isaaclab_newton.physics.NewtonCfg.soft_contact_cfg>`, as for every Newton solver.
    """

    class_type: Any = "{DIR}.newton_coupler_manager:NewtonCouplerManager"
    solver_type: str = "coupled_admm"

    entries: list[CouplerEntryCfg] = []
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
