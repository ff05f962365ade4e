"""Mask-native resets for direct tasks: ``env.step()`` resets done envs without reading device data on the host.

Isaac Lab core's :meth:`~isaaclab.envs.DirectRLEnv._reset_envs_from_buffer` turns ``reset_buf`` into indices with
``nonzero`` (a host sync on CUDA) and calls ``_reset_idx``. Core lets a task override that hook and return ``None``
after resetting the envs itself. :class:`MaskResetMixin` does so: it copies ``reset_buf`` into a persistent mask,
resets the scene entities with ``reset(env_mask=...)`` and zeroes the episode counters of the masked envs; the task
subclass resets its own state in :meth:`MaskResetMixin._reset_masked_task` with ``*_mask`` writers and
``torch.where``, sampling its randomization for all envs and keeping it only where the mask is set.

Configurations the mask path cannot serve (terminal observations, RTX rerenders on reset, reset events, noise
models, which core resets by index) go through core's index path unchanged. So do CPU simulations unless
:attr:`MaskResetMixin.mask_reset_on_cpu` is set: there ``nonzero`` does not synchronize with a device, and the
index path skips all reset work on steps where no env is done, while the mask path runs it on every step.
"""

from __future__ import annotations

import torch
import warp as wp


class MaskResetMixin:
    """Overrides ``_reset_envs_from_buffer`` of a :class:`~isaaclab.envs.DirectRLEnv` task with a mask reset.

    Put it first in the bases (``class Env(MaskResetMixin, UpstreamEnv)``) and implement
    :meth:`_reset_masked_task`.
    """

    mask_reset_on_cpu: bool = False
    """Reset by mask on CPU too (for checking the mask path without a GPU; slower there, see the module notes)."""

    def __init__(self, cfg, render_mode: str | None = None, **kwargs):
        super().__init__(cfg, render_mode, **kwargs)
        self._reset_mask = torch.zeros(self.num_envs, dtype=torch.bool, device=self.device)
        self._reset_mask_wp = wp.from_torch(self._reset_mask, dtype=wp.bool)

    def _mask_reset_supported(self) -> bool:
        """Whether to reset by mask: core's conditions hold, no index-only managers, not CPU (unless opted in)."""
        cfg = self.cfg
        if torch.device(self.device).type == "cpu" and not self.mask_reset_on_cpu:
            return False
        if cfg.compute_final_obs or (self.has_rtx_sensors and cfg.num_rerenders_on_reset > 0):
            return False
        if cfg.action_noise_model or cfg.observation_noise_model:
            return False
        return not (cfg.events and "reset" in self.event_manager.available_modes)

    def _reset_envs_from_buffer(self) -> torch.Tensor | None:
        """Reset the envs set in ``reset_buf`` by mask and return ``None``; core's index path where unsupported."""
        if not self._mask_reset_supported():
            return super()._reset_envs_from_buffer()
        self._reset_mask.copy_(self.reset_buf)
        self._reset_masked(self._reset_mask)
        return None

    def _reset_masked(self, mask: torch.Tensor) -> None:
        """Everything ``_reset_idx`` does for the envs set in ``mask`` (bool, shape ``(num_envs,)``)."""
        self._reset_masked_scene(mask)
        self.episode_length_buf.masked_fill_(mask, 0)
        self._reset_masked_task(mask)

    def _reset_masked_scene(self, mask: torch.Tensor) -> None:
        """Reset every asset and sensor of the scene for the masked envs (core's ``scene.reset`` by mask)."""
        scene = self.scene
        groups = (
            scene.articulations,
            scene.cable_objects,
            scene.deformable_objects,
            scene.rigid_objects,
            scene.surface_grippers,
            scene.rigid_object_collections,
        )
        for group in groups:
            for asset in group.values():
                asset.reset(env_mask=mask)
        for sensor in scene.sensors.values():
            sensor.reset(env_mask=self._reset_mask_wp)

    def _log_masked_success_rate(self, mask: torch.Tensor) -> None:
        """``extras["log"]["Metrics/success_rate"]``: share of the reset envs that timed out (kept if none reset).

        For tasks that log this metric in ``_reset_idx`` (Isaac Lab's cartpole and locomotion tasks).

        The index path logs the mean of ``reset_time_outs`` over the reset envs on steps with resets and leaves
        the last value otherwise; this computes both cases on the device.
        """
        log = self.extras.setdefault("log", {})
        previous = log.get("Metrics/success_rate")
        if previous is None:
            previous = torch.zeros((), dtype=torch.float32, device=self.device)
        count = mask.sum()
        rate = (self.reset_time_outs & mask).sum().float() / count.clamp(min=1).float()
        log["Metrics/success_rate"] = torch.where(count > 0, rate, previous)

    def _reset_masked_task(self, mask: torch.Tensor) -> None:
        """Reset the task's own state (robot state, task buffers) of the envs set in ``mask``."""
        raise NotImplementedError(f"{type(self).__name__} must implement _reset_masked_task(mask).")
