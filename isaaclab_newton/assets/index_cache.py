"""Index selectors (env ids, joint ids) resolved to int32 Warp arrays, with the conversions cached.

Tasks pass the same selector every step (e.g. ``joint_ids=self._cart_dof_idx``); converting it to a Warp int32
array on every call costs a cast, a ``wp.from_torch`` and, on CUDA, a kernel launch. :class:`IndexResolver`
converts a selector once and returns the same array while the selector is unchanged:

- ``None`` and ``slice(None)``: the array of all indices;
- a torch tensor: cached per tensor object (found by identity, not ``id()``, which raises an audit event) and
  its version counter (an in-place edit re-converts it); inference tensors carry no version counter and are
  converted on every call;
- a Warp int32 array on the device: returned as it is; other Warp arrays are converted on every call;
- a list, tuple or slice: cached by value.

Boolean and floating-point selectors, and selectors of more indices than there are entries, raise (their dtype and
size are read on the host: no synchronization).
"""

from __future__ import annotations

from collections.abc import Sequence

import torch
import warp as wp
from isaaclab.utils.warp import ProxyArray

Ids = Sequence[int] | torch.Tensor | wp.array | ProxyArray | slice | None


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
        self._all_t = torch.arange(count, device=device)
        self.all_ids = wp.from_torch(self._all_t.to(torch.int32), dtype=wp.int32)
        """All indices, int32."""
        self._capacity = capacity
        self._cache: dict[object, wp.array] = {}
        self._tensors: list[tuple[torch.Tensor, int, wp.array]] = []

    def resolve(self, ids: Ids) -> wp.array:
        """The selected indices as a 1-D int32 Warp array (do not write into it)."""
        if ids is None:
            return self.all_ids
        if isinstance(ids, ProxyArray):
            ids = ids.warp
        if isinstance(ids, wp.array):
            if ids.dtype == wp.int32 and ids.ndim == 1 and ids.is_contiguous and ids.device == self._wp_device:
                return ids
            return self._convert(wp.to_torch(ids))
        if isinstance(ids, torch.Tensor):
            return self._resolve_tensor(ids)
        if isinstance(ids, slice):
            if ids == slice(None):
                return self.all_ids
            key = ("slice", ids.start, ids.stop, ids.step)
        else:
            key = ("seq", *ids)
        array = self._cache.get(key)
        if array is None:
            array = self._convert(ids)
            if len(self._cache) >= self._capacity:
                self._cache.pop(next(iter(self._cache)))
            self._cache[key] = array
        return array

    def _resolve_tensor(self, ids: torch.Tensor) -> wp.array:
        if ids.is_inference():
            return self._convert(ids)
        version = ids._version
        for index, (tensor, converted_version, array) in enumerate(self._tensors):
            if tensor is ids:
                if converted_version == version:
                    return array
                del self._tensors[index]
                break
        array = self._convert(ids)
        if len(self._tensors) >= self._capacity:
            self._tensors.pop(0)
        self._tensors.append((ids, version, array))
        return array

    def _convert(self, ids) -> wp.array:
        if isinstance(ids, slice):
            selected = self._all_t[ids]
        else:
            selected = integer_ids(ids, self._what).reshape(-1)
        if selected.numel() > self._count:
            raise ValueError(f"{self._what} selects {selected.numel()} entries but there are {self._count}.")
        selected = selected.to(device=self._device, dtype=torch.int32).contiguous()
        return wp.from_torch(selected, dtype=wp.int32)


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
