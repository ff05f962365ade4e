"""Configurations of MPM particle spawners: a box of particles and the material of Newton's implicit MPM.

Like the deformable spawners, these author only a transform prim on the USD stage; the particles are added to the
env-0 prototype by :class:`~isaaclab_newton.cloner.NewtonReplicateContext` and replicated into every world. Use
them as the ``spawn`` of an :class:`~isaaclab_newton.assets.MPMObjectCfg` and simulate with
:class:`~isaaclab_newton.physics.MPMSolverCfg` (alone or as a coupler entry).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from isaaclab.sim.spawners.spawner_cfg import SpawnerCfg
from isaaclab.utils import configclass


@configclass
class MPMParticleMaterialCfg:
    """Material of implicit-MPM particles in SI units (Newton's ``mpm:*`` per-particle attributes).

    The defaults are Newton's: a stiff (``youngs_modulus`` 1e15 Pa), cohesionless Drucker-Prager material, i.e.
    dry sand in the fully inelastic limit. Lower :attr:`yield_pressure` for snow-like compaction, raise
    :attr:`yield_stress` for cohesion, set :attr:`viscosity` for viscoplastic flow.
    """

    density: float = 1000.0
    """Mass density [kg/m^3]. Each particle carries ``density`` times its lattice cell's volume."""

    youngs_modulus: float = 1.0e15
    """Young's modulus E [Pa] (``mpm:young_modulus``)."""

    poisson_ratio: float = 0.3
    """Poisson ratio nu, 0 <= nu < 0.5 (``mpm:poisson_ratio``)."""

    damping: float = 0.0
    """Elastic damping relaxation time [s] (``mpm:damping``)."""

    friction: float = 0.5
    """Internal friction coefficient of the Drucker-Prager yield surface (``mpm:friction``)."""

    yield_pressure: float = 1.0e15
    """Compressive yield pressure [Pa] (``mpm:yield_pressure``)."""

    tensile_yield_ratio: float = 0.0
    """Tensile yield pressure as a fraction of :attr:`yield_pressure` (``mpm:tensile_yield_ratio``); 0: no cohesion."""

    yield_stress: float = 0.0
    """Deviatoric yield stress [Pa] (``mpm:yield_stress``)."""

    hardening: float = 0.0
    """Hardening factor of the plastic compaction (``mpm:hardening``)."""

    hardening_rate: float = 1.0
    """Hardening rate (``mpm:hardening_rate``)."""

    softening_rate: float = 1.0
    """Softening rate (``mpm:softening_rate``)."""

    dilatancy: float = 0.0
    """Dilatancy factor (``mpm:dilatancy``)."""

    viscosity: float = 0.0
    """Viscosity [Pa s] (``mpm:viscosity``)."""


@configclass
class MPMGridCfg(SpawnerCfg):
    """A box of MPM particles on a regular lattice, in the asset's frame (``MPMObjectCfg.init_state`` places it).

    The box ``[lower, upper]`` is split into ``ceil(particles_per_cell * extent / voxel_size)`` cells per axis and
    one particle sits at each cell's centre, so the spacing is about ``voxel_size / particles_per_cell`` and the
    particles tile the box exactly. Each particle's mass is ``density`` times its cell's volume (the box holds
    ``density * volume``), and its default :attr:`radius` makes Newton's MPM volume ``8 r^3`` equal that cell.
    """

    func: Callable | str = "isaaclab_newton.sim.spawners.mpm.mpm_spawners:spawn_mpm_marker"

    lower: tuple[float, float, float] = (-0.05, -0.05, 0.0)
    """Lower corner of the particle box in the asset's frame [m]."""

    upper: tuple[float, float, float] = (0.05, 0.05, 0.1)
    """Upper corner of the particle box in the asset's frame [m]."""

    voxel_size: float = 0.1
    """MPM grid cell edge the lattice is sized against [m]; use the solver's ``MPMSolverCfg.voxel_size``."""

    particles_per_cell: float = 2.0
    """Particles per grid cell and axis (Newton recommends about 2-3)."""

    particle_placement: Literal["cell_center"] = "cell_center"
    """Where particles sit in their lattice cells; ``"cell_center"`` is the one placement."""

    jitter: float = 0.0
    """Full width of the uniform random offset added to each coordinate [m] (offsets lie in ``+-jitter / 2``);
    deterministic per builder. Keep it below the spacing."""

    radius: float | None = None
    """Particle radius [m]; ``None``: half the cube root of a lattice cell's volume."""

    material: MPMParticleMaterialCfg = MPMParticleMaterialCfg()
    """Particle material."""

    visual_color: tuple[float, float, float] = (0.8, 0.7, 0.5)
    """Display color (RGB in [0, 1]) for task code to hand to particle visualizers; physics does not read it."""
