"""Deformable spawners build Newton particles whose masses and stiffnesses follow the SI material."""

from __future__ import annotations

import newton
import numpy as np
import pytest
import warp as wp

from isaaclab_newton.sim import ClothGridCfg, ClothMeshCfg, DeformableMaterialCfg, SoftGridCfg, SoftMeshCfg
from isaaclab_newton.sim.spawners.deformable_spawners import add_deformable, lame_parameters

MATERIAL = DeformableMaterialCfg(youngs_modulus=2.0e5, poisson_ratio=0.3, density=800.0, thickness=2.0e-3)


def _build(spawn) -> newton.ModelBuilder:
    builder = newton.ModelBuilder()
    add_deformable(builder, spawn, wp.transform((0.0, 0.0, 0.5), wp.quat_identity()), label="Obj")
    return builder


def test_soft_grid_mass_is_density_times_volume():
    """A 0.3 x 0.04 x 0.04 m beam weighs rho V, with lumped node masses (corners lighter than the centre)."""
    builder = _build(SoftGridCfg(size=(0.3, 0.04, 0.04), resolution=(6, 2, 2), material=MATERIAL))
    mass = np.asarray(builder.particle_mass)
    assert mass.sum() == pytest.approx(800.0 * 0.3 * 0.04 * 0.04, rel=1e-6)
    assert mass.min() < mass.max()
    mu, lam = lame_parameters(MATERIAL)
    assert mu == pytest.approx(2.0e5 / 2.6) and lam == pytest.approx(2.0e5 * 0.3 / (1.3 * 0.4))
    assert np.allclose(np.asarray(builder.tet_materials)[:, :2], (mu, lam))
    assert np.allclose(builder.particle_radius, MATERIAL.particle_radius)


def test_soft_mesh_from_tets():
    """One unit tetrahedron of a SoftMeshCfg weighs rho / 6 and sits at the asset pose."""
    spawn = SoftMeshCfg(
        vertices=((0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)), tet_indices=(0, 1, 2, 3), material=MATERIAL
    )
    builder = _build(spawn)
    assert sum(builder.particle_mass) == pytest.approx(800.0 / 6.0, rel=1e-5)
    assert np.asarray(builder.particle_q)[:, 2].min() == pytest.approx(0.5)


def test_cloth_grid_and_mesh_mass_is_area_density_times_area():
    """Cloth weighs density x thickness x area, from a grid or from a two-triangle mesh."""
    grid = _build(ClothGridCfg(size=(0.2, 0.1), resolution=(4, 2), material=MATERIAL))
    assert sum(grid.particle_mass) == pytest.approx(800.0 * 2.0e-3 * 0.02, rel=1e-6)
    quad = ClothMeshCfg(
        vertices=((0, 0, 0), (0.2, 0, 0), (0.2, 0.1, 0), (0, 0.1, 0)), tri_indices=(0, 1, 2, 0, 2, 3), material=MATERIAL
    )
    mesh = _build(quad)
    assert sum(mesh.particle_mass) == pytest.approx(800.0 * 2.0e-3 * 0.02, rel=1e-5)


def test_bad_material_names_the_field():
    """A Poisson ratio of 0.5 is rejected with the field's name."""
    with pytest.raises(ValueError, match="poisson_ratio"):
        _build(SoftGridCfg(material=DeformableMaterialCfg(poisson_ratio=0.5)))
