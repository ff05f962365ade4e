"""Per-env particle rows of particle assets (deformable objects, MPM media): env selections and their worlds."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import torch
import warp as wp
from isaaclab.utils.warp import ProxyArray

from .newton_asset import Ids


class ParticleRowsMixin:
    """Env-id and env-mask resolution for an asset whose every env holds the same number of model particles.

    Call :meth:`_init_particle_rows` from ``_initialize_impl`` with the scene index's particle rows.
    """

    device: str

    def _init_particle_rows(self, indices: np.ndarray, world_ids: Sequence[int]) -> None:
        """Keep the (N, P) model particle indices, every env's id and its world on the device."""
        self._indices = wp.array(indices.astype(np.int32), dtype=wp.int32, device=self.device)
        self._all_ids = wp.array(np.arange(indices.shape[0], dtype=np.int32), dtype=wp.int32, device=self.device)
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
        name = type(self).__name__
        if env_ids is None or (isinstance(env_ids, slice) and env_ids == slice(None)):
            return self._all_ids
        if isinstance(env_ids, slice):
            env_ids = range(self.num_instances)[env_ids]
        if isinstance(env_ids, ProxyArray):
            env_ids = env_ids.warp
        if isinstance(env_ids, wp.array):
            on_device = env_ids.device == wp.get_device(self.device)
            if env_ids.dtype == wp.int32 and env_ids.ndim == 1 and on_device:
                return env_ids
            env_ids = wp.to_torch(env_ids)
        if not isinstance(env_ids, torch.Tensor):
            env_ids = torch.as_tensor(list(env_ids), dtype=torch.int32)
        if env_ids.dtype.is_floating_point or env_ids.dtype == torch.bool:
            raise TypeError(f"{name}: env_ids must hold integer env indices, got dtype {env_ids.dtype}.")
        if env_ids.numel() > self.num_instances:
            raise ValueError(f"{name}: env_ids selects {env_ids.numel()} envs but the asset has {self.num_instances}.")
        return wp.from_torch(env_ids.to(device=self.device, dtype=torch.int32).reshape(-1).contiguous())

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
