"""MPM spawners: author the asset's transform prim; build its particle lattice into a Newton builder."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import newton
import numpy as np
import warp as wp
from isaaclab.sim.utils import create_prim, get_current_stage

if TYPE_CHECKING:
    from pxr import Usd

    from .mpm_spawners_cfg import MPMGridCfg, MPMParticleMaterialCfg

MATERIAL_ATTRIBUTES = {
    "youngs_modulus": "mpm:young_modulus",
    "poisson_ratio": "mpm:poisson_ratio",
    "damping": "mpm:damping",
    "friction": "mpm:friction",
    "yield_pressure": "mpm:yield_pressure",
    "tensile_yield_ratio": "mpm:tensile_yield_ratio",
    "yield_stress": "mpm:yield_stress",
    "hardening": "mpm:hardening",
    "hardening_rate": "mpm:hardening_rate",
    "softening_rate": "mpm:softening_rate",
    "dilatancy": "mpm:dilatancy",
    "viscosity": "mpm:viscosity",
}
"""Material fields and the per-particle attributes they set (``SolverImplicitMPM.register_custom_attributes``)."""


def spawn_mpm_marker(
    prim_path: str,
    cfg: MPMGridCfg,
    translation: tuple[float, float, float] | None = None,
    orientation: tuple[float, float, float, float] | None = None,
    **kwargs,
) -> Usd.Prim:
    """Author the MPM object's root transform after checking its lattice; the clone context adds the particles.

    Args:
        prim_path: Where the asset's root prim is authored (the env-0 prototype path).
        cfg: The MPM grid configuration.
        translation: Position relative to the parent prim [m].
        orientation: Orientation relative to the parent prim, quaternion (x, y, z, w).

    Returns:
        The authored transform prim.
    """
    grid_resolution(cfg)
    stage = get_current_stage()
    if stage.GetPrimAtPath(prim_path).IsValid():
        raise ValueError(f"A prim already exists at {prim_path!r}; pick another prim_path.")
    return create_prim(prim_path, "Xform", translation=translation, orientation=orientation, stage=stage)


def grid_resolution(cfg: MPMGridCfg) -> tuple[int, int, int]:
    """Return the lattice cells per axis, ``ceil(particles_per_cell * extent / voxel_size)``, after checking ``cfg``.

    The extent is taken in float32, like the particle positions.

    Raises:
        ValueError: If a field is out of range, naming it.
    """
    owner = type(cfg).__name__
    if cfg.particle_placement != "cell_center":
        raise ValueError(f"{owner}.particle_placement must be 'cell_center', got {cfg.particle_placement!r}.")
    if not cfg.voxel_size > 0.0:
        raise ValueError(f"{owner}.voxel_size must be > 0 m, got {cfg.voxel_size}.")
    if not cfg.particles_per_cell > 0.0:
        raise ValueError(f"{owner}.particles_per_cell must be > 0, got {cfg.particles_per_cell}.")
    extent = np.asarray(cfg.upper, dtype=np.float32) - np.asarray(cfg.lower, dtype=np.float32)
    if extent.shape != (3,) or not np.all(extent > 0.0):
        raise ValueError(f"{owner}.upper must exceed {owner}.lower on every axis, got {cfg.lower} and {cfg.upper}.")
    if cfg.jitter < 0.0:
        raise ValueError(f"{owner}.jitter must be >= 0 m, got {cfg.jitter}.")
    if cfg.radius is not None and not cfg.radius > 0.0:
        raise ValueError(f"{owner}.radius must be > 0 m or None, got {cfg.radius}.")
    validate_material(cfg.material, owner)
    resolution = np.maximum(np.ceil(float(cfg.particles_per_cell) * extent / float(cfg.voxel_size)), 1)
    return tuple(int(n) for n in resolution)


def validate_material(material: MPMParticleMaterialCfg, owner: str) -> None:
    """Reject non-physical material values, naming the field to fix."""
    if not material.density > 0.0:
        raise ValueError(f"{owner}.material.density must be > 0 kg/m^3, got {material.density}.")
    if not material.youngs_modulus > 0.0:
        raise ValueError(f"{owner}.material.youngs_modulus must be > 0 Pa, got {material.youngs_modulus}.")
    if not 0.0 <= material.poisson_ratio < 0.5:
        raise ValueError(f"{owner}.material.poisson_ratio must be in [0, 0.5), got {material.poisson_ratio}.")
    for name in MATERIAL_ATTRIBUTES:
        value = float(getattr(material, name))
        if not math.isfinite(value) or value < 0.0:
            raise ValueError(f"{owner}.material.{name} must be finite and >= 0, got {value}.")


def add_mpm_grid(builder: newton.ModelBuilder, spawn: MPMGridCfg, xform: wp.transform) -> None:
    """Add the particle lattice described by ``spawn`` to ``builder``, posed by ``xform``.

    Args:
        builder: The builder receiving the particles (a world prototype). It must carry the ``mpm:*`` attributes,
            which the MPM manager (alone or as a coupler entry) registers on the builders it creates.
        spawn: The grid configuration.
        xform: Pose of the asset's frame in the builder's frame.

    Raises:
        ValueError: If a field is out of range, or the builder has no MPM material attributes.
    """
    resolution = grid_resolution(spawn)
    missing = [name for name in MATERIAL_ATTRIBUTES.values() if name not in builder.custom_attributes]
    if missing:
        raise ValueError(
            f"{type(spawn).__name__} particles need Newton's MPM material attributes ({missing[0]}, ...), which only"
            " the MPM solver registers: simulate the scene with MPMSolverCfg, alone or as a CouplerEntryCfg."
        )
    lower = np.asarray(spawn.lower, dtype=np.float32)
    cell = (np.asarray(spawn.upper, dtype=np.float32) - lower) / np.asarray(resolution, dtype=np.float32)
    volume = float(np.prod(cell, dtype=np.float64))
    radius = float(spawn.radius) if spawn.radius is not None else 0.5 * volume ** (1.0 / 3.0)
    first = wp.transform_point(xform, wp.vec3(*(lower + 0.5 * cell).tolist()))
    material = spawn.material
    builder.add_particle_grid(
        pos=first,
        rot=wp.transform_get_rotation(xform),
        vel=wp.vec3(0.0),
        dim_x=resolution[0],
        dim_y=resolution[1],
        dim_z=resolution[2],
        cell_x=float(cell[0]),
        cell_y=float(cell[1]),
        cell_z=float(cell[2]),
        mass=material.density * volume,
        jitter=float(spawn.jitter),
        radius_mean=radius,
        custom_attributes={attr: float(getattr(material, name)) for name, attr in MATERIAL_ATTRIBUTES.items()},
    )
