"""What a direct task's Warp term kernels share: recorded launches, cached Warp views, the tensors they return."""

from __future__ import annotations

import torch
import warp as wp

from isaaclab_newton.physics.recorded_launch import RecordedLaunches


class TaskTermsMixin:
    """Mix into a direct Isaac Lab env whose dones, reward and observation are Warp kernels.

    Call :meth:`_init_task_terms` in ``__init__`` once ``self.device`` is set.
    """

    def _init_task_terms(self) -> None:
        """Make the term launches (recorded once per argument set) and the cache of Warp views."""
        self._term_device = wp.get_device(self.device)
        self._term_launches = RecordedLaunches(self.device)
        self._term_views: dict[str, tuple[torch.Tensor, wp.array]] = {}

    def _term_view(self, name: str, dtype) -> wp.array:
        """A Warp view of the env's tensor attribute ``name``, made again when the attribute was rebound."""
        return self._term_tensor_view(name, getattr(self, name), dtype)

    def _term_tensor_view(self, key: str, tensor: torch.Tensor, dtype) -> wp.array:
        """A Warp view of ``tensor``, cached under ``key`` while ``key`` names the same tensor."""
        cached = self._term_views.get(key)
        if cached is None or cached[0] is not tensor:
            cached = self._term_views[key] = (tensor, wp.from_torch(tensor, dtype=dtype))
        return cached[1]

    def _term_returned(self, buffer: torch.Tensor) -> torch.Tensor:
        """``buffer`` itself while a graph records the step (the graph step copies it), else a copy of it."""
        return buffer if self._term_device.is_capturing else buffer.clone()
