"""Isaac Lab's direct cartpole environment: mask-native reset, whole steps replayed from a CUDA graph on CUDA."""

from __future__ import annotations

import torch

from .._reuse import load_isaaclab_tasks_module
from ..graph_step import GraphStepMixin

_upstream = load_isaaclab_tasks_module("core/cartpole/cartpole_direct_env.py", "_isaaclab_tasks_cartpole_direct_env")


class CartpoleMaskResetEnv(GraphStepMixin, _upstream.CartpoleEnv):
    """Isaac Lab's ``CartpoleEnv`` with the graph-replayed step of :mod:`..graph_step`."""

    def _write_masked_sim_state(self, mask: torch.Tensor) -> None:
        """Cart and pole offsets sampled for every env, clamped to the soft limits, written where ``mask`` is set."""
        robot = self.cartpole
        data = robot.data
        low, span = self._reset_offset_ranges()
        offsets = torch.rand((self.num_envs, *low.shape), device=self.device).mul_(span).add_(low)
        pos_limits = data.soft_joint_pos_limits.torch
        vel_limits = data.soft_joint_vel_limits.torch
        joint_pos = (data.default_joint_pos.torch + offsets[:, 0]).clamp_(pos_limits[..., 0], pos_limits[..., 1])
        joint_vel = (data.default_joint_vel.torch + offsets[:, 1]).clamp_(-vel_limits, vel_limits)
        root_pose = data.default_root_pose.torch.clone()
        root_pose[:, :3] += self.scene.env_origins
        robot.write_root_pose_to_sim_mask(root_pose=root_pose, env_mask=mask)
        robot.write_root_velocity_to_sim_mask(root_velocity=data.default_root_vel.torch, env_mask=mask)
        robot.write_joint_position_to_sim_mask(position=joint_pos, env_mask=mask)
        robot.write_joint_velocity_to_sim_mask(velocity=joint_vel, env_mask=mask)

    def _reset_offset_ranges(self) -> tuple[torch.Tensor, torch.Tensor]:
        """Lower bounds and widths (2, num_joints) of the sampled offsets: row 0 positions, row 1 velocities.

        Built from the cfg's ``initial_*_range`` fields (uniform, like upstream's ``sample_uniform``) and rebuilt
        when they change; a step replayed from a CUDA graph keeps the values it was recorded with.
        """
        cfg = self.cfg
        ranges = (
            (0, cfg.cart_dof_name, cfg.initial_cart_position_range),
            (0, cfg.pole_dof_name, cfg.initial_pole_angle_range),
            (1, cfg.cart_dof_name, cfg.initial_cart_velocity_range),
            (1, cfg.pole_dof_name, cfg.initial_pole_velocity_range),
        )
        key = tuple((row, name, tuple(bounds)) for row, name, bounds in ranges)
        cached = getattr(self, "_offset_ranges", None)
        if cached is None or cached[0] != key:
            low = torch.zeros((2, self.cartpole.num_joints))
            span = torch.zeros_like(low)
            for row, name, (lower, upper) in ranges:
                ids = self.cartpole.find_joints(name)[0]
                low[row, ids] = lower
                span[row, ids] = upper - lower
            cached = self._offset_ranges = (key, low.to(self.device), span.to(self.device))
        return cached[1], cached[2]

    def _reset_masked_task(self, mask: torch.Tensor) -> None:
        """Success rate logged; the joint state the observation reads without refreshing it is re-read."""
        self._log_masked_success_rate(mask)
        self.joint_pos = self.cartpole.data.joint_pos.torch
        self.joint_vel = self.cartpole.data.joint_vel.torch
