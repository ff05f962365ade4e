"""Sampled joint reset states, shared by the direct tasks' reset (:mod:`.reset_state`) and the mask reset events
(:mod:`.mask_events`): one kernel and one per-joint range table on the device.

Every joint ``j`` has one row of ranges: position lower bound and span, velocity lower bound and span, and 1 to
scale the defaults or 0 to offset them. :func:`sample_joint_state_kernel` turns uniform draws in [0, 1) into
``default + (draw * span + low)`` (or ``default * (draw * span + low)``), clamped to the soft limits.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

import torch
import warp as wp

RANGE_COLUMNS = 5
"""Columns of a joint's range row: position low, position span, velocity low, velocity span, scale flag."""


@wp.kernel(enable_backward=False)
def sample_joint_state_kernel(
    pos_draw: wp.array2d(dtype=wp.float32),
    vel_draw: wp.array2d(dtype=wp.float32),
    joint_ranges: wp.array2d(dtype=wp.float32),
    default_joint_pos: wp.array2d(dtype=wp.float32),
    default_joint_vel: wp.array2d(dtype=wp.float32),
    soft_joint_pos_limits: wp.array2d(dtype=wp.vec2f),
    soft_joint_vel_limits: wp.array2d(dtype=wp.float32),
    joint_pos: wp.array2d(dtype=wp.float32),
    joint_vel: wp.array2d(dtype=wp.float32),
):
    """Reset joint state of env ``env``, joint ``j`` from uniform draws (num_envs, num_joints) each.

    Positions [m or rad] are clamped to the soft position limits, velocities [m/s or rad/s] to +-the soft velocity
    limits (lower bound first, as torch's ``clamp``).
    """
    env, j = wp.tid()
    pos_sample = pos_draw[env, j] * joint_ranges[j, 1] + joint_ranges[j, 0]
    vel_sample = vel_draw[env, j] * joint_ranges[j, 3] + joint_ranges[j, 2]
    pos = default_joint_pos[env, j] + pos_sample
    vel = default_joint_vel[env, j] + vel_sample
    if joint_ranges[j, 4] != 0.0:
        pos = default_joint_pos[env, j] * pos_sample
        vel = default_joint_vel[env, j] * vel_sample
    limits = soft_joint_pos_limits[env, j]
    vel_limit = soft_joint_vel_limits[env, j]
    joint_pos[env, j] = wp.min(wp.max(pos, limits[0]), limits[1])
    joint_vel[env, j] = wp.min(wp.max(vel, -vel_limit), vel_limit)


def upload(host: torch.Tensor, out: torch.Tensor, *, changed: str) -> None:
    """Copy ``host`` into the device buffer ``out`` without the host waiting (from pinned memory on CUDA).

    Args:
        host: The values, on the CPU.
        out: The persistent device buffer a recorded step reads.
        changed: What changed, for the error raised while the device records a graph.

    Raises:
        RuntimeError: If the device is recording a graph (the copy would not be part of the replayed step).
    """
    if wp.get_device(str(out.device)).is_capturing:
        raise RuntimeError(
            f"{changed} changed between the eager step and the recording of the step's CUDA graph; change them"
            " before env.step() and call env.discard_step_graph() after."
        )
    if out.is_cuda:
        host = host.pin_memory()  # torch's pinned allocator keeps it until the copy has run
    out.copy_(host, non_blocking=True)


class JointRangeTable:
    """The per-joint range rows on the device, uploaded again when their key changes (outside graph recording).

    Args:
        num_joints: Joints of the articulation.
        device: The articulation's device.
        changed: What the ranges come from, for the error raised when they change during a graph recording.
    """

    def __init__(self, num_joints: int, device: torch.device | str, *, changed: str):
        self.rows = torch.zeros((num_joints, RANGE_COLUMNS), dtype=torch.float32, device=device)
        """The range rows, shape (num_joints, 5) (see :data:`RANGE_COLUMNS`)."""
        self.array = wp.from_torch(self.rows, dtype=wp.float32)
        """:attr:`rows` as a Warp array (the kernel's ``joint_ranges``)."""
        self._changed = changed
        self._key: Hashable | None = None

    @property
    def key(self) -> Hashable | None:
        """The key of the rows last uploaded (``None`` before the first upload)."""
        return self._key

    def update(self, key: Hashable, rows: Callable[[], torch.Tensor]) -> None:
        """Upload ``rows()`` (num_joints, 5) on the CPU where ``key`` differs from that of the last upload."""
        if key != self._key:
            upload(rows(), self.rows, changed=self._changed)
            self._key = key

    def launch_inputs(
        self, data, pos_draw: wp.array, vel_draw: wp.array, joint_pos: wp.array, joint_vel: wp.array
    ) -> tuple:
        """The inputs of :func:`sample_joint_state_kernel` for articulation data ``data`` and these buffers."""
        return (
            pos_draw,
            vel_draw,
            self.array,
            data.default_joint_pos.warp,
            data.default_joint_vel.warp,
            data.soft_joint_pos_limits.warp,
            data.soft_joint_vel_limits.warp,
            joint_pos,
            joint_vel,
        )
