"""Warp kernels of the mask reset: the sampled reset state of an articulation and the logged success rate.

:func:`reset_state_kernel` turns uniform samples in [0, 1) into the reset root pose and joint state of every env
(what Isaac Lab's direct tasks compute with a chain of torch operations in ``_reset_idx``).
:func:`success_count_kernel` and :func:`success_rate_kernel` compute the share of the reset envs that timed out
in two launches, without reading anything on the host.
"""

from __future__ import annotations

import warp as wp


@wp.kernel(enable_backward=False)
def reset_state_kernel(
    uniform: wp.array3d(dtype=wp.float32),
    low: wp.array2d(dtype=wp.float32),
    span: wp.array2d(dtype=wp.float32),
    default_joint_pos: wp.array2d(dtype=wp.float32),
    default_joint_vel: wp.array2d(dtype=wp.float32),
    soft_joint_pos_limits: wp.array2d(dtype=wp.vec2f),
    soft_joint_vel_limits: wp.array2d(dtype=wp.float32),
    default_root_pose: wp.array(dtype=wp.transformf),
    env_origins: wp.array(dtype=wp.vec3f),
    root_pose: wp.array(dtype=wp.transformf),
    joint_pos: wp.array2d(dtype=wp.float32),
    joint_vel: wp.array2d(dtype=wp.float32),
):
    """Per env: default root pose moved to the env origin [m]; joint defaults plus sampled offsets, clamped.

    Row 0 of ``uniform`` (2, num_envs, num_joints), ``low`` and ``span`` (2, num_joints) is for positions
    [m or rad], row 1 for velocities [m/s or rad/s]: offset = ``uniform * span + low``. Positions are clamped to
    the soft position limits, velocities to +-the soft velocity limits (lower bound first, as torch's ``clamp``).
    """
    env = wp.tid()
    pose = default_root_pose[env]
    root_pose[env] = wp.transformf(
        wp.transform_get_translation(pose) + env_origins[env], wp.transform_get_rotation(pose)
    )
    for j in range(joint_pos.shape[1]):
        pos = default_joint_pos[env, j] + (uniform[0, env, j] * span[0, j] + low[0, j])
        limits = soft_joint_pos_limits[env, j]
        joint_pos[env, j] = wp.min(wp.max(pos, limits[0]), limits[1])
        vel = default_joint_vel[env, j] + (uniform[1, env, j] * span[1, j] + low[1, j])
        vel_limit = soft_joint_vel_limits[env, j]
        joint_vel[env, j] = wp.min(wp.max(vel, -vel_limit), vel_limit)


@wp.kernel(enable_backward=False)
def success_count_kernel(
    mask: wp.array(dtype=wp.bool),
    time_outs: wp.array(dtype=wp.bool),
    counts: wp.array(dtype=wp.int32),
):
    """Per env set in ``mask``: count it in ``counts[0]``, and in ``counts[1]`` if it timed out."""
    env = wp.tid()
    if mask[env]:
        wp.atomic_add(counts, 0, 1)
        if time_outs[env]:
            wp.atomic_add(counts, 1, 1)


@wp.kernel(enable_backward=False)
def success_rate_kernel(counts: wp.array(dtype=wp.int32), rate: wp.array(dtype=wp.float32)):
    """One thread: ``rate[0] = counts[1] / counts[0]`` where ``counts[0] > 0`` (else kept); ``counts`` zeroed."""
    if counts[0] > 0:
        rate[0] = wp.float32(counts[1]) / wp.float32(counts[0])
    counts[0] = 0
    counts[1] = 0
