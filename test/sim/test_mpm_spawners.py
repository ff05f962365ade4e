"""MPM grid spawner: lattice counts and placement, materials on Newton's attributes, and field errors."""

from __future__ import annotations

import math

import newton
import numpy as np
import pytest
import warp as wp
from newton.solvers import SolverImplicitMPM

from isaaclab_newton.sim.spawners.mpm import MPMGridCfg, MPMParticleMaterialCfg, add_mpm_grid, grid_resolution


def _mpm_builder() -> newton.ModelBuilder:
    builder = newton.ModelBuilder()
    SolverImplicitMPM.register_custom_attributes(builder)
    return builder


def test_lattice_fills_the_box_at_cell_centres():
    """A 0.1 x 0.2 x 0.3 m box at 0.05 m voxels and 2 particles per cell gets 4 x 8 x 12 particles, centred in cells."""
    spawn = MPMGridCfg(lower=(0.0, 0.0, 0.0), upper=(0.1, 0.2, 0.3), voxel_size=0.05, particles_per_cell=2.0)
    builder = _mpm_builder()
    add_mpm_grid(builder, spawn, wp.transform_identity())
    q = np.asarray(builder.particle_q)
    assert grid_resolution(spawn) == (4, 8, 12) and len(q) == 4 * 8 * 12
    assert np.allclose(q.min(axis=0), 0.0125, atol=1e-6) and np.allclose(q.max(axis=0), (0.0875, 0.1875, 0.2875))
    assert np.allclose(builder.particle_radius, 0.0125)  # 8 r^3 equals the 0.025 m cell


def test_asset_pose_moves_and_rotates_the_lattice():
    """The asset transform places the box: a 90 degree yaw maps the box's +x extent onto +y, offset by the pose."""
    spawn = MPMGridCfg(lower=(0.0, 0.0, 0.0), upper=(0.2, 0.05, 0.05), voxel_size=0.05, particles_per_cell=1.0)
    builder = _mpm_builder()
    yaw = wp.quat_from_axis_angle(wp.vec3(0.0, 0.0, 1.0), math.pi / 2)
    add_mpm_grid(builder, spawn, wp.transform(wp.vec3(1.0, 2.0, 3.0), yaw))
    q = np.asarray(builder.particle_q)
    assert np.allclose(q[:, 0], 1.0 - 0.025, atol=1e-6)
    assert np.allclose(sorted(q[:, 1]), 2.0 + np.array([0.025, 0.075, 0.125, 0.175]), atol=1e-6)


def test_material_reaches_newtons_particle_attributes():
    """Every material field lands on its mpm:* model array; the mass is density times the cell volume."""
    material = MPMParticleMaterialCfg(density=300.0, friction=0.7, yield_pressure=1.0e12, viscosity=2.0, damping=0.1)
    spawn = MPMGridCfg(lower=(0.0, 0.0, 0.0), upper=(0.05, 0.05, 0.1), voxel_size=0.05, material=material)
    builder = _mpm_builder()
    add_mpm_grid(builder, spawn, wp.transform_identity())
    model = builder.finalize(device="cpu")
    assert np.allclose(model.mpm.friction.numpy(), 0.7)
    assert np.allclose(model.mpm.yield_pressure.numpy(), 1.0e12)
    assert np.allclose(model.mpm.viscosity.numpy(), 2.0) and np.allclose(model.mpm.damping.numpy(), 0.1)
    assert np.allclose(model.mpm.young_modulus.numpy(), 1.0e15)
    assert model.particle_mass.numpy().sum() == pytest.approx(300.0 * 0.05 * 0.05 * 0.1, rel=1e-5)


def test_jitter_stays_within_half_its_width():
    """Jittered particles stay within jitter / 2 of their cell centres on every axis."""
    spawn = MPMGridCfg(upper=(0.1, 0.1, 0.1), voxel_size=0.05, particles_per_cell=2.0, jitter=0.01)
    plain, jittered = _mpm_builder(), _mpm_builder()
    add_mpm_grid(plain, spawn.replace(jitter=0.0), wp.transform_identity())
    add_mpm_grid(jittered, spawn, wp.transform_identity())
    offset = np.asarray(jittered.particle_q) - np.asarray(plain.particle_q)
    assert np.abs(offset).max() <= 0.005 + 1e-7 and np.abs(offset).max() > 0.001


def test_builder_without_mpm_attributes_names_the_solver():
    """Spawning into a builder of a non-MPM solver fails and names MPMSolverCfg."""
    with pytest.raises(ValueError, match="MPMSolverCfg"):
        add_mpm_grid(newton.ModelBuilder(), MPMGridCfg(), wp.transform_identity())


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"upper": (0.1, 0.1, -0.1)}, r"MPMGridCfg.upper must exceed MPMGridCfg.lower"),
        ({"voxel_size": 0.0}, r"MPMGridCfg.voxel_size must be > 0"),
        ({"particles_per_cell": -1.0}, r"MPMGridCfg.particles_per_cell must be > 0"),
        ({"particle_placement": "corner"}, r"MPMGridCfg.particle_placement must be 'cell_center'"),
        ({"radius": 0.0}, r"MPMGridCfg.radius must be > 0"),
        ({"material": MPMParticleMaterialCfg(density=0.0)}, r"MPMGridCfg.material.density must be > 0"),
        ({"material": MPMParticleMaterialCfg(poisson_ratio=0.5)}, r"MPMGridCfg.material.poisson_ratio"),
        ({"material": MPMParticleMaterialCfg(friction=-0.1)}, r"MPMGridCfg.material.friction must be finite"),
    ],
)
def test_bad_fields_raise_naming_the_field(fields, message):
    """Each out-of-range grid or material field is refused with its name."""
    with pytest.raises(ValueError, match=message):
        grid_resolution(MPMGridCfg(**fields))
