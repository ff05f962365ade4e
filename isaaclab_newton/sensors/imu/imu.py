"""IMU sensor reading Newton's BODY_QDD solver observable."""

from __future__ import annotations

import warp as wp
from isaaclab.sensors.imu.base_imu import BaseImu

from ...physics.newton_manager import NewtonManager
from ..body_lookup import require_body_qdd
from ..frame_sensor import BodyFrameSensor
from ..reset_kernels import clear_envs
from .imu_data import ImuData


class Imu(BodyFrameSensor, BaseImu):
    """Gyroscope and accelerometer at an offset on a rigid body, computed from the solver's body accelerations.

    The sensor requests the ``body_qdd`` observable when it is constructed, so the active solver must support it
    (MuJoCo Warp, Kamino). The accelerometer reads the proper acceleration at the sensor point,
    ``R_s^T (a_com + alpha x r + omega x (omega x r) - g)``, from the final substep of each physics step.
    """

    __backend_name__: str = "newton"
    data_class = ImuData

    def reset(self, env_ids=None, env_mask: wp.array | None = None) -> None:
        """Clear the readings of the given environments; they read zero until the next physics step.

        Args:
            env_ids: Environments to reset (default: all).
            env_mask: Boolean mask over environments (alternative to ``env_ids``).
        """
        super().reset(env_ids, env_mask)
        if self._data is None:
            return
        mask = self._resolve_indices_and_mask(env_ids, env_mask)
        clear_envs(mask, self._is_outdated, (self._data._ang_vel_b, self._data._lin_acc_b))

    def _update_buffers_impl(self, env_mask: wp.array):
        body_qdd = require_body_qdd("Imu")
        model = NewtonManager.get_model()
        state = NewtonManager.get_state_0()
        gravity = wp.vec3(*NewtonManager.get_gravity())
        wp.launch(
            _imu_kernel,
            dim=self._num_envs,
            inputs=[
                env_mask,
                self._bodies,
                self._offset,
                gravity,
                state.body_q,
                state.body_qd,
                body_qdd,
                model.body_com,
            ],
            outputs=[self._data._ang_vel_b, self._data._lin_acc_b],
            device=self._device,
        )


@wp.kernel
def _imu_kernel(
    env_mask: wp.array(dtype=wp.bool),
    bodies: wp.array(dtype=wp.int32),
    offset: wp.transform,
    gravity: wp.vec3,
    body_q: wp.array(dtype=wp.transform),
    body_qd: wp.array(dtype=wp.spatial_vector),
    body_qdd: wp.array(dtype=wp.spatial_vector),
    body_com: wp.array(dtype=wp.vec3),
    ang_vel_b: wp.array(dtype=wp.vec3),
    lin_acc_b: wp.array(dtype=wp.vec3),
):
    env = wp.tid()
    if not env_mask[env]:
        return
    b = bodies[env]
    pose = body_q[b]
    rot = wp.transform_get_rotation(pose)
    sensor_rot = rot * wp.transform_get_rotation(offset)
    r = wp.quat_rotate(rot, wp.transform_get_translation(offset) - body_com[b])
    qd = body_qd[b]
    qdd = body_qdd[b]
    omega = wp.spatial_bottom(qd)
    alpha = wp.spatial_bottom(qdd)
    acc = wp.spatial_top(qdd) + wp.cross(alpha, r) + wp.cross(omega, wp.cross(omega, r))
    ang_vel_b[env] = wp.quat_rotate_inv(sensor_rot, omega)
    lin_acc_b[env] = wp.quat_rotate_inv(sensor_rot, acc - gravity)
