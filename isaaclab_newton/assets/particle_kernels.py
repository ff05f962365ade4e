"""Warp kernels moving per-env (N, P) particle data of particle assets to and from Newton's flat particle arrays."""

from __future__ import annotations

import warp as wp

vec6f = wp.types.vector(length=6, dtype=wp.float32)
"""Particle state (x, y, z [m], vx, vy, vz [m/s])."""


@wp.func
def source_row(k: int, env: int, full_data: bool) -> int:
    """Row of a written value: the env's own row for ``full_data`` values, else the selection's ``k``-th row."""
    if full_data:
        return env
    return k


@wp.kernel
def gather_particles_kernel(
    particle_q: wp.array(dtype=wp.vec3),
    particle_qd: wp.array(dtype=wp.vec3),
    indices: wp.array2d(dtype=wp.int32),
    pos: wp.array2d(dtype=wp.vec3),
    vel: wp.array2d(dtype=wp.vec3),
    state: wp.array2d(dtype=vec6f),
):
    """Copy the particles of every env row into (N, P) positions, velocities and states."""
    env, node = wp.tid()
    p = particle_q[indices[env, node]]
    v = particle_qd[indices[env, node]]
    pos[env, node] = p
    vel[env, node] = v
    state[env, node] = vec6f(p[0], p[1], p[2], v[0], v[1], v[2])


@wp.kernel
def scatter_vec3_kernel(
    values: wp.array2d(dtype=wp.vec3),
    env_ids: wp.array(dtype=wp.int32),
    full_data: bool,
    indices: wp.array2d(dtype=wp.int32),
    out_a: wp.array(dtype=wp.vec3),
    out_b: wp.array(dtype=wp.vec3),
):
    """Write per-particle vectors of ``env_ids`` into two flat arrays (the same field of both states)."""
    k, node = wp.tid()
    env = env_ids[k]
    value = values[source_row(k, env, full_data), node]
    out_a[indices[env, node]] = value
    out_b[indices[env, node]] = value


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
    """Write particle states of ``env_ids`` into both states; a non-empty ``select`` (over ``env_ids``) skips rows."""
    k, node = wp.tid()
    if select.shape[0] > 0:  # noqa: SIM102  (nested so that an empty select is never indexed)
        if not select[k]:
            return
    env = env_ids[k]
    s = states[source_row(k, env, full_data), node]
    p = indices[env, node]
    q_a[p] = wp.vec3(s[0], s[1], s[2])
    q_b[p] = wp.vec3(s[0], s[1], s[2])
    qd_a[p] = wp.vec3(s[3], s[4], s[5])
    qd_b[p] = wp.vec3(s[3], s[4], s[5])
