"""Every root-body quantity of an asset's data in one Warp kernel: poses, twists, body-frame twists, gravity, heading.

Reading any of them after the state changed runs :func:`compute_root_frame` once for all envs; the others are then
current too (a locomotion observation reads five of them). The formulas are those of
:mod:`isaaclab_newton.assets.body_data` (Newton's ``State.body_qd`` is the center-of-mass twist in the world frame,
linear first; ``c`` the CoM in the body frame; ``q`` the body orientation):

- ``com_pos_w = p + q c``, ``link_lin_vel_w = v_com - w x (q c)``;
- body-frame twists ``q^-1 v``, ``projected_gravity_b = q^-1 g_dir``, ``heading_w = atan2(f_y, f_x)`` with
  ``f = q forward_b``.
"""

from __future__ import annotations

from collections.abc import Mapping

import warp as wp

ROOT_FRAME_FIELDS = (
    "root_link_pose_w",
    "root_com_vel_w",
    "root_link_pos_w",
    "root_link_quat_w",
    "root_com_lin_vel_w",
    "root_com_ang_vel_w",
    "root_link_ang_vel_w",
    "root_com_quat_w",
    "root_com_pos_w",
    "root_com_pose_w",
    "root_link_lin_vel_w",
    "root_link_vel_w",
    "root_link_state_w",
    "root_com_state_w",
    "root_state_w",
    "root_link_lin_vel_b",
    "root_link_ang_vel_b",
    "root_com_lin_vel_b",
    "root_com_ang_vel_b",
    "projected_gravity_b",
    "heading_w",
)
"""The data buffers :func:`compute_root_frame` writes, in its output order."""


@wp.func
def _write_state(out: wp.array2d(dtype=wp.float32), i: int, pose: wp.transformf, lin: wp.vec3f, ang: wp.vec3f):
    p = wp.transform_get_translation(pose)
    q = wp.transform_get_rotation(pose)
    for k in range(3):
        out[i, k] = p[k]
        out[i, 7 + k] = lin[k]
        out[i, 10 + k] = ang[k]
    for k in range(4):
        out[i, 3 + k] = q[k]


@wp.kernel
def _root_frame(
    body_q: wp.array(dtype=wp.transformf),
    body_qd: wp.array(dtype=wp.spatial_vectorf),
    root_body: wp.array(dtype=wp.int32),
    com_b: wp.array(dtype=wp.vec3f),
    gravity_dir: wp.array(dtype=wp.vec3f),
    forward_b: wp.array(dtype=wp.vec3f),
    link_pose_w: wp.array(dtype=wp.transformf),
    com_vel_w: wp.array(dtype=wp.spatial_vectorf),
    link_pos_w: wp.array(dtype=wp.vec3f),
    link_quat_w: wp.array(dtype=wp.quatf),
    com_lin_vel_w: wp.array(dtype=wp.vec3f),
    com_ang_vel_w: wp.array(dtype=wp.vec3f),
    link_ang_vel_w: wp.array(dtype=wp.vec3f),
    com_quat_w: wp.array(dtype=wp.quatf),
    com_pos_w: wp.array(dtype=wp.vec3f),
    com_pose_w: wp.array(dtype=wp.transformf),
    link_lin_vel_w: wp.array(dtype=wp.vec3f),
    link_vel_w: wp.array(dtype=wp.spatial_vectorf),
    link_state_w: wp.array2d(dtype=wp.float32),
    com_state_w: wp.array2d(dtype=wp.float32),
    state_w: wp.array2d(dtype=wp.float32),
    link_lin_vel_b: wp.array(dtype=wp.vec3f),
    link_ang_vel_b: wp.array(dtype=wp.vec3f),
    com_lin_vel_b: wp.array(dtype=wp.vec3f),
    com_ang_vel_b: wp.array(dtype=wp.vec3f),
    projected_gravity_b: wp.array(dtype=wp.vec3f),
    heading_w: wp.array(dtype=wp.float32),
):
    i = wp.tid()
    b = root_body[i]
    pose = body_q[b]
    twist = body_qd[b]
    p = wp.transform_get_translation(pose)
    q = wp.transform_get_rotation(pose)
    v = wp.vec3f(twist[0], twist[1], twist[2])
    w = wp.vec3f(twist[3], twist[4], twist[5])
    arm = wp.quat_rotate(q, com_b[i])
    com_p = p + arm
    v_link = v - wp.cross(w, arm)
    com_pose = wp.transformf(com_p, q)

    link_pose_w[i] = pose
    com_vel_w[i] = twist
    link_pos_w[i] = p
    link_quat_w[i] = q
    com_lin_vel_w[i] = v
    com_ang_vel_w[i] = w
    link_ang_vel_w[i] = w
    com_quat_w[i] = q
    com_pos_w[i] = com_p
    com_pose_w[i] = com_pose
    link_lin_vel_w[i] = v_link
    link_vel_w[i] = wp.spatial_vectorf(v_link[0], v_link[1], v_link[2], w[0], w[1], w[2])
    _write_state(link_state_w, i, pose, v_link, w)
    _write_state(com_state_w, i, com_pose, v, w)
    _write_state(state_w, i, pose, v, w)
    link_lin_vel_b[i] = wp.quat_rotate_inv(q, v_link)
    link_ang_vel_b[i] = wp.quat_rotate_inv(q, w)
    com_lin_vel_b[i] = wp.quat_rotate_inv(q, v)
    com_ang_vel_b[i] = wp.quat_rotate_inv(q, w)
    projected_gravity_b[i] = wp.quat_rotate_inv(q, gravity_dir[i])
    forward = wp.quat_rotate(q, forward_b[i])
    heading_w[i] = wp.atan2(forward[1], forward[0])


def compute_root_frame(
    state_body_q: wp.array,
    state_body_qd: wp.array,
    root_body: wp.array,
    *,
    com_b: wp.array,
    gravity_dir: wp.array,
    forward_b: wp.array,
    out: Mapping[str, wp.array],
) -> None:
    """Write every buffer of :data:`ROOT_FRAME_FIELDS` for all envs.

    Args:
        state_body_q: ``State.body_q`` (world-frame body poses).
        state_body_qd: ``State.body_qd`` (world-frame CoM twists, linear [m/s] then angular [rad/s]).
        root_body: Model body index of each env's root body, int32 (N,).
        com_b: Root CoM in the root body frame [m], (N,) vec3.
        gravity_dir: Unit gravity direction in the world frame, (N,) vec3.
        forward_b: Forward axis in the root body frame, (N,) vec3.
        out: The data buffers by name, each (N,) of its dtype (states: (N, 13) float32).
    """
    wp.launch(
        _root_frame,
        dim=root_body.shape[0],
        inputs=[state_body_q, state_body_qd, root_body, com_b, gravity_dir, forward_b],
        outputs=[out[name] for name in ROOT_FRAME_FIELDS],
        device=root_body.device,
    )
