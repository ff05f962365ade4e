"""The reset state of a direct task's articulation (default root, sampled joint offsets), written by mask.

Isaac Lab's direct tasks (cartpole, ant, humanoid) reset a robot to its default root pose in the env's origin, its
default root velocity, and its default joint state plus offsets sampled uniformly in configured ranges, clamped to
the soft joint limits. :class:`ResetStateSampler` draws the uniform samples with torch's generator (one draw for all
envs, so ``env.seed`` governs them) and computes the rest with one Warp kernel into persistent buffers, which the
``*_mask`` writers then write for the masked envs.
"""

from __future__ import annotations

import torch
import warp as wp

from isaaclab_newton.physics.recorded_launch import RecordedLaunches

from .mask_reset_kernels import reset_state_kernel

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
            wp.from_torch(self._uniform, dtype=wp.float32),
            wp.from_torch(self.root_pose, dtype=wp.transformf),
            wp.from_torch(self.joint_pos, dtype=wp.float32),
            wp.from_torch(self.joint_vel, dtype=wp.float32),
        )
        self._ranges: tuple[ResetRanges, tuple[wp.array, wp.array]] | None = None

    def write(self, mask: torch.Tensor, env_origins: torch.Tensor, ranges: ResetRanges) -> None:
        """Sample the reset state of every env and write it where ``mask`` is set.

        Args:
            mask: Bool tensor (num_envs,) of the envs to reset.
            env_origins: The scene's env origins [m], shape (num_envs, 3) (read again when rebound).
            ranges: The offsets' sampling ranges (see :data:`ResetRanges`); joints without an entry get none.
        """
        robot = self._robot
        data = robot.data
        low, span = self._range_arrays(ranges)
        if self._origins is None or env_origins is not self._origins[0]:
            self._origins = (env_origins, wp.from_torch(env_origins, dtype=wp.vec3f))  # a view: edits show
        self._uniform.uniform_()  # torch's generator: the values torch.rand would draw
        uniform, root_pose, joint_pos, joint_vel = self._out
        args = (
            uniform,
            low,
            span,
            data.default_joint_pos.warp,
            data.default_joint_vel.warp,
            data.soft_joint_pos_limits.warp,
            data.soft_joint_vel_limits.warp,
            data.default_root_pose.warp,
            self._origins[1],
            root_pose,
            joint_pos,
            joint_vel,
        )
        self._launches.launch(reset_state_kernel, (self.root_pose.shape[0],), args)
        robot.write_root_pose_to_sim_mask(root_pose=self.root_pose, env_mask=mask)
        robot.write_root_velocity_to_sim_mask(root_velocity=data.default_root_vel.torch, env_mask=mask)
        robot.write_joint_position_to_sim_mask(position=self.joint_pos, env_mask=mask)
        robot.write_joint_velocity_to_sim_mask(velocity=self.joint_vel, env_mask=mask)

    def _range_arrays(self, ranges: ResetRanges) -> tuple[wp.array, wp.array]:
        """Lower bounds and widths (2, num_joints) of the offsets, rebuilt when ``ranges`` change.

        A step replayed from a CUDA graph keeps the values it was recorded with.
        """
        if self._ranges is None or self._ranges[0] != ranges:
            if wp.get_device(str(self._uniform.device)).is_capturing:
                raise RuntimeError(
                    "The reset ranges of the task changed between the eager step and the recording of the step's CUDA"
                    " graph; change them before env.step() and call env.discard_step_graph() after."
                )
            low = torch.zeros((2, self._robot.num_joints), dtype=torch.float32)
            span = torch.zeros_like(low)
            for row, joint_ids, (lower, upper) in ranges:
                low[row, list(joint_ids)] = lower
                span[row, list(joint_ids)] = upper - lower
            device = self._uniform.device
            arrays = tuple(wp.from_torch(values.to(device), dtype=wp.float32) for values in (low, span))
            self._ranges = (ranges, arrays)
        return self._ranges[1]
