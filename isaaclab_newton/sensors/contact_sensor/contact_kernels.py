"""Warp kernels of the Newton contact sensor."""

from __future__ import annotations

import warp as wp


@wp.kernel
def zero_current(
    env_mask: wp.array(dtype=wp.bool),
    net: wp.array2d(dtype=wp.vec3),
    net_n: wp.array2d(dtype=wp.vec3),
    net_t: wp.array2d(dtype=wp.vec3),
):
    env, k = wp.tid()
    if env_mask[env]:
        net[env, k] = wp.vec3(0.0)
        net_n[env, k] = wp.vec3(0.0)
        net_t[env, k] = wp.vec3(0.0)


@wp.kernel
def zero_matrix(
    env_mask: wp.array(dtype=wp.bool),
    mat: wp.array3d(dtype=wp.vec3),
    mat_n: wp.array3d(dtype=wp.vec3),
    mat_t: wp.array3d(dtype=wp.vec3),
):
    env, k, j = wp.tid()
    if env_mask[env]:
        mat[env, k, j] = wp.vec3(0.0)
        mat_n[env, k, j] = wp.vec3(0.0)
        mat_t[env, k, j] = wp.vec3(0.0)


@wp.func
def _add_side(
    env_mask: wp.array(dtype=wp.bool),
    body_self: int,
    body_other: int,
    force: wp.vec3,
    normal: wp.vec3,
    sensor_env: wp.array(dtype=wp.int32),
    sensor_slot: wp.array(dtype=wp.int32),
    filter_slot: wp.array(dtype=wp.int32),
    net: wp.array2d(dtype=wp.vec3),
    net_n: wp.array2d(dtype=wp.vec3),
    net_t: wp.array2d(dtype=wp.vec3),
    mat: wp.array3d(dtype=wp.vec3),
    mat_n: wp.array3d(dtype=wp.vec3),
    mat_t: wp.array3d(dtype=wp.vec3),
    has_filters: int,
):
    if body_self < 0:
        return
    k = sensor_slot[body_self]
    if k < 0:
        return
    env = sensor_env[body_self]
    if not env_mask[env]:
        return
    f_n = wp.dot(force, normal) * normal
    f_t = force - f_n
    wp.atomic_add(net, env, k, force)
    wp.atomic_add(net_n, env, k, f_n)
    wp.atomic_add(net_t, env, k, f_t)
    if has_filters != 0 and body_other >= 0:
        j = filter_slot[body_other]
        if j >= 0 and sensor_env[body_other] == env:
            wp.atomic_add(mat, env, k, j, force)
            wp.atomic_add(mat_n, env, k, j, f_n)
            wp.atomic_add(mat_t, env, k, j, f_t)


@wp.kernel
def accumulate_contacts(
    env_mask: wp.array(dtype=wp.bool),
    contact_count: wp.array(dtype=wp.int32),
    shape0: wp.array(dtype=wp.int32),
    shape1: wp.array(dtype=wp.int32),
    contact_normal: wp.array(dtype=wp.vec3),
    contact_f: wp.array(dtype=wp.spatial_vector),
    shape_body: wp.array(dtype=wp.int32),
    sensor_env: wp.array(dtype=wp.int32),
    sensor_slot: wp.array(dtype=wp.int32),
    filter_slot: wp.array(dtype=wp.int32),
    has_filters: int,
    net: wp.array2d(dtype=wp.vec3),
    net_n: wp.array2d(dtype=wp.vec3),
    net_t: wp.array2d(dtype=wp.vec3),
    mat: wp.array3d(dtype=wp.vec3),
    mat_n: wp.array3d(dtype=wp.vec3),
    mat_t: wp.array3d(dtype=wp.vec3),
):
    i = wp.tid()
    if i >= contact_count[0]:
        return
    s0 = shape0[i]
    s1 = shape1[i]
    if s0 < 0 or s1 < 0:
        return
    b0 = shape_body[s0]
    b1 = shape_body[s1]
    n = wp.normalize(contact_normal[i])
    f = wp.spatial_top(contact_f[i])  # force on shape0's body by shape1's body [N], world frame
    _add_side(
        env_mask, b0, b1, f, n, sensor_env, sensor_slot, filter_slot, net, net_n, net_t, mat, mat_n, mat_t, has_filters
    )
    _add_side(
        env_mask, b1, b0, -f, n, sensor_env, sensor_slot, filter_slot, net, net_n, net_t, mat, mat_n, mat_t, has_filters
    )


