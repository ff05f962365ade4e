"""Deformable spawners: author the asset's transform prim; build its particles into a Newton builder."""

from __future__ import annotations

from typing import TYPE_CHECKING

import newton
import numpy as np
import warp as wp
from isaaclab.sim.utils import create_prim, get_current_stage

if TYPE_CHECKING:
    from pxr import Usd

    from .deformable_spawners_cfg import DeformableMaterialCfg, DeformableSpawnerCfg


def spawn_deformable_marker(
    prim_path: str,
    cfg: DeformableSpawnerCfg,
    translation: tuple[float, float, float] | None = None,
    orientation: tuple[float, float, float, float] | None = None,
    **kwargs,
) -> Usd.Prim:
    """Author the deformable's root transform; the clone context adds its particles later.

    Args:
        prim_path: Where the asset's root prim is authored (the env-0 prototype path).
        cfg: The deformable spawner configuration.
        translation: Position relative to the parent prim [m].
        orientation: Orientation relative to the parent prim, quaternion (x, y, z, w).

    Returns:
        The authored transform prim.
    """
    validate_material(cfg.material, type(cfg).__name__)
    stage = get_current_stage()
    if stage.GetPrimAtPath(prim_path).IsValid():
        raise ValueError(f"A prim already exists at {prim_path!r}; pick another prim_path.")
    return create_prim(prim_path, "Xform", translation=translation, orientation=orientation, stage=stage)


def validate_material(material: DeformableMaterialCfg, owner: str) -> None:
    """Reject non-physical material values, naming the field to fix."""
    if material.youngs_modulus <= 0.0:
        raise ValueError(f"{owner}.material.youngs_modulus must be > 0 Pa, got {material.youngs_modulus}.")
    if not 0.0 <= material.poisson_ratio < 0.5:
        raise ValueError(f"{owner}.material.poisson_ratio must be in [0, 0.5), got {material.poisson_ratio}.")
    if material.density <= 0.0:
        raise ValueError(f"{owner}.material.density must be > 0 kg/m^3, got {material.density}.")
    if material.particle_radius <= 0.0:
        raise ValueError(f"{owner}.material.particle_radius must be > 0 m, got {material.particle_radius}.")
    if material.thickness <= 0.0:
        raise ValueError(f"{owner}.material.thickness must be > 0 m, got {material.thickness}.")


def lame_parameters(material: DeformableMaterialCfg) -> tuple[float, float]:
    """Lamé parameters (mu, lambda) [Pa] of a 3D solid from Young's modulus and Poisson ratio."""
    e, nu = material.youngs_modulus, material.poisson_ratio
    return e / (2.0 * (1.0 + nu)), e * nu / ((1.0 + nu) * (1.0 - 2.0 * nu))


def membrane_parameters(material: DeformableMaterialCfg) -> tuple[float, float, float]:
    """Cloth stiffnesses: plane-stress Lamé (mu h, lambda h) [N/m] and bending ``E h^3 / (12 (1 - nu^2))`` [N m]."""
    e, nu, h = material.youngs_modulus, material.poisson_ratio, material.thickness
    mu = e * h / (2.0 * (1.0 + nu))
    lam = e * h * nu / (1.0 - nu * nu)
    bending = e * h**3 / (12.0 * (1.0 - nu * nu))
    return mu, lam, bending


