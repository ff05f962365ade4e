"""Index selectors (env ids, joint ids) resolved to int32 Warp arrays and int64 torch tensors, conversions cached.

Tasks pass the same selector every step (e.g. ``joint_ids=self._cart_dof_idx``); converting it on every call costs
a cast, a ``wp.from_torch`` and, on CUDA, a kernel launch. :class:`IndexResolver` converts a selector once (to both
forms) and returns the same array or tensor while the selector is unchanged:

- ``None`` and ``slice(None)``: the array of all indices;
- a torch tensor: cached per tensor object (found by identity, not ``id()``, which raises an audit event) and
  its version counter (an in-place edit re-converts it); inference tensors carry no version counter and are
  converted on every call;
- a Warp array: converted on every call (it may be edited in place), except that :meth:`IndexResolver.resolve`
  returns a 1-D contiguous int32 array on the device as it is;
- a list, tuple or slice: cached by value.

Boolean and floating-point selectors, and selectors of more indices than there are entries, raise (their dtype and
size are read on the host: no synchronization).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import torch
import warp as wp
from isaaclab.utils.warp import ProxyArray

Ids = Sequence[int] | torch.Tensor | wp.array | ProxyArray | slice | None


class _Selection(NamedTuple):
    """One converted selector in both forms."""

    warp: wp.array
    """The indices as a 1-D int32 Warp array."""
    torch: torch.Tensor
    """The indices as a 1-D int64 torch tensor."""


class IndexResolver:
    """Resolve index selectors over ``count`` entries to int32 Warp arrays on ``device``.

    Args:
        count: Number of entries along the axis (all indices are ``0 .. count-1``).
        device: The device of the returned arrays.
        capacity: Number of converted selectors kept; the oldest is dropped first.
        what: How errors name the selector, e.g. ``"DeformableObject env_ids"``.
    """

    def __init__(self, count: int, device: str, *, capacity: int = 16, what: str = "ids"):
        self._what = what
        self._count = count
        self._device = device
        self._wp_device = wp.get_device(device)
        self.all_ids_torch = torch.arange(count, device=device)
        """All indices, int64 torch tensor."""
        self.all_ids = wp.from_torch(self.all_ids_torch.to(torch.int32), dtype=wp.int32)
        """All indices, int32."""
        self._all = _Selection(self.all_ids, self.all_ids_torch)
        self._capacity = capacity
        self._cache: dict[object, _Selection] = {}
        self._tensors: list[tuple[torch.Tensor, int, _Selection]] = []

    def resolve(self, ids: Ids) -> wp.array:
        """The selected indices as a 1-D int32 Warp array (do not write into it)."""
        if isinstance(ids, ProxyArray):
            ids = ids.warp
        if (
            isinstance(ids, wp.array)
            and ids.dtype == wp.int32
            and ids.ndim == 1
            and ids.is_contiguous
            and ids.device == self._wp_device
        ):
            return ids
        return self._lookup(ids).warp

    def resolve_torch(self, ids: Ids) -> torch.Tensor:
        """The selected indices as a 1-D int64 torch tensor on the device (do not write into it).

        ``None`` and ``slice(None)`` give :attr:`all_ids_torch` itself, so callers can tell "every index" by identity.
        """
        return self._lookup(ids).torch

    def _lookup(self, ids: Ids) -> _Selection:
        if ids is None:
            return self._all
        if isinstance(ids, ProxyArray):
            ids = ids.warp
        if isinstance(ids, wp.array):
            return self._convert(wp.to_torch(ids))
        if isinstance(ids, torch.Tensor):
            return self._lookup_tensor(ids)
        if isinstance(ids, slice):
            if ids == slice(None):
                return self._all
            key = ("slice", ids.start, ids.stop, ids.step)
        else:
            key = ("seq", *ids)
        selection = self._cache.get(key)
        if selection is None:
            selection = self._convert(ids)
            if len(self._cache) >= self._capacity:
                self._cache.pop(next(iter(self._cache)))
            self._cache[key] = selection
        return selection

    def _lookup_tensor(self, ids: torch.Tensor) -> _Selection:
        if ids.is_inference():
            return self._convert(ids)
        version = ids._version
        for index, (tensor, converted_version, selection) in enumerate(self._tensors):
            if tensor is ids:
                if converted_version == version:
                    return selection
                del self._tensors[index]
                break
        selection = self._convert(ids)
        if len(self._tensors) >= self._capacity:
            self._tensors.pop(0)
        self._tensors.append((ids, version, selection))
        return selection

    def _convert(self, ids) -> _Selection:
        if isinstance(ids, slice):
            selected = self.all_ids_torch[ids]
        else:
            selected = integer_ids(ids, self._what).reshape(-1)
        if selected.numel() > self._count:
            raise ValueError(f"{self._what} selects {selected.numel()} entries but there are {self._count}.")
        selected = selected.to(device=self._device, dtype=torch.long)
        as_int32 = selected.to(torch.int32).contiguous()
        return _Selection(wp.from_torch(as_int32, dtype=wp.int32), selected)


def integer_ids(ids: torch.Tensor | Sequence[int], what: str) -> torch.Tensor:
    """``ids`` as an integer torch tensor (on the device it is on); its dtype is checked on the host.

    Args:
        ids: A tensor or a sequence of indices.
        what: How the error names the selector.

    Raises:
        TypeError: If ``ids`` holds booleans or floats.
    """
    if not isinstance(ids, torch.Tensor):
        ids = list(ids)
        ids = torch.as_tensor(ids) if ids else torch.zeros(0, dtype=torch.long)
    if ids.dtype == torch.bool or ids.dtype.is_floating_point:
        raise TypeError(
            f"{what} must be integer indices, got dtype {ids.dtype}; pass a bool selection to the *_mask variant of"
            " the method instead."
        )
    return ids