@wp.kernel
def push_history(
    env_mask: wp.array(dtype=wp.bool),
    current: wp.array2d(dtype=wp.vec3),
    history: wp.array3d(dtype=wp.vec3),
):
    env, k = wp.tid()
    if not env_mask[env]:
        return
    for h in range(history.shape[1] - 1, 0, -1):
        history[env, h, k] = history[env, h - 1, k]
    history[env, 0, k] = current[env, k]


@wp.kernel
def push_matrix_history(
    env_mask: wp.array(dtype=wp.bool),
    current: wp.array3d(dtype=wp.vec3),
    history: wp.array4d(dtype=wp.vec3),
):
    env, k, j = wp.tid()
    if not env_mask[env]:
        return
    for h in range(history.shape[1] - 1, 0, -1):
        history[env, h, k, j] = history[env, h - 1, k, j]
    history[env, 0, k, j] = current[env, k, j]


@wp.kernel
def update_air_time(
    env_mask: wp.array(dtype=wp.bool),
    timestamp: wp.array(dtype=wp.float32),
    timestamp_last: wp.array(dtype=wp.float32),
    net: wp.array2d(dtype=wp.vec3),
    threshold: float,
    air: wp.array2d(dtype=wp.float32),
    last_air: wp.array2d(dtype=wp.float32),
    contact: wp.array2d(dtype=wp.float32),
    last_contact: wp.array2d(dtype=wp.float32),
):
    env, k = wp.tid()
    if not env_mask[env]:
        return
    elapsed = timestamp[env] - timestamp_last[env]
    touching = wp.length(net[env, k]) > threshold
    if touching:
        if contact[env, k] == 0.0 and air[env, k] > 0.0:
            last_air[env, k] = air[env, k] + elapsed
        contact[env, k] = contact[env, k] + elapsed
        air[env, k] = 0.0
    else:
        if air[env, k] == 0.0 and contact[env, k] > 0.0:
            last_contact[env, k] = contact[env, k] + elapsed
        air[env, k] = air[env, k] + elapsed
        contact[env, k] = 0.0


@wp.kernel
def sensor_poses(
    env_mask: wp.array(dtype=wp.bool),
    bodies: wp.array2d(dtype=wp.int32),
    body_q: wp.array(dtype=wp.transform),
    pos: wp.array2d(dtype=wp.vec3),
    quat: wp.array2d(dtype=wp.quat),
):
    env, k = wp.tid()
    if env_mask[env]:
        pose = body_q[bodies[env, k]]
        pos[env, k] = wp.transform_get_translation(pose)
        quat[env, k] = wp.transform_get_rotation(pose)


@wp.kernel
def reset_envs(
    env_mask: wp.array(dtype=wp.bool),
    net: wp.array2d(dtype=wp.vec3),
    history: wp.array3d(dtype=wp.vec3),
):
    env, k = wp.tid()
    if not env_mask[env]:
        return
    net[env, k] = wp.vec3(0.0)
    for h in range(history.shape[1]):
        history[env, h, k] = wp.vec3(0.0)


@wp.kernel
def reset_times(env_mask: wp.array(dtype=wp.bool), times: wp.array2d(dtype=wp.float32)):
    env, k = wp.tid()
    if env_mask[env]:
        times[env, k] = 0.0


@wp.kernel
def first_transition(
    times: wp.array2d(dtype=wp.float32),
    window: float,
    out: wp.array2d(dtype=wp.bool),
):
    env, k = wp.tid()
    t = times[env, k]
    out[env, k] = t > 0.0 and t < window
