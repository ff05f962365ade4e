"""MPM particle spawners (a box of particles) and the implicit-MPM particle material."""

from .mpm_spawners import add_mpm_grid, grid_resolution, spawn_mpm_marker
from .mpm_spawners_cfg import MPMGridCfg, MPMParticleMaterialCfg

__all__ = ["MPMGridCfg", "MPMParticleMaterialCfg", "add_mpm_grid", "grid_resolution", "spawn_mpm_marker"]
