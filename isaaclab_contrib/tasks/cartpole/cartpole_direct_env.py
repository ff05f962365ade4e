"""Isaac Lab's direct cartpole environment: mask-native reset, whole steps replayed from a CUDA graph on CUDA."""

from __future__ import annotations

import torch
from isaaclab.utils.math import sample_uniform

from .._reuse import load_isaaclab_tasks_module
from ..graph_step import GraphStepMixin

_upstream = load_isaaclab_tasks_module("core/cartpole/cartpole_direct_env.py", "_isaaclab_tasks_cartpole_direct_env")


class CartpoleMaskResetEnv(GraphStepMixin, _upstream.CartpoleEnv):
    """Isaac Lab's ``CartpoleEnv`` with the graph-replayed step of :mod:`..graph_step`."""

    def _write_masked_sim_state(self, mask: torch.Tensor) -> None:
        """Cart and pole offsets sampled for every env, clamped to the soft limits, written where ``mask`` is set."""
        cfg, robot, n = self.cfg, self.cartpole, self.num_envs
        data = robot.data
        offsets_pos = torch.zeros_like(data.default_joint_pos.torch)
        offsets_vel = torch.zeros_like(data.default_joint_vel.torch)
        offsets_pos[:, self._cart_dof_idx] = sample_uniform(*cfg.initial_cart_position_range, (n, 1), self.device)
        offsets_vel[:, self._cart_dof_idx] = sample_uniform(*cfg.initial_cart_velocity_range, (n, 1), self.device)
        offsets_pos[:, self._pole_dof_idx] = sample_uniform(*cfg.initial_pole_angle_range, (n, 1), self.device)
        offsets_vel[:, self._pole_dof_idx] = sample_uniform(*cfg.initial_pole_velocity_range, (n, 1), self.device)
        pos_limits = data.soft_joint_pos_limits.torch
        vel_limits = data.soft_joint_vel_limits.torch
        joint_pos = (data.default_joint_pos.torch + offsets_pos).clamp_(pos_limits[..., 0], pos_limits[..., 1])
        joint_vel = (data.default_joint_vel.torch + offsets_vel).clamp_(-vel_limits, vel_limits)
        root_pose = data.default_root_pose.torch.clone()
        root_pose[:, :3] += self.scene.env_origins
        robot.write_root_pose_to_sim_mask(root_pose=root_pose, env_mask=mask)
        robot.write_root_velocity_to_sim_mask(root_velocity=data.default_root_vel.torch, env_mask=mask)
        robot.write_joint_position_to_sim_mask(position=joint_pos, env_mask=mask)
        robot.write_joint_velocity_to_sim_mask(velocity=joint_vel, env_mask=mask)

    def _reset_masked_task(self, mask: torch.Tensor) -> None:
        """Success rate logged; the joint state the observation reads without refreshing it is re-read."""
        self._log_masked_success_rate(mask)
        self.joint_pos = self.cartpole.data.joint_pos.torch
        self.joint_vel = self.cartpole.data.joint_vel.torch