def add_deformable(builder: newton.ModelBuilder, spawn: DeformableSpawnerCfg, xform: wp.transform, label: str) -> None:
    """Add one deformable body described by ``spawn`` to ``builder`` at ``xform``.

    Args:
        builder: The builder receiving the particles (a world prototype).
        spawn: A :class:`SoftGridCfg`, :class:`SoftMeshCfg`, :class:`ClothGridCfg` or :class:`ClothMeshCfg`.
        xform: Pose of the asset's frame in the builder's frame.
        label: Label of the deformable (its prim path below the env root).
    """
    from .deformable_spawners_cfg import ClothGridCfg, ClothMeshCfg, SoftGridCfg, SoftMeshCfg

    material = spawn.material
    validate_material(material, type(spawn).__name__)
    pos, rot = wp.transform_get_translation(xform), wp.transform_get_rotation(xform)
    common = dict(pos=pos, rot=rot, vel=wp.vec3(0.0), particle_radius=material.particle_radius, label=label)
    if isinstance(spawn, (SoftGridCfg, SoftMeshCfg)):
        k_mu, k_lambda = lame_parameters(material)
        elastic = dict(density=material.density, k_mu=k_mu, k_lambda=k_lambda, k_damp=material.damping)
        if isinstance(spawn, SoftGridCfg):
            (sx, sy, sz), (nx, ny, nz) = spawn.size, spawn.resolution
            _check_resolution(spawn.resolution, type(spawn).__name__)
            p0, t0 = builder.particle_count, builder.tet_count
            builder.add_soft_grid(
                dim_x=nx, dim_y=ny, dim_z=nz, cell_x=sx / nx, cell_y=sy / ny, cell_z=sz / nz, **elastic, **common
            )
            # Newton gives every grid node a full cell's mass (boundary nodes overcounted); lump from the tets.
            _lump_masses(builder, p0, builder.tet_indices[t0:], material.density)
        else:
            mesh = _tet_mesh(spawn)
            builder.add_soft_mesh(mesh=mesh, scale=spawn.scale, validate_mesh=True, **elastic, **common)
        return
    if isinstance(spawn, (ClothGridCfg, ClothMeshCfg)):
        mu, lam, bending = membrane_parameters(material)
        stiff = dict(tri_ke=mu, tri_ka=lam, tri_kd=material.damping, edge_ke=bending, edge_kd=material.bending_damping)
        area_density = material.density * material.thickness
        if isinstance(spawn, ClothGridCfg):
            (sx, sy), (nx, ny) = spawn.size, spawn.resolution
            _check_resolution(spawn.resolution, type(spawn).__name__)
            p0, t0 = builder.particle_count, builder.tri_count
            builder.add_cloth_grid(dim_x=nx, dim_y=ny, cell_x=sx / nx, cell_y=sy / ny, mass=1.0, **stiff, **common)
            _lump_masses(builder, p0, builder.tri_indices[t0:], area_density)
        else:
            if not spawn.vertices or len(spawn.tri_indices) % 3 or not spawn.tri_indices:
                raise ValueError(
                    f"{type(spawn).__name__} needs vertices and tri_indices (three per triangle); got"
                    f" {len(spawn.vertices)} vertices and {len(spawn.tri_indices)} indices."
                )
            builder.add_cloth_mesh(
                vertices=[wp.vec3(*v) for v in spawn.vertices],
                indices=list(spawn.tri_indices),
                scale=spawn.scale,
                density=area_density,
                validate_mesh=True,
                **stiff,
                **common,
            )
        return
    raise TypeError(f"Unknown deformable spawner {type(spawn).__name__}; use SoftGridCfg, SoftMeshCfg or ClothGridCfg.")


def _lump_masses(builder: newton.ModelBuilder, first_particle: int, elements: list, density: float) -> None:
    """Set the masses of particles from ``first_particle`` on to the lumped mass of their elements.

    Each tetrahedron gives a quarter of ``density * volume`` [kg/m^3 * m^3] to each of its nodes, each triangle a
    third of ``density * area`` [kg/m^2 * m^2], so the body's mass is exactly density times its volume (area).
    """
    elements = np.asarray(elements, dtype=np.int64)
    q = np.asarray(builder.particle_q[first_particle:], dtype=np.float64)
    local = elements - first_particle
    corners = q[local]
    if local.shape[1] == 4:
        edges = corners[:, 1:] - corners[:, :1]
        measure = np.abs(np.linalg.det(edges)) / 6.0
    else:
        measure = 0.5 * np.linalg.norm(np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0]), axis=1)
    mass = np.zeros(len(q))
    np.add.at(mass, local.reshape(-1), np.repeat(density * measure / local.shape[1], local.shape[1]))
    builder.particle_mass[first_particle:] = mass.tolist()


def _check_resolution(resolution: tuple[int, ...], owner: str) -> None:
    if any(int(n) < 1 for n in resolution):
        raise ValueError(f"{owner}.resolution must be >= 1 cell on every axis, got {tuple(resolution)}.")


def _tet_mesh(spawn) -> newton.TetMesh:
    owner = type(spawn).__name__
    if spawn.tet_mesh_path is not None:
        if spawn.vertices is not None or spawn.tet_indices is not None:
            raise ValueError(f"{owner}: give either tet_mesh_path or vertices + tet_indices, not both.")
        return newton.TetMesh.create_from_file(spawn.tet_mesh_path)
    if spawn.vertices is None or spawn.tet_indices is None or len(spawn.tet_indices) % 4 or not spawn.tet_indices:
        raise ValueError(f"{owner} needs tet_mesh_path, or vertices and tet_indices (four per tetrahedron).")
    return newton.TetMesh(np.asarray(spawn.vertices, dtype=np.float32), np.asarray(spawn.tet_indices, dtype=np.int32))
