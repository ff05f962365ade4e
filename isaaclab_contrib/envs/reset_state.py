"""The reset state of a direct task's articulation (default root, sampled joint offsets), written by mask.

Isaac Lab's direct tasks (cartpole, ant, humanoid) reset a robot to its default root pose in the env's origin, its
default root velocity, and its default joint state plus offsets sampled uniformly in configured ranges, clamped to
the soft joint limits. :class:`ResetStateSampler` draws the uniform samples with torch's generator (one draw for all
envs, so ``env.seed`` governs them) and computes the rest with two Warp kernels (root pose; joint state, shared with
the mask reset events) into persistent buffers, which the ``*_mask`` writers then write for the masked envs.
"""

from __future__ import annotations

import torch
import warp as wp

from isaaclab_newton.physics.recorded_launch import RecordedLaunches

from .joint_reset import RANGE_COLUMNS, JointRangeTable, sample_joint_state_kernel
from .mask_reset_kernels import root_pose_in_origin_kernel

ResetRanges = tuple[tuple[int, tuple[int, ...], tuple[float, float]], ...]
"""Sampling ranges: ``(row, joint_ids, (low, high))`` entries, row 0 for joint positions and 1 for velocities."""


class ResetStateSampler:
    """Samples and writes the reset state of one articulation, a few kernel launches for all envs.

    Args:
        robot: The articulation (an Isaac Lab ``Articulation`` on the Newton backend).
        launches: The recorded launches the kernel goes through.
    """

    def __init__(self, robot, launches: RecordedLaunches):
        self._robot = robot
        self._launches = launches
        default_joint_pos = robot.data.default_joint_pos.torch
        device = default_joint_pos.device
        num_envs, num_joints = default_joint_pos.shape
        self._uniform = torch.zeros((2, num_envs, num_joints), dtype=torch.float32, device=device)
        self.root_pose = torch.zeros((num_envs, 7), dtype=torch.float32, device=device)
        """Default root poses in each env's origin, shape (num_envs, 7), as of the last :meth:`write`."""
        self.joint_pos = torch.zeros((num_envs, num_joints), dtype=torch.float32, device=device)
        self.joint_vel = torch.zeros_like(self.joint_pos)
        self._origins: tuple[torch.Tensor, wp.array] | None = None
        self._out = (
            wp.from_torch(self._uniform[0], dtype=wp.float32),
            wp.from_torch(self._uniform[1], dtype=wp.float32),
            wp.from_torch(self.root_pose, dtype=wp.transformf),
            wp.from_torch(self.joint_pos, dtype=wp.float32),
            wp.from_torch(self.joint_vel, dtype=wp.float32),
        )
        self._ranges = JointRangeTable(num_joints, device, changed="The reset ranges of the task")

    def write(self, mask: torch.Tensor, env_origins: torch.Tensor, ranges: ResetRanges) -> None:
        """Sample the reset state of every env and write it where ``mask`` is set.

        Args:
            mask: Bool tensor (num_envs,) of the envs to reset.
            env_origins: The scene's env origins [m], shape (num_envs, 3) (read again when rebound).
            ranges: The offsets' sampling ranges (see :data:`ResetRanges`); joints without an entry get none.
        """
        robot = self._robot
        data = robot.data
        self._ranges.update(ranges, lambda: self._range_rows(ranges))
        if self._origins is None or env_origins is not self._origins[0]:
            self._origins = (env_origins, wp.from_torch(env_origins, dtype=wp.vec3f))  # a view: edits show
        self._uniform.uniform_()  # torch's generator: the values torch.rand would draw
        pos_draw, vel_draw, root_pose, joint_pos, joint_vel = self._out
        root_args = (data.default_root_pose.warp, self._origins[1], root_pose)
        self._launches.launch(root_pose_in_origin_kernel, (self.root_pose.shape[0],), root_args)
        joint_args = self._ranges.launch_inputs(data, pos_draw, vel_draw, joint_pos, joint_vel)
        self._launches.launch(sample_joint_state_kernel, tuple(self.joint_pos.shape), joint_args)
        robot.write_root_pose_to_sim_mask(root_pose=self.root_pose, env_mask=mask)
        robot.write_root_velocity_to_sim_mask(root_velocity=data.default_root_vel.torch, env_mask=mask)
        robot.write_joint_position_to_sim_mask(position=self.joint_pos, env_mask=mask)
        robot.write_joint_velocity_to_sim_mask(velocity=self.joint_vel, env_mask=mask)

    def _range_rows(self, ranges: ResetRanges) -> torch.Tensor:
        """The joints' range rows (see :data:`~.joint_reset.RANGE_COLUMNS`): offsets, zero where no entry names one."""
        rows = torch.zeros((self._robot.num_joints, RANGE_COLUMNS), dtype=torch.float32)
        for row, joint_ids, (lower, upper) in ranges:
            joints = torch.as_tensor(joint_ids, dtype=torch.long)
            rows[joints, 2 * row] = lower
            rows[joints, 2 * row + 1] = upper - lower
        return rows
