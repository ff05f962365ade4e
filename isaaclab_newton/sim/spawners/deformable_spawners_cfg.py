"""Configurations of deformable spawners: volumetric (tetrahedral) soft bodies and cloth, with SI materials.

Like the file spawners, these author only a transform prim on the USD stage; the particles, triangles and
tetrahedra are added to the env-0 prototype by :class:`~isaaclab_newton.cloner.NewtonReplicateContext` with
Newton's builder (``add_soft_grid``, ``add_soft_mesh``, ``add_cloth_grid``, ``add_cloth_mesh``) and replicated
into every world. Use them as the ``spawn`` of a core :class:`~isaaclab.assets.DeformableObjectCfg`.
"""

from __future__ import annotations

from collections.abc import Callable

from isaaclab.sim.spawners.spawner_cfg import SpawnerCfg
from isaaclab.utils import configclass


@configclass
class DeformableMaterialCfg:
    """Elastic material of a deformable body in SI units.

    Volumetric bodies use a Neo-Hookean tetrahedral energy with Lamé parameters derived from
    :attr:`youngs_modulus` and :attr:`poisson_ratio`. Cloth uses a membrane of :attr:`thickness`
    (plane-stress Lamé parameters times the thickness, [N/m]) and a bending stiffness ``E h^3 / (12 (1 - nu^2))``
    [N m] from the same fields.
    """

    youngs_modulus: float = 1.0e5
    """Young's modulus E [Pa]."""

    poisson_ratio: float = 0.3
    """Poisson ratio nu (0 <= nu < 0.5)."""

    density: float = 1000.0
    """Mass density [kg/m^3]. Cloth mass per area is ``density * thickness``."""

    damping: float = 0.0
    """Viscous damping of the elastic strain rate [Pa s] (Newton's ``k_damp`` for tets, ``tri_kd`` for cloth)."""

    particle_radius: float = 0.005
    """Contact radius of each node [m]. Newton's builder default (0.1 m) leaves small bodies hovering."""

    thickness: float = 1.0e-3
    """Cloth thickness [m] (volumetric bodies ignore it)."""

    bending_damping: float = 0.0
    """Cloth bending damping [N m s] (volumetric bodies ignore it)."""


@configclass
class DeformableSpawnerCfg(SpawnerCfg):
    """Common settings of Newton deformable spawners."""

    func: Callable | str = "isaaclab_newton.sim.spawners.deformable_spawners:spawn_deformable_marker"

    material: DeformableMaterialCfg = DeformableMaterialCfg()
    """Elastic material and contact radius."""

    kind: str = ""
    """``"volume"`` or ``"cloth"``, set by the concrete configurations."""


@configclass
class SoftGridCfg(DeformableSpawnerCfg):
    """A box of tetrahedra (:meth:`newton.ModelBuilder.add_soft_grid`), its min corner at the asset's origin."""

    kind: str = "volume"

    size: tuple[float, float, float] = (0.1, 0.1, 0.1)
    """Edge lengths along x, y, z [m]."""

    resolution: tuple[int, int, int] = (4, 4, 4)
    """Cells along x, y, z (nodes are ``(nx + 1) (ny + 1) (nz + 1)``)."""


@configclass
class SoftMeshCfg(DeformableSpawnerCfg):
    """A tetrahedral mesh (:meth:`newton.ModelBuilder.add_soft_mesh`), in the asset's frame.

    Give either :attr:`tet_mesh_path` (a file :meth:`newton.TetMesh.create_from_file` reads, e.g. ``.npz`` from
    :meth:`newton.TetMesh.save`) or :attr:`vertices` and :attr:`tet_indices`. Newton does not tetrahedralize
    surfaces; mesh offline (pytetwild works; reorder its tets ``[0, 2, 1, 3]``, Newton rejects them as inverted).
    """

    kind: str = "volume"

    tet_mesh_path: str | None = None
    """Path of a tetrahedral mesh file."""

    vertices: tuple[tuple[float, float, float], ...] | None = None
    """Node positions in the asset frame [m]."""

    tet_indices: tuple[int, ...] | None = None
    """Flat node indices, four per tetrahedron (positive orientation)."""

    scale: float = 1.0
    """Uniform scale of the mesh."""


@configclass
class ClothGridCfg(DeformableSpawnerCfg):
    """A rectangular cloth in the asset's x-y plane (:meth:`newton.ModelBuilder.add_cloth_grid`)."""

    kind: str = "cloth"

    size: tuple[float, float] = (0.2, 0.2)
    """Edge lengths along x, y [m]."""

    resolution: tuple[int, int] = (8, 8)
    """Cells along x, y (nodes are ``(nx + 1) (ny + 1)``)."""


@configclass
class ClothMeshCfg(DeformableSpawnerCfg):
    """A triangle-mesh cloth (:meth:`newton.ModelBuilder.add_cloth_mesh`), in the asset's frame."""

    kind: str = "cloth"

    vertices: tuple[tuple[float, float, float], ...] = ()
    """Node positions in the asset frame [m]."""

    tri_indices: tuple[int, ...] = ()
    """Flat node indices, three per triangle."""

    scale: float = 1.0
    """Uniform scale of the mesh."""
