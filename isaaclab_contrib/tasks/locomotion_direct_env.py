"""Isaac Lab's direct locomotion environment (ant, humanoid): mask-native reset, steps replayed from a CUDA graph."""

from __future__ import annotations

import torch

from ._reuse import load_isaaclab_tasks_module
from .graph_step import GraphStepMixin
from .reset_state import ResetStateSampler

_upstream = load_isaaclab_tasks_module(
    "core/locomotion/locomotion_direct_env.py", "_isaaclab_tasks_locomotion_direct_env"
)


class LocomotionMaskResetEnv(GraphStepMixin, _upstream.LocomotionDirectEnv):
    """Isaac Lab's ``LocomotionDirectEnv`` with the graph-replayed step of :mod:`.graph_step`."""

    def __init__(self, cfg, render_mode: str | None = None, **kwargs):
        super().__init__(cfg, render_mode, **kwargs)
        self._reset_joint_ids = tuple(range(self.robot.num_joints))
        self._reset_state = ResetStateSampler(self.robot, self._mask_launches)

    def _write_masked_sim_state(self, mask: torch.Tensor) -> None:
        """Default root state and joint offsets sampled for every env (clamped to the soft limits), where ``mask``.

        The offsets are uniform in ``cfg.initial_joint_pos_range`` and ``cfg.initial_joint_vel_range`` (upstream's
        ``sample_uniform``) for every joint, read at each call.
        """
        cfg, ids = self.cfg, self._reset_joint_ids
        ranges = ((0, ids, tuple(cfg.initial_joint_pos_range)), (1, ids, tuple(cfg.initial_joint_vel_range)))
        self._reset_state.write(mask, self.scene.env_origins, ranges)

    def _reset_masked_task(self, mask: torch.Tensor) -> None:
        """Actions and potentials of the masked envs reset; the derived values the observation reads recomputed.

        They are recomputed for all envs, as the index path does on steps with resets; for envs that did not reset
        they come out unchanged (only ``prev_potentials``, rewritten before its next read).
        """
        self._log_masked_success_rate(mask)
        self.actions.masked_fill_(mask[:, None], 0.0)
        to_target = self.targets - self._reset_state.root_pose[:, :3]  # written by _write_masked_sim_state
        to_target[:, 2] = 0.0
        fresh = -torch.linalg.norm(to_target, ord=2, dim=-1) / self.step_dt
        self.potentials = torch.where(mask, fresh, self.potentials)
        self._compute_intermediate_values()
