"""Isaac Lab's direct locomotion environment (ant, humanoid): mask-native reset, steps replayed from a CUDA graph."""

from __future__ import annotations

import torch
from isaaclab.utils.math import sample_uniform

from ._reuse import load_isaaclab_tasks_module
from .graph_step import GraphStepMixin

_upstream = load_isaaclab_tasks_module(
    "core/locomotion/locomotion_direct_env.py", "_isaaclab_tasks_locomotion_direct_env"
)


class LocomotionMaskResetEnv(GraphStepMixin, _upstream.LocomotionDirectEnv):
    """Isaac Lab's ``LocomotionDirectEnv`` with the graph-replayed step of :mod:`.graph_step`."""

    def _write_masked_sim_state(self, mask: torch.Tensor) -> None:
        """Default root state and joint offsets sampled for every env (clamped to the soft limits), where ``mask``."""
        cfg, robot = self.cfg, self.robot
        data = robot.data
        robot.write_root_pose_to_sim_mask(root_pose=self._default_root_pose_w(), env_mask=mask)
        robot.write_root_velocity_to_sim_mask(root_velocity=data.default_root_vel.torch, env_mask=mask)
        default_pos, default_vel = data.default_joint_pos.torch, data.default_joint_vel.torch
        pos_limits = data.soft_joint_pos_limits.torch
        vel_limits = data.soft_joint_vel_limits.torch
        joint_pos = default_pos + sample_uniform(*cfg.initial_joint_pos_range, default_pos.shape, self.device)
        joint_vel = default_vel + sample_uniform(*cfg.initial_joint_vel_range, default_vel.shape, self.device)
        joint_pos = joint_pos.clamp_(pos_limits[..., 0], pos_limits[..., 1])
        joint_vel = joint_vel.clamp_(-vel_limits, vel_limits)
        robot.write_joint_position_to_sim_mask(position=joint_pos, env_mask=mask)
        robot.write_joint_velocity_to_sim_mask(velocity=joint_vel, env_mask=mask)

    def _reset_masked_task(self, mask: torch.Tensor) -> None:
        """Actions and potentials of the masked envs reset; the derived values the observation reads recomputed.

        They are recomputed for all envs, as the index path does on steps with resets; for envs that did not reset
        they come out unchanged (only ``prev_potentials``, rewritten before its next read).
        """
        self._log_masked_success_rate(mask)
        self.actions.masked_fill_(mask[:, None], 0.0)
        to_target = self.targets - self._default_root_pose_w()[:, :3]
        to_target[:, 2] = 0.0
        fresh = -torch.linalg.norm(to_target, ord=2, dim=-1) / self.step_dt
        self.potentials = torch.where(mask, fresh, self.potentials)
        self._compute_intermediate_values()

    def _default_root_pose_w(self) -> torch.Tensor:
        """Default root poses offset into each env's origin, shape (num_envs, 7)."""
        root_pose = self.robot.data.default_root_pose.torch.clone()
        root_pose[:, :3] += self.scene.env_origins
        return root_pose
