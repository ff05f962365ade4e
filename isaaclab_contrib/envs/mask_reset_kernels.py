"""Warp kernels of the mask reset: the reset root pose of an articulation and the logged success rate.

:func:`root_pose_in_origin_kernel` places every env's default root pose in its origin (what Isaac Lab's direct tasks
compute in ``_reset_idx``; the sampled joint state comes from :mod:`.joint_reset`).
:func:`success_count_kernel` and :func:`success_rate_kernel` compute the share of the reset envs that timed out
in two launches, without reading anything on the host.
"""

from __future__ import annotations

import warp as wp


@wp.kernel(enable_backward=False)
def root_pose_in_origin_kernel(
    default_root_pose: wp.array(dtype=wp.transformf),
    env_origins: wp.array(dtype=wp.vec3f),
    root_pose: wp.array(dtype=wp.transformf),
):
    """Per env: the default root pose moved to the env origin [m] (the sampled joint state: :mod:`.joint_reset`)."""
    env = wp.tid()
    pose = default_root_pose[env]
    root_pose[env] = wp.transformf(
        wp.transform_get_translation(pose) + env_origins[env], wp.transform_get_rotation(pose)
    )


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
