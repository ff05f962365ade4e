"""Warp kernels of the deformable body alone: nodal means and kinematic targets (pinning)."""

from __future__ import annotations

import warp as wp

from ..particle_kernels import source_row


@wp.kernel
def nodal_mean_kernel(
    pos: wp.array2d(dtype=wp.vec3),
    vel: wp.array2d(dtype=wp.vec3),
    root_pos: wp.array(dtype=wp.vec3),
    root_vel: wp.array(dtype=wp.vec3),
):
    """Mean nodal position and velocity of every env (the root of a deformable body)."""
    env = wp.tid()
    n = pos.shape[1]
    sp = wp.vec3(0.0)
    sv = wp.vec3(0.0)
    for node in range(n):
        sp += pos[env, node]
        sv += vel[env, node]
    root_pos[env] = sp / float(n)
    root_vel[env] = sv / float(n)


@wp.kernel
def scatter_kinematic_target_kernel(
    targets: wp.array2d(dtype=wp.vec4),
    env_ids: wp.array(dtype=wp.int32),
    full_data: bool,
    indices: wp.array2d(dtype=wp.int32),
    default_mass: wp.array2d(dtype=wp.float32),
    stored: wp.array2d(dtype=wp.vec4),
    particle_mass: wp.array(dtype=wp.float32),
    particle_inv_mass: wp.array(dtype=wp.float32),
    q_a: wp.array(dtype=wp.vec3),
    q_b: wp.array(dtype=wp.vec3),
    qd_a: wp.array(dtype=wp.vec3),
    qd_b: wp.array(dtype=wp.vec3),
):
    """Pin nodes whose flag is 0 (zero mass, both states at the target, at rest); free nodes get their mass back."""
    k, node = wp.tid()
    env = env_ids[k]
    target = targets[source_row(k, env, full_data), node]
    stored[env, node] = target
    p = indices[env, node]
    if target[3] < 0.5:
        particle_mass[p] = 0.0
        particle_inv_mass[p] = 0.0
        x = wp.vec3(target[0], target[1], target[2])
        q_a[p] = x
        q_b[p] = x
        qd_a[p] = wp.vec3(0.0)
        qd_b[p] = wp.vec3(0.0)
    else:
        m = default_mass[env, node]
        particle_mass[p] = m
        particle_inv_mass[p] = wp.where(m > 0.0, 1.0 / wp.max(m, 1.0e-30), 0.0)
