"""Warp kernels of site frames: a frame held at a fixed offset from a body (or from its environment's origin)."""

from __future__ import annotations

import warp as wp


@wp.func
def site_parent(
    body_q: wp.array(dtype=wp.transformf),
    bodies: wp.array(dtype=wp.int32),
    origins: wp.array(dtype=wp.transformf),
    i: int,
) -> wp.transformf:
    """World pose of site ``i``'s parent: its body, or its environment's origin when it has none (body -1)."""
    b = bodies[i]
    if b >= 0:
        return body_q[b]
    return origins[i]


@wp.kernel
def site_world_poses(
    body_q: wp.array(dtype=wp.transformf),
    bodies: wp.array(dtype=wp.int32),
    origins: wp.array(dtype=wp.transformf),
    offsets: wp.array(dtype=wp.transformf),
    rows: wp.array(dtype=wp.int32),
    use_rows: bool,
    out_pos: wp.array2d(dtype=wp.float32),
    out_quat: wp.array2d(dtype=wp.float32),
):
    """World positions [m] and (x, y, z, w) orientations of the sites ``rows`` (all sites without rows)."""
    j = wp.tid()
    i = j
    if use_rows:
        i = rows[j]
    x = site_parent(body_q, bodies, origins, i) * offsets[i]
    p = wp.transform_get_translation(x)
    q = wp.transform_get_rotation(x)
    for k in range(3):
        out_pos[j, k] = p[k]
    for k in range(4):
        out_quat[j, k] = q[k]


@wp.kernel
def site_local_poses(
    offsets: wp.array(dtype=wp.transformf),
    rows: wp.array(dtype=wp.int32),
    use_rows: bool,
    out_pos: wp.array2d(dtype=wp.float32),
    out_quat: wp.array2d(dtype=wp.float32),
):
    """Offsets (position [m], (x, y, z, w) orientation) of the sites ``rows`` from their parents."""
    j = wp.tid()
    i = j
    if use_rows:
        i = rows[j]
    p = wp.transform_get_translation(offsets[i])
    q = wp.transform_get_rotation(offsets[i])
    for k in range(3):
        out_pos[j, k] = p[k]
    for k in range(4):
        out_quat[j, k] = q[k]


@wp.kernel
def site_set_poses(
    body_q: wp.array(dtype=wp.transformf),
    bodies: wp.array(dtype=wp.int32),
    origins: wp.array(dtype=wp.transformf),
    pos: wp.array2d(dtype=wp.float32),
    quat: wp.array2d(dtype=wp.float32),
    has_pos: bool,
    has_quat: bool,
    world: bool,
    rows: wp.array(dtype=wp.int32),
    use_rows: bool,
    offsets: wp.array(dtype=wp.transformf),
):
    """Write the sites ``rows``: world poses become offsets from the parents' current poses; local poses are offsets.

    A missing position or orientation keeps that part of the current pose (world or local, as written).
    """
    j = wp.tid()
    i = j
    if use_rows:
        i = rows[j]
    parent = wp.transform_identity(dtype=wp.float32)
    if world:
        parent = site_parent(body_q, bodies, origins, i)
    current = parent * offsets[i]
    p = wp.transform_get_translation(current)
    q = wp.transform_get_rotation(current)
    if has_pos:
        p = wp.vec3f(pos[j, 0], pos[j, 1], pos[j, 2])
    if has_quat:
        q = wp.normalize(wp.quatf(quat[j, 0], quat[j, 1], quat[j, 2], quat[j, 3]))
    offsets[i] = wp.transform_inverse(parent) * wp.transformf(p, q)


@wp.kernel
def site_camera_transforms(
    body_q: wp.array(dtype=wp.transformf),
    bodies: wp.array(dtype=wp.int32),
    origins: wp.array(dtype=wp.transformf),
    offsets: wp.array(dtype=wp.transformf),
    out: wp.array(dtype=wp.transformf),
):
    """World transforms of the sites (one per view) for Newton's camera."""
    i = wp.tid()
    out[i] = site_parent(body_q, bodies, origins, i) * offsets[i]
