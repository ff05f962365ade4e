"""Configuration of an MPM particle object (granular or elasto-plastic media) on Newton."""

from __future__ import annotations

from isaaclab.assets import AssetBaseCfg
from isaaclab.utils import configclass

from ...sim.spawners.mpm.mpm_spawners_cfg import MPMGridCfg


@configclass
class MPMObjectCfg(AssetBaseCfg):
    """A body of MPM particles cloned into every environment.

    Spawn it with :class:`~isaaclab_newton.sim.spawners.mpm.MPMGridCfg`; :attr:`init_state` places the spawner's
    frame in the environment (its ``pos`` [m] and ``rot`` quaternion (x, y, z, w)). Simulate it with
    :class:`~isaaclab_newton.physics.MPMSolverCfg`, alone or as a coupler entry owning the particles.
    """

    class_type: type | str = "{DIR}.mpm_object:MPMObject"

    spawn: MPMGridCfg | None = None
    """The particle spawner (required)."""
