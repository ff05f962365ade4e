"""Warp kernels moving nodal data between per-env (N, P) buffers and Newton's flat particle arrays."""

from __future__ import annotations

import warp as wp

vec6f = wp.types.vector(length=6, dtype=wp.float32)
"""Nodal state (x, y, z [m], vx, vy, vz [m/s])."""


@wp.kernel
def gather_nodal_kernel(
    particle_q: wp.array(dtype=wp.vec3),
    particle_qd: wp.array(dtype=wp.vec3),
    indices: wp.array2d(dtype=wp.int32),
    pos: wp.array2d(dtype=wp.vec3),
    vel: wp.array2d(dtype=wp.vec3),
    state: wp.array2d(dtype=vec6f),
):
    env, node = wp.tid()
    p = particle_q[indices[env, node]]
    v = particle_qd[indices[env, node]]
    pos[env, node] = p
    vel[env, node] = v
    state[env, node] = vec6f(p[0], p[1], p[2], v[0], v[1], v[2])


@wp.kernel
def nodal_mean_kernel(
    pos: wp.array2d(dtype=wp.vec3),
    vel: wp.array2d(dtype=wp.vec3),
    root_pos: wp.array(dtype=wp.vec3),
    root_vel: wp.array(dtype=wp.vec3),
):
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
def scatter_vec3_kernel(
    values: wp.array2d(dtype=wp.vec3),
    env_ids: wp.array(dtype=wp.int32),
    full_data: bool,
    indices: wp.array2d(dtype=wp.int32),
    out_a: wp.array(dtype=wp.vec3),
    out_b: wp.array(dtype=wp.vec3),
):
    k, node = wp.tid()
    env = env_ids[k]
    row = k
    if full_data:
        row = env
    out_a[indices[env, node]] = values[row, node]
    out_b[indices[env, node]] = values[row, node]


@wp.kernel
def scatter_state_kernel(
    states: wp.array2d(dtype=vec6f),
    env_ids: wp.array(dtype=wp.int32),
    select: wp.array(dtype=wp.bool),
    full_data: bool,
    indices: wp.array2d(dtype=wp.int32),
    q_a: wp.array(dtype=wp.vec3),
    q_b: wp.array(dtype=wp.vec3),
    qd_a: wp.array(dtype=wp.vec3),
    qd_b: wp.array(dtype=wp.vec3),
):
    """Write nodal states of ``env_ids`` into both states; a non-empty ``select`` (over ``env_ids``) skips rows."""
    k, node = wp.tid()
    if select.shape[0] > 0:  # noqa: SIM102  (nested so that an empty select is never indexed)
        if not select[k]:
            return
    env = env_ids[k]
    row = k
    if full_data:
        row = env
    s = states[row, node]
    p = indices[env, node]
    q_a[p] = wp.vec3(s[0], s[1], s[2])
    q_b[p] = wp.vec3(s[0], s[1], s[2])
    qd_a[p] = wp.vec3(s[3], s[4], s[5])
    qd_b[p] = wp.vec3(s[3], s[4], s[5])


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
    row = k
    if full_data:
        row = env
    target = targets[row, node]
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
