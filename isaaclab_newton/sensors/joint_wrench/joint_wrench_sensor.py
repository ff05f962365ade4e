"""Joint reaction wrench sensor reading Newton's BODY_PARENT_F solver observable."""

from __future__ import annotations

from typing import TYPE_CHECKING

import newton
import numpy as np
import warp as wp
from isaaclab.sensors.joint_wrench.base_joint_wrench_sensor import BaseJointWrenchSensor

from ...physics.newton_manager import NewtonManager
from ...physics.recorded_launch import RecordedLaunches
from ..body_lookup import select_env_bodies
from ..reset_kernels import clear_envs
from .joint_wrench_sensor_data import JointWrenchSensorData

if TYPE_CHECKING:
    from isaaclab.sensors import JointWrenchSensorCfg

_KINDS = frozenset({"body_parent_f"})


class JointWrenchSensor(BaseJointWrenchSensor):
    """Incoming joint wrench of every jointed body at or below the configured prim path (e.g. all links of a robot).

    Bodies without an incoming articulation joint are not reported: a body with no joint, or a fixed root welded
    to the world by its fixed root joint.

    Newton reports ``body_parent_f`` in world frame with the torque about the body's center of mass; the sensor
    converts it to Isaac Lab's ``incoming_joint_frame`` convention (child-side joint frame, torque about the
    child-side joint anchor), as a 6-axis force/torque cell at the joint would read it. Needs a solver that
    supports ``body_parent_f`` (MuJoCo Warp, XPBD, Featherstone for static loads).
    """

    __backend_name__: str = "newton"

    def __init__(self, cfg: JointWrenchSensorCfg):
        """Create the sensor and request ``body_parent_f`` from the manager.

        Args:
            cfg: The sensor configuration.
        """
        if cfg.convention != "incoming_joint_frame":
            raise ValueError(
                f"JointWrenchSensorCfg.convention '{cfg.convention}' is not supported; use 'incoming_joint_frame'."
            )
        super().__init__(cfg)
        NewtonManager.request_observables(_KINDS)
        self._data: JointWrenchSensorData | None = None
        self._body_names: list[str] = []

    @property
    def data(self) -> JointWrenchSensorData:
        """The latest wrenches."""
        self._update_outdated_buffers()
        return self._data

    @property
    def body_names(self) -> list[str]:
        """Names of the reported bodies (the last component of their prim paths)."""
        return list(self._body_names)

    def reset(self, env_ids=None, env_mask: wp.array | None = None) -> None:
        """Clear the wrenches of the given environments; they read zero until the next physics step.

        Args:
            env_ids: Environments to reset (default: all).
            env_mask: Boolean mask over environments (alternative to ``env_ids``).
        """
        super().reset(env_ids, env_mask)
        if self._data is None:
            return
        mask = self._resolve_indices_and_mask(env_ids, env_mask)
        clear_envs(mask, self._is_outdated, (self._data._force, self._data._torque))

    def _initialize_impl(self) -> None:
        super()._initialize_impl()
        model = NewtonManager.get_model()
        if model is None:
            raise RuntimeError("JointWrenchSensor initialization needs a finalized Newton model (PHYSICS_READY).")
        selection = select_env_bodies(
            self.cfg.prim_path, self._num_envs, mode="subtree", what="JointWrenchSensorCfg.prim_path"
        )
        bodies, names = selection.body_indices, selection.names
        joint_of_body = np.full(model.body_count, -1, dtype=np.int32)
        children = model.joint_child.numpy()
        joint_of_body[children[children >= 0]] = np.flatnonzero(children >= 0).astype(np.int32)
        joints = joint_of_body[bodies]
        # Like Isaac Lab's other backends, report bodies with an incoming articulation joint: not a body without
        # any joint, nor a fixed root welded to the world (its fixed root joint is not an articulation joint).
        welded = np.zeros(model.joint_count, dtype=bool)
        welded[(model.joint_type.numpy() == int(newton.JointType.FIXED)) & (model.joint_parent.numpy() < 0)] = True
        jointed = ((joints >= 0) & ~welded[np.maximum(joints, 0)]).all(axis=0)
        if not jointed.any():
            raise ValueError(
                f"No body matched by '{self.cfg.prim_path}' has an incoming joint; the joint wrench sensor has nothing"
                " to report. Point prim_path at an articulation with joints."
            )
        bodies, joints = bodies[:, jointed], joints[:, jointed]
        self._body_names = [name for name, keep in zip(names, jointed, strict=True) if keep]
        self._bodies = wp.array(bodies, dtype=wp.int32, device=self._device)
        self._joints = wp.array(joints, dtype=wp.int32, device=self._device)
        self._data = JointWrenchSensorData(self._num_envs, bodies.shape[1], self._device)
        self._launches = RecordedLaunches(self._device, capacity=4)

    def _update_buffers_impl(self, env_mask: wp.array) -> None:
        observables = NewtonManager.get_observables()
        if observables is None or observables.body_parent_f is None:
            raise RuntimeError(
                "The JointWrenchSensor needs the 'body_parent_f' observable but the manager allocated none; create"
                " the sensor before sim.reset() so its request reaches the solver."
            )
        model = NewtonManager.get_model()
        state = NewtonManager.get_state_0()
        self._launches.launch(
            _joint_wrench_kernel,
            self._bodies.shape,
            (
                env_mask,
                self._bodies,
                self._joints,
                state.body_q,
                model.body_com,
                model.joint_X_c,
                observables.body_parent_f,
                self._data._force,
                self._data._torque,
            ),
        )


@wp.kernel
def _joint_wrench_kernel(
    env_mask: wp.array(dtype=wp.bool),
    bodies: wp.array2d(dtype=wp.int32),
    joints: wp.array2d(dtype=wp.int32),
    body_q: wp.array(dtype=wp.transform),
    body_com: wp.array(dtype=wp.vec3),
    joint_X_c: wp.array(dtype=wp.transform),
    body_parent_f: wp.array(dtype=wp.spatial_vector),
    force: wp.array2d(dtype=wp.vec3),
    torque: wp.array2d(dtype=wp.vec3),
):
    env, k = wp.tid()
    if not env_mask[env]:
        return
    b = bodies[env, k]
    pose = body_q[b]
    joint_frame = pose * joint_X_c[joints[env, k]]
    anchor = wp.transform_get_translation(joint_frame)
    com = wp.transform_point(pose, body_com[b])
    wrench = body_parent_f[b]
    f = wp.spatial_top(wrench)
    tau = wp.spatial_bottom(wrench) + wp.cross(com - anchor, f)
    rot = wp.transform_get_rotation(joint_frame)
    force[env, k] = wp.quat_rotate_inv(rot, f)
    torque[env, k] = wp.quat_rotate_inv(rot, tau)
