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

Because the mask path runs on every step, its cost is paid on every step. Where whole env steps replay from a CUDA
graph (:mod:`.graph_step`) the reset is part of that graph. Elsewhere on CUDA its simulation part (asset resets
and the task's state writes, :meth:`MaskResetMixin._write_masked_sim_state`) is replayed from its own CUDA
graph (:class:`~isaaclab_newton.physics.graph.TorchWarpGraph`), recorded on the second reset after the first ran
eagerly and loaded every kernel. The graph is recorded again when Python state it branches on changes (which wrench
composers are active). Sensors, episode counters and the task's own buffers (:meth:`MaskResetMixin._reset_masked_task`,
which may rebind attributes) are reset eagerly after it.
"""

from __future__ import annotations

import torch
import warp as wp
from isaaclab.envs import DirectRLEnv

from isaaclab_newton.physics import NewtonManager
from isaaclab_newton.physics.graph import TorchWarpGraph
from isaaclab_newton.physics.recorded_launch import RecordedLaunches

from .mask_reset_kernels import success_count_kernel, success_rate_kernel


class MaskResetMixin:
    """Overrides ``_reset_envs_from_buffer`` of a :class:`~isaaclab.envs.DirectRLEnv` task with a mask reset.

    Put it first in the bases (``class Env(MaskResetMixin, UpstreamEnv)``) and implement
    :meth:`_write_masked_sim_state` and :meth:`_reset_masked_task`.
    """

    mask_reset_on_cpu: bool = False
    """Reset by mask on CPU too (for checking the mask path without a GPU; slower there, see the module notes)."""

    interval_events_by_mask: bool = False
    """Whether the env's step runs interval events by mask (on device timers) rather than through core's manager."""

    capture_mask_reset: bool = True
    """On CUDA (with ``NewtonCfg.use_cuda_graph``), replay the simulation part of the mask reset from a CUDA graph."""

    def __init__(self, cfg, render_mode: str | None = None, **kwargs):
        super().__init__(cfg, render_mode, **kwargs)
        self._reset_mask = torch.zeros(self.num_envs, dtype=torch.bool, device=self.device)
        self._reset_mask_wp = wp.from_torch(self._reset_mask, dtype=wp.bool)
        self._reset_graph: TorchWarpGraph | None = None
        self._reset_graph_key: tuple[bool, ...] | None = None
        self._reset_warm_key: tuple[bool, ...] | None = None
        self._index_reset_actuators = _actuators_reset_by_index(self.scene)
        self._mask_launches = RecordedLaunches(self.device)
        rate = torch.zeros(1, dtype=torch.float32, device=self.device)
        self._success_rate = rate[0]  # the logged 0-d tensor, updated in place
        self._success_rate_wp = wp.from_torch(rate)
        self._success_counts_wp = wp.from_torch(torch.zeros(2, dtype=torch.int32, device=self.device))
        self._success_time_outs: tuple[torch.Tensor, wp.array] | None = None

    def mask_reset_unavailable_reason(self) -> str | None:
        """Why done envs reset through core's index path instead of by mask, or ``None`` when they reset by mask."""
        cfg = self.cfg
        if torch.device(self.device).type == "cpu" and not self.mask_reset_on_cpu:
            return "CPU simulation (set mask_reset_on_cpu to reset by mask there)"
        if cfg.compute_final_obs:
            return "cfg.compute_final_obs needs the observation of the done envs before their reset"
        if self.has_rtx_sensors and cfg.num_rerenders_on_reset > 0:
            return "RTX sensors rerender on reset"
        if getattr(cfg, "action_noise_model", None) or getattr(cfg, "observation_noise_model", None):
            return "noise models reset by env index"
        if isinstance(self, DirectRLEnv) and cfg.events and "reset" in self.event_manager.available_modes:
            return "reset events take env indices"
        if self._index_reset_actuators is not None:
            return self._index_reset_actuators
        return None

    def _mask_reset_supported(self) -> bool:
        """Whether done envs reset by mask (:meth:`mask_reset_unavailable_reason` is ``None``)."""
        return self.mask_reset_unavailable_reason() is None

    def _reset_envs_from_buffer(self) -> torch.Tensor | None:
        """Reset the envs set in ``reset_buf`` by mask and return ``None``; core's index path where unsupported."""
        if not self._mask_reset_supported():
            return super()._reset_envs_from_buffer()
        self._reset_mask.copy_(self.reset_buf)
        self._reset_masked(self._reset_mask)
        return None

    def _reset_masked(self, mask: torch.Tensor) -> None:
        """Everything ``_reset_idx`` does for the envs set in ``mask`` (bool, shape ``(num_envs,)``)."""
        if mask is self._reset_mask and self._graph_reset_enabled():
            self._replay_masked_sim()
        else:
            self._reset_masked_sim(mask)
        sensor_mask = self._reset_mask_wp if mask is self._reset_mask else wp.from_torch(mask, dtype=wp.bool)
        for sensor in self.scene.sensors.values():
            sensor.reset(env_mask=sensor_mask)
        self.episode_length_buf.masked_fill_(mask, 0)
        self._reset_masked_task(mask)

    def _reset_masked_sim(self, mask: torch.Tensor) -> None:
        """Assets of the scene and the task's simulation state for the masked envs, kinematics brought up to date."""
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
        self._write_masked_sim_state(mask)
        NewtonManager.update_kinematics()

    def _graph_reset_enabled(self) -> bool:
        """Whether the simulation part of the reset replays from a CUDA graph."""
        return self.capture_mask_reset and torch.device(self.device).type == "cuda" and NewtonManager.uses_graph()

    def _reset_graph_state(self) -> tuple[bool, ...]:
        """Python state the recorded reset branches on: whether each asset's wrench composers are active."""
        state = []
        for group in (self.scene.articulations, self.scene.rigid_objects, self.scene.rigid_object_collections):
            for asset in group.values():
                state += [asset.permanent_wrench_composer.active, asset.instantaneous_wrench_composer.active]
        return tuple(state)

    def _replay_masked_sim(self) -> None:
        """Run :meth:`_reset_masked_sim` on ``_reset_mask`` from its CUDA graph (eagerly once per new graph state)."""
        NewtonManager.update_kinematics()  # work queued before the reset runs outside the graph
        key = self._reset_graph_state()
        if self._reset_graph is None or key != self._reset_graph_key:
            if key != self._reset_warm_key:
                # first reset in this state: run eagerly, so that every kernel is loaded and lazy buffers exist
                self._reset_warm_key = key
                self._reset_masked_sim(self._reset_mask)
                return
            self._reset_graph = None
            NewtonManager.note_state_write()  # cached reads go stale: the recorded reads recompute on every replay
            try:
                self._reset_graph = TorchWarpGraph(lambda: self._reset_masked_sim(self._reset_mask), self.device)
            except RuntimeError as err:
                raise RuntimeError(
                    f"The mask reset of {type(self).__name__} could not be recorded in a CUDA graph ({err}). Set"
                    f" {type(self).__name__}.capture_mask_reset = False to run it eagerly."
                ) from err
            self._reset_graph_key = key
        self._reset_graph.replay()
        NewtonManager.note_state_write()

    def _log_masked_success_rate(self, mask: torch.Tensor) -> None:
        """``extras["log"]["Metrics/success_rate"]``: share of the reset envs that timed out (kept if none reset).

        For tasks that log this metric in ``_reset_idx`` (Isaac Lab's cartpole and locomotion tasks).

        The index path logs the mean of ``reset_time_outs`` over the reset envs on steps with resets and leaves
        the last value otherwise; two kernel launches compute both cases on the device (a count of the reset and
        the timed-out envs, then the rate where the first count is not zero).
        """
        mask_wp = self._reset_mask_wp if mask is self._reset_mask else wp.from_torch(mask, dtype=wp.bool)
        time_outs = self.reset_time_outs
        if self._success_time_outs is None or self._success_time_outs[0] is not time_outs:
            self._success_time_outs = (time_outs, wp.from_torch(time_outs, dtype=wp.bool))
        counts = self._success_counts_wp
        fresh = () if mask is self._reset_mask else (0,)  # another mask: a new view on every call
        args = (mask_wp, self._success_time_outs[1], counts)
        self._mask_launches.launch(success_count_kernel, (self.num_envs,), args, fresh=fresh)
        self._mask_launches.launch(success_rate_kernel, (1,), (counts, self._success_rate_wp))
        self.extras.setdefault("log", {})["Metrics/success_rate"] = self._success_rate

    def _write_masked_sim_state(self, mask: torch.Tensor) -> None:
        """Write the reset simulation state (root, joints) of the envs set in ``mask``, after the asset resets.

        Sample for every env and write with the ``*_mask`` writers. On CUDA this runs inside a CUDA graph: read
        and write only persistent buffers (asset data, model and state, task buffers updated in place), rebind no
        attributes and keep Python state unchanged; task bookkeeping goes in :meth:`_reset_masked_task`.
        """
        raise NotImplementedError(f"{type(self).__name__} must implement _write_masked_sim_state(mask).")

    def _reset_masked_task(self, mask: torch.Tensor) -> None:
        """Reset the task's own buffers of the envs set in ``mask`` (eagerly, after the simulation state)."""
        raise NotImplementedError(f"{type(self).__name__} must implement _reset_masked_task(mask).")


def _actuators_reset_by_index(scene) -> str | None:
    """A sentence naming the first articulation with actuator groups that reset by env index only, or ``None``."""
    for name, articulation in scene.articulations.items():
        groups = articulation.actuator_groups_reset_by_index()
        if groups:
            return f"articulation '{name}' has actuator groups {groups} whose resets take env indices"
    return None
