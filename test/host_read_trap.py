"""A CPU stand-in for CUDA's sync debug mode: raise on the Python calls that read device data on the host.

On CPU nothing synchronizes, so ``torch.cuda.set_sync_debug_mode`` cannot check a step there. :class:`HostReadTrap`
raises on the calls that would synchronize on CUDA (``item``, ``tolist``, ``numpy``, ``cpu``, ``nonzero``, a tensor's
truth value in a Python branch, ``wp.array.numpy``) and on tensor indexing with Python lists (a host-to-device copy
of the index on CUDA, which also breaks CUDA graph capture).
"""

from __future__ import annotations

import torch
import warp as wp
from torch.overrides import TorchFunctionMode

_HOST_READS = frozenset(
    {
        torch.Tensor.item,
        torch.Tensor.tolist,
        torch.Tensor.numpy,
        torch.Tensor.cpu,
        torch.Tensor.__bool__,
        torch.Tensor.nonzero,
        torch.nonzero,
    }
)
_INDEXING = (torch.Tensor.__getitem__, torch.Tensor.__setitem__)


class HostReadError(RuntimeError):
    """A host read of tensor or Warp array data inside :class:`HostReadTrap`."""


class HostReadTrap(TorchFunctionMode):
    """Context manager: :class:`HostReadError` on host reads and list indexing of tensors, and on ``wp.array.numpy``."""

    def __enter__(self):
        self._numpy = wp.array.numpy

        def numpy(array, *args, **kwargs):
            raise HostReadError(f"wp.array.numpy() of an array of shape {array.shape}")

        wp.array.numpy = numpy
        return super().__enter__()

    def __exit__(self, *exc):
        wp.array.numpy = self._numpy
        return super().__exit__(*exc)

    def __torch_function__(self, func, types, args=(), kwargs=None):
        if func in _HOST_READS:
            raise HostReadError(f"{func.__qualname__} reads tensor data on the host")
        if func in _INDEXING:
            index = args[1] if isinstance(args[1], tuple) else (args[1],)
            if any(isinstance(item, list) for item in index):
                raise HostReadError(f"{func.__qualname__} with a Python list index copies it to the device")
        return func(*args, **(kwargs or {}))
