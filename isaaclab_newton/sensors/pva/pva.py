"""Pose-velocity-acceleration (PVA) sensor reading the body state and Newton's BODY_QDD solver observable."""

from __future__ import annotations

import warp as wp
from isaaclab.sensors.pva.base_pva import BasePva

from ...physics.newton_manager import NewtonManager
from ..body_lookup import require_body_qdd
from ..frame_sensor import BodyFrameSensor
from .pva_data import PvaData


class Pva(BodyFrameSensor, BasePva):
    """World pose, velocities and coordinate accelerations of a frame at an offset on a rigid body.

    Pose and velocities come from the state after each physics step; accelerations from the solver's ``body_qdd``
    observable of the final substep (MuJoCo Warp, Kamino), transported from the center of mass to the sensor
    point: ``a = a_com + alpha x r + omega x (omega x r)``. Unlike the IMU, gravity is not removed, so a body in
    free fall reads ``g``.
    """

    __backend_name__: str = "newton"
    data_class = PvaData

    def _update_buffers_impl(self, env_mask: wp.array):
        body_qdd = require_body_qdd("Pva sensor", " (MuJoCo Warp or Kamino)")
        model = NewtonManager.get_model()
        state = NewtonManager.get_state_0()
        data = self._data
        wp.launch(
            _pva_kernel,
            dim=self._num_envs,
            inputs=[
                env_mask,
                self._bodies,
                self._offset,
                wp.vec3(*NewtonManager.get_gravity()),
                state.body_q,
                state.body_qd,
                body_qdd,
                model.body_com,
            ],
            outputs=[
                data._pose_w,
                data._pos_w,
                data._quat_w,
                data._projected_gravity_b,
                data._lin_vel_b,
                data._ang_vel_b,
                data._lin_acc_b,
                data._ang_acc_b,
            ],
            device=self._device,
        )


@wp.kernel
def _pva_kernel(
    env_mask: wp.array(dtype=wp.bool),
    bodies: wp.array(dtype=wp.int32),
    offset: wp.transform,
    gravity: wp.vec3,
    body_q: wp.array(dtype=wp.transform),
    body_qd: wp.array(dtype=wp.spatial_vector),
    body_qdd: wp.array(dtype=wp.spatial_vector),
    body_com: wp.array(dtype=wp.vec3),
    pose_w: wp.array(dtype=wp.transform),
    pos_w: wp.array(dtype=wp.vec3),
    quat_w: wp.array(dtype=wp.quat),
    projected_gravity_b: wp.array(dtype=wp.vec3),
    lin_vel_b: wp.array(dtype=wp.vec3),
    ang_vel_b: wp.array(dtype=wp.vec3),
    lin_acc_b: wp.array(dtype=wp.vec3),
    ang_acc_b: wp.array(dtype=wp.vec3),
):
    env = wp.tid()
    if not env_mask[env]:
        return
    b = bodies[env]
    body_pose = body_q[b]
    sensor = body_pose * offset
    rot = wp.transform_get_rotation(sensor)
    # lever arm from the center of mass to the sensor point, in the world frame
    r = wp.transform_get_translation(sensor) - wp.transform_point(body_pose, body_com[b])
    qd = body_qd[b]
    qdd = body_qdd[b]
    omega = wp.spatial_bottom(qd)
    alpha = wp.spatial_bottom(qdd)
    vel = wp.spatial_top(qd) + wp.cross(omega, r)
    acc = wp.spatial_top(qdd) + wp.cross(alpha, r) + wp.cross(omega, wp.cross(omega, r))
    pose_w[env] = sensor
    pos_w[env] = wp.transform_get_translation(sensor)
    quat_w[env] = rot
    g_len = wp.length(gravity)
    g_dir = wp.vec3(0.0, 0.0, -1.0)
    if g_len > 0.0:
        g_dir = gravity / g_len
    projected_gravity_b[env] = wp.quat_rotate_inv(rot, g_dir)
    lin_vel_b[env] = wp.quat_rotate_inv(rot, vel)
    ang_vel_b[env] = wp.quat_rotate_inv(rot, omega)
    lin_acc_b[env] = wp.quat_rotate_inv(rot, acc)
    ang_acc_b[env] = wp.quat_rotate_inv(rot, alpha)
