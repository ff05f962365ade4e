"""Configuration of the implicit MPM solver manager."""

from __future__ import annotations

from typing import Any, Literal

from isaaclab.utils import configclass

from .newton_solver_cfg import NewtonSolverCfg


@configclass
class MPMSolverCfg(NewtonSolverCfg):
    """Implicit Material Point Method (:class:`newton.solvers.SolverImplicitMPM`) settings.

    Simulates particles as granular or elasto-plastic material on a background grid. Colliders are the model's
    shapes that collide with particles (ground plane included); rigid bodies are not integrated, so a standalone
    MPM scene may only contain static or kinematic bodies. Per-particle materials come from the ``mpm:*`` custom
    attributes, which the manager registers on builders it creates.
    """

    class_type: Any = "{DIR}.mpm_manager:NewtonMPMManager"
    solver_type: str = "implicit_mpm"

    voxel_size: float = 0.1
    """Edge length of the background grid cells [m]. Aim for about 2-3 particles per cell and axis."""

    grid_type: Literal["sparse", "dense", "fixed"] = "sparse"
    """Background grid type."""

    max_iterations: int = 250
    """Maximum iterations of the rheology solve per step."""

    tolerance: float = 1.0e-4
    """Convergence tolerance of the rheology solve."""

    transfer_scheme: Literal["apic", "pic"] = "apic"
    """Particle-grid velocity transfer."""

    integration_scheme: Literal["pic", "gimp"] = "pic"
    """Particle quadrature on the grid."""

    air_drag: float = 1.0
    """Drag on grid nodes that carry little mass."""

    separate_worlds: bool = False
    """Give every world its own grid (particles must be stored contiguously by world)."""

    grid_padding: int = 0
    """Empty cells added around the particles' bounding box of sparse grids."""

    max_active_cell_count: int = -1
    """Active-cell capacity summed over all worlds (-1: sparse grids allocate per step, other grids use the exact
    count). A positive value makes a sparse grid with ``grid_padding=0`` rebuildable in place."""

    max_leaf_node_count: int = -1
    """Leaf-node (8^3 voxels) capacity of a rebuildable sparse grid over all worlds (-1: one per active cell)."""

    max_lower_node_count: int = -1
    """Lower internal-node capacity of a rebuildable sparse grid over all worlds (-1: Newton's estimate)."""

    max_upper_node_count: int = -1
    """Upper internal-node capacity of a rebuildable sparse grid over all worlds (-1: Newton's estimate).

    Capacities must satisfy ``upper <= lower <= leaf <= active`` once resolved; Newton checks them when the solver
    is built."""

    solver: str = "auto"
    """Rheology solver (Newton's names, e.g. ``"auto"``, ``"jacobi"``, ``"gauss-seidel"``)."""

    warmstart_mode: str = "auto"
    """Warm start of the rheology solve (Newton's names)."""

    collider_velocity_mode: str = "forward"
    """How collider velocities are derived (Newton's names, e.g. ``"forward"``, ``"backward"``)."""

    strain_basis: str = "P0"
    """Function space of the strain field (Newton's names, e.g. ``"P0"``, ``"Q1"``)."""

    velocity_basis: str = "Q1"
    """Function space of the velocity field."""

    collider_basis: str = "S2"
    """Function space of the collider field (e.g. ``"S2"``, ``"pic27"``)."""

    project_outside_colliders: bool = True
    """After every MPM step, project particles that ended up inside colliders back to their surface (also when the
    solver runs as a coupler entry)."""
