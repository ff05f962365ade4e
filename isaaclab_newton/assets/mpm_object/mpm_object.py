"""``MPMObject`` on Newton: a body of P implicit-MPM particles in every environment."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import torch
import warp as wp
from isaaclab.assets import AssetBase
from isaaclab.utils.warp import ProxyArray

from ...physics import NewtonManager
from ..deformable_object.kernels import scatter_state_kernel, scatter_vec3_kernel, vec6f
from ..index_cache import Ids
from ..particle_rows import ParticleRowsMixin
from ..write_checks import checked_tensor
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
        if env_mask is not None:
            select = self._select_from_mask(env_mask)
            self._scatter_state(self._data.default_particle_state_w.warp, self._all_ids, full_data=True, select=select)
            NewtonManager.request_world_reset(self._world_ids, select=select)
        else:
            ids = self._resolve_env_ids(env_ids)
            if ids.shape[0] == 0:
                return
            self._scatter_state(self._data.default_particle_state_w.warp, ids, full_data=True)
            NewtonManager.request_world_reset(self._world_ids_of(ids))
        NewtonManager.update_kinematics()
        NewtonManager.note_state_write()

    def write_data_to_sim(self) -> None:
        """Nothing is buffered: particle writes go to the simulation immediately."""

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
        ids = self._resolve_env_ids(env_ids)
        values = self._checked(particle_state, ids, full_data, 6, "particle_state", "write_particle_state_to_sim_index")
        self._scatter_state(wp.from_torch(values.contiguous(), dtype=vec6f), ids, full_data=full_data)
        NewtonManager.note_state_write()

    def write_particle_pos_to_sim_index(self, particle_pos, env_ids: Ids = None, full_data: bool = False) -> None:
        """Write particle positions, world frame [m], shape (len(env_ids) or N, P, 3), into both states."""
        self._scatter_vec3(particle_pos, env_ids, full_data, "particle_q", "particle_pos")

    def write_particle_velocity_to_sim_index(self, particle_vel, env_ids: Ids = None, full_data: bool = False) -> None:
        """Write particle velocities, world frame [m/s], shape (len(env_ids) or N, P, 3), into both states."""
        self._scatter_vec3(particle_vel, env_ids, full_data, "particle_qd", "particle_vel")

    # -- helpers ---------------------------------------------------------------------------------------

    def _checked(self, value, ids: wp.array, full_data: bool, width: int, name: str, method: str) -> torch.Tensor:
        rows = self.num_instances if full_data else ids.shape[0]
        if isinstance(value, ProxyArray):
            value = value.torch
        elif isinstance(value, wp.array) and value.dtype == vec6f:
            value = wp.to_torch(value)
        shape = (rows, self.particles_per_object, width)
        return checked_tensor(
            value, shape, name=name, where=f"MPMObject.{method}", device=self.device, allow_scalar=False
        )

    def _scatter_vec3(self, value, env_ids: Ids, full_data: bool, target: str, name: str) -> None:
        ids = self._resolve_env_ids(env_ids)
        method = "write_particle_pos_to_sim_index" if target == "particle_q" else "write_particle_velocity_to_sim_index"
        values = self._checked(value, ids, full_data, 3, name, method)
        s0, s1 = NewtonManager.get_state_0(), NewtonManager.get_state_1()
        wp.launch(
            scatter_vec3_kernel,
            dim=(ids.shape[0], self.particles_per_object),
            inputs=[
                wp.from_torch(values.contiguous(), dtype=wp.vec3),
                ids,
                bool(full_data),
                self._indices,
                getattr(s0, target),
                getattr(s1, target),
            ],
            device=self.device,
        )
        NewtonManager.note_state_write()

    def _scatter_state(
        self, states: wp.array, ids: wp.array, *, full_data: bool, select: wp.array | None = None
    ) -> None:
        s0, s1 = NewtonManager.get_state_0(), NewtonManager.get_state_1()
        wp.launch(
            scatter_state_kernel,
            dim=(ids.shape[0], self.particles_per_object),
            inputs=[
                states,
                ids,
                self._select_all if select is None else select,
                bool(full_data),
                self._indices,
                s0.particle_q,
                s1.particle_q,
                s0.particle_qd,
            ],
            outputs=[s1.particle_qd],
            device=self.device,
        )

    # -- initialization --------------------------------------------------------------------------------

    def _initialize_impl(self) -> None:
        model = NewtonManager.get_model()
        if model is None:
            raise RuntimeError("The Newton model is not finalized: assets initialize on sim.reset().")
        entities = NewtonManager.get_scene_index().find(self.cfg.prim_path)
        if entities.count("particle") == 0:
            raise ValueError(f"{self.cfg.prim_path!r} holds no particles; spawn it with MPMGridCfg.")
        indices = entities.indices("particle")
        self._init_particle_rows(indices, entities.world_ids)
        self._data = MPMObjectData(self._indices, self.device)
        state = np.concatenate((model.particle_q.numpy()[indices], model.particle_qd.numpy()[indices]), axis=-1)
        self._data.default_particle_state_w.warp.assign(state.astype(np.float32))

    def _invalidate_initialize_callback(self, event: Any) -> None:
        self._is_initialized = False
