"""Per-env particle rows of particle assets (deformable objects, MPM media): env selections, writes and resets."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import torch
import warp as wp
from isaaclab.utils.warp import ProxyArray

from ..physics import NewtonManager
from .index_cache import Ids, IndexResolver
from .particle_kernels import scatter_state_kernel, scatter_vec3_kernel, vec6f
from .write_checks import checked_tensor


def find_particle_rows(prim_path: str, *, spawners: str) -> tuple[np.ndarray, np.ndarray]:
    """Return the world ids and model particle indices of the particle asset at ``prim_path`` in the scene index.

    Args:
        prim_path: The asset configuration's prim path (regex over environments).
        spawners: The spawners that make such an asset, named in the error when the prim holds no particles.

    Returns:
        ``(world_ids, indices)``: world of each env, shape (N,), and particle indices, shape (N, P).

    Raises:
        RuntimeError: If the model is not finalized (before ``sim.reset()``).
        ValueError: If no prim matches ``prim_path`` or it holds no particles.
    """
    entities = NewtonManager.get_scene_index().find(prim_path)
    if entities.count("particle") == 0:
        raise ValueError(f"{prim_path!r} holds no particles; spawn it with {spawners}.")
    return np.asarray(entities.world_ids), entities.indices("particle")


class ParticleRowsMixin:
    """Env selection, state writes and per-env resets of an asset whose every env holds P model particles.

    Call :meth:`_init_particle_rows` from ``_initialize_impl`` with the scene index's particle rows. Every write goes
    into both simulation states and records a state write (:meth:`NewtonManager.note_state_write`), so the asset
    data refreshes on its next read.
    """

    device: str

    def _init_particle_rows(self, indices: np.ndarray, world_ids: Sequence[int]) -> None:
        """Keep the (N, P) model particle indices, every env's id and its world on the device."""
        self._indices = wp.array(indices.astype(np.int32), dtype=wp.int32, device=self.device)
        self._env_index = IndexResolver(indices.shape[0], self.device, what=f"{type(self).__name__} env_ids")
        self._all_ids = self._env_index.all_ids
        self._world_ids = wp.array(np.asarray(world_ids, dtype=np.int32), dtype=wp.int32, device=self.device)
        self._select_all = wp.zeros(0, dtype=wp.bool, device=self.device)

    @property
    def num_instances(self) -> int:
        """Number of environments holding this asset."""
        return self._indices.shape[0]

    @property
    def particle_indices(self) -> wp.array:
        """Model particle indices of each env's particles, shape (N, P) int32."""
        return self._indices

    def write_data_to_sim(self) -> None:
        """Nothing is buffered: writes go to the simulation immediately."""

    # -- env selection ---------------------------------------------------------------------------------

    def _resolve_env_ids(self, env_ids: Ids) -> wp.array:
        """Int32 Warp env ids on the device (all envs for ``None`` / ``slice(None)``); host-side checks only."""
        return self._env_index.resolve(env_ids)

    def _select_from_mask(self, env_mask: wp.array | torch.Tensor | ProxyArray) -> wp.array:
        """The (N,) boolean Warp selection over envs from a mask (its shape is checked on the host, no sync)."""
        if isinstance(env_mask, ProxyArray):
            env_mask = env_mask.warp
        mask = env_mask if isinstance(env_mask, torch.Tensor) else wp.to_torch(env_mask)
        if tuple(mask.shape) != (self.num_instances,) or mask.dtype != torch.bool:
            raise ValueError(
                f"{type(self).__name__}: env_mask must be a bool mask of shape ({self.num_instances},), got"
                f" {mask.dtype} of shape {tuple(mask.shape)}."
            )
        return wp.from_torch(mask.to(device=self.device).contiguous(), dtype=wp.bool)

    def _world_ids_of(self, ids: wp.array) -> wp.array:
        """The worlds of the envs ``ids`` (int32, on the device)."""
        worlds = wp.to_torch(self._world_ids)[wp.to_torch(ids).long()]
        return wp.from_torch(worlds.contiguous(), dtype=wp.int32)

    # -- writes and resets -----------------------------------------------------------------------------

    def _checked_rows(self, value: Any, ids: wp.array, full_data: bool, width: int, *, name: str, where: str):
        """``value`` as a float32 tensor of shape (len(ids) or N with ``full_data``, P, width) on the device.

        Raises:
            TypeError: If ``value`` is not a float32 tensor, Warp array or :class:`ProxyArray`.
            ValueError: If its shape differs.
        """
        if isinstance(value, ProxyArray):
            value = value.warp
        if isinstance(value, wp.array) and value.dtype == vec6f:  # not a write_checks type: read as (..., 6) floats
            value = wp.to_torch(value)
        rows = self.num_instances if full_data else ids.shape[0]
        return checked_tensor(
            value,
            (rows, self._indices.shape[1], width),
            name=name,
            where=f"{type(self).__name__}.{where}",
            device=self.device,
            allow_scalar=False,
        )

    def _write_states(self, value: Any, env_ids: Ids, full_data: bool, *, name: str, where: str) -> None:
        """Write particle states (x, y, z [m], vx, vy, vz [m/s]) of the selected envs into both states."""
        ids = self._resolve_env_ids(env_ids)
        values = self._checked_rows(value, ids, full_data, 6, name=name, where=where)
        self._scatter_states(wp.from_torch(values.contiguous(), dtype=vec6f), ids, full_data=full_data)
        NewtonManager.note_state_write()

    def _write_vec3(self, value: Any, env_ids: Ids, full_data: bool, *, field: str, name: str, where: str) -> None:
        """Write per-particle vectors of the selected envs into the state ``field`` (``particle_q``/``particle_qd``)."""
        ids = self._resolve_env_ids(env_ids)
        values = self._checked_rows(value, ids, full_data, 3, name=name, where=where)
        s0, s1 = NewtonManager.get_state_0(), NewtonManager.get_state_1()
        wp.launch(
            scatter_vec3_kernel,
            dim=(ids.shape[0], self._indices.shape[1]),
            inputs=[
                wp.from_torch(values.contiguous(), dtype=wp.vec3),
                ids,
                bool(full_data),
                self._indices,
                getattr(s0, field),
                getattr(s1, field),
            ],
            device=self.device,
        )
        NewtonManager.note_state_write()

    def _reset_rows(self, default_states: wp.array, env_ids: Ids, env_mask: Any) -> None:
        """Reset the selected envs' worlds (solver internals), then write ``default_states`` (N, P) vec6f into them.

        The solvers' resets come first because some copy the model's particle state into the state (VBD). The mask
        path reads nothing back to the host: it visits every env and writes the selected ones.
        """
        if env_mask is not None:
            select = self._select_from_mask(env_mask)
            NewtonManager.request_world_reset(self._world_ids, select=select)
            NewtonManager.update_kinematics()
            self._scatter_states(default_states, self._all_ids, full_data=True, select=select)
        else:
            ids = self._resolve_env_ids(env_ids)
            if ids.shape[0] == 0:
                return
            NewtonManager.request_world_reset(self._world_ids_of(ids))
            NewtonManager.update_kinematics()
            self._scatter_states(default_states, ids, full_data=True)
        NewtonManager.note_state_write()

    def _scatter_states(
        self, states: wp.array, ids: wp.array, *, full_data: bool, select: wp.array | None = None
    ) -> None:
        s0, s1 = NewtonManager.get_state_0(), NewtonManager.get_state_1()
        wp.launch(
            scatter_state_kernel,
            dim=(ids.shape[0], self._indices.shape[1]),
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

    def _invalidate_initialize_callback(self, event: Any) -> None:
        self._is_initialized = False
