"""Per-env particle rows of particle assets (deformable objects, MPM media): env selections and their worlds."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import torch
import warp as wp
from isaaclab.utils.warp import ProxyArray

from .index_cache import Ids, IndexResolver


class ParticleRowsMixin:
    """Env-id and env-mask resolution for an asset whose every env holds the same number of model particles.

    Call :meth:`_init_particle_rows` from ``_initialize_impl`` with the scene index's particle rows.
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
