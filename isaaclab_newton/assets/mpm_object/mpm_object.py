"""``MPMObject`` on Newton: a body of P implicit-MPM particles in every environment."""

from __future__ import annotations

from typing import TYPE_CHECKING

import torch
import warp as wp
from isaaclab.assets import AssetBase
from isaaclab.utils.warp import ProxyArray

from ..index_cache import Ids
from ..particle_rows import ParticleRowsMixin, find_particle_rows
from .mpm_object_data import MPMObjectData

if TYPE_CHECKING:
    from .mpm_object_cfg import MPMObjectCfg


class MPMObject(ParticleRowsMixin, AssetBase):
    """Granular or elasto-plastic media of P particles cloned into every Newton world.

    Spawn it with :class:`~isaaclab_newton.sim.spawners.mpm.MPMGridCfg` and simulate it with
    :class:`~isaaclab_newton.physics.MPMSolverCfg` (alone or as a coupler entry). Particle data is in the world
    frame, one row per environment.

    Writes go to both simulation states at once and move particles without touching the MPM history
    (deformation, stress, warm starts); :meth:`reset` also clears that history for the reset environments' worlds.
    To clear it after custom writes, call :meth:`NewtonMPMManager.reset_solver_state
    <isaaclab_newton.physics.NewtonMPMManager.reset_solver_state>` with a world mask.
    """

    cfg: MPMObjectCfg
    __backend_name__: str = "newton"

    def __init__(self, cfg: MPMObjectCfg):
        from ...sim.spawners.mpm import MPMGridCfg

        if not isinstance(cfg.spawn, MPMGridCfg):
            raise TypeError(
                f"MPMObjectCfg.spawn must be an MPMGridCfg (isaaclab_newton.sim.spawners.mpm), got"
                f" {type(cfg.spawn).__name__}."
            )
        super().__init__(cfg)
        self._data: MPMObjectData | None = None

    # -- properties ------------------------------------------------------------------------------------

    @property
    def data(self) -> MPMObjectData:
        """Runtime data (valid after ``sim.reset()``)."""
        return self._data

    @property
    def particles_per_object(self) -> int:
        """Particles in each environment's object (the same in every environment)."""
        return self._indices.shape[1]

    # -- operations ------------------------------------------------------------------------------------

    def reset(self, env_ids: Ids = None, env_mask: wp.array | torch.Tensor | ProxyArray | None = None) -> None:
        """Restore the spawned particle state of the selected envs and clear their worlds' solver history.

        The worlds' solver internals are reset through :meth:`NewtonManager.request_world_reset` (for MPM: the
        particles' deformation, stress and warm starts). Other environments are not touched, and nothing is read
        back to the host.

        Args:
            env_ids: Environments to reset (default: all).
            env_mask: Boolean mask over environments, shape (N,) (alternative to ``env_ids``): every env is visited
                and the selected ones are written.
        """
        self._reset_rows(self._data.default_particle_state_w.warp, env_ids, env_mask)

    def update(self, dt: float) -> None:
        """Nothing to advance: data buffers refresh on the first read after the simulation state changed."""

    def write_particle_state_to_sim_index(self, particle_state, env_ids: Ids = None, full_data: bool = False) -> None:
        """Write particle states (x, y, z [m], vx, vy, vz [m/s]), world frame, into both simulation states.

        Args:
            particle_state: Float32 tensor or Warp array, shape (len(env_ids), P, 6), or (N, P, 6) with
                ``full_data=True`` (rows of the selected envs are read).
            env_ids: Environments to write (default: all).
            full_data: Whether ``particle_state`` holds a row for every environment.
        """
        where = "write_particle_state_to_sim_index"
        self._write_states(particle_state, env_ids, full_data, name="particle_state", where=where)

    def write_particle_pos_to_sim_index(self, particle_pos, env_ids: Ids = None, full_data: bool = False) -> None:
        """Write particle positions, world frame [m], shape (len(env_ids) or N, P, 3), into both states."""
        where = "write_particle_pos_to_sim_index"
        self._write_vec3(particle_pos, env_ids, full_data, field="particle_q", name="particle_pos", where=where)

    def write_particle_velocity_to_sim_index(self, particle_vel, env_ids: Ids = None, full_data: bool = False) -> None:
        """Write particle velocities, world frame [m/s], shape (len(env_ids) or N, P, 3), into both states."""
        where = "write_particle_velocity_to_sim_index"
        self._write_vec3(particle_vel, env_ids, full_data, field="particle_qd", name="particle_vel", where=where)

    # -- initialization --------------------------------------------------------------------------------

    def _initialize_impl(self) -> None:
        world_ids, indices = find_particle_rows(self.cfg.prim_path, spawners="MPMGridCfg")
        self._init_particle_rows(indices, world_ids)
        self._data = MPMObjectData(self._indices, self.device)
