"""Body and root state of Newton assets, read from ``State``/``Model`` into persistent per-env buffers."""

from __future__ import annotations

import torch
import warp as wp
from isaaclab.utils.math import matrix_from_quat, quat_apply, quat_apply_inverse, yaw_quat
from isaaclab.utils.warp import ProxyArray

from ..physics import NewtonManager
from .articulation.binding import ArticulationBinding, torch_view

_GRAVITY_DIR = (0.0, 0.0, -1.0)

# name -> (per-body?, dtype, docstring); every entry becomes a read-only property returning a ProxyArray.
_BODY_FIELDS: dict[str, tuple[bool, type, str]] = {
    "body_link_pose_w": (True, wp.transformf, "Body frame poses, world frame: (pos [m], quat xyzw)."),
    "body_link_pos_w": (True, wp.vec3f, "Body frame origins, world frame [m]."),
    "body_link_quat_w": (True, wp.quatf, "Body frame orientations, world frame (x, y, z, w)."),
    "body_link_vel_w": (True, wp.spatial_vectorf, "Twists of the body frame origins, world frame (lin, ang)."),
    "body_link_lin_vel_w": (True, wp.vec3f, "Linear velocities of the body frame origins, world frame [m/s]."),
    "body_link_ang_vel_w": (True, wp.vec3f, "Angular velocities of the bodies, world frame [rad/s]."),
    "body_link_state_w": (True, None, "Body frame pose (7) and origin twist (6), shape (N, B, 13)."),
    "body_com_pose_w": (True, wp.transformf, "Center-of-mass poses, world frame (CoM frame is body-aligned)."),
    "body_com_pos_w": (True, wp.vec3f, "Centers of mass, world frame [m]."),
    "body_com_quat_w": (True, wp.quatf, "Center-of-mass frame orientations, world frame (x, y, z, w)."),
    "body_com_vel_w": (True, wp.spatial_vectorf, "Center-of-mass twists, world frame (lin [m/s], ang [rad/s])."),
    "body_com_lin_vel_w": (True, wp.vec3f, "Center-of-mass linear velocities, world frame [m/s]."),
    "body_com_ang_vel_w": (True, wp.vec3f, "Angular velocities, world frame [rad/s]."),
    "body_com_state_w": (True, None, "Center-of-mass pose (7) and twist (6), shape (N, B, 13)."),
    "body_state_w": (True, None, "Body frame pose (7) and center-of-mass twist (6), shape (N, B, 13)."),
    "body_com_acc_w": (True, wp.spatial_vectorf, "Center-of-mass accelerations by finite differences (lin, ang)."),
    "body_com_lin_acc_w": (True, wp.vec3f, "Center-of-mass linear accelerations [m/s^2] (finite differences)."),
    "body_com_ang_acc_w": (True, wp.vec3f, "Angular accelerations [rad/s^2] (finite differences)."),
    "root_link_pose_w": (False, wp.transformf, "Root body frame pose, world frame: (pos [m], quat xyzw)."),
    "root_link_pos_w": (False, wp.vec3f, "Root body frame origin, world frame [m]."),
    "root_link_quat_w": (False, wp.quatf, "Root body orientation, world frame (x, y, z, w)."),
    "root_link_vel_w": (False, wp.spatial_vectorf, "Twist of the root body frame origin, world frame (lin, ang)."),
    "root_link_lin_vel_w": (False, wp.vec3f, "Linear velocity of the root body frame origin, world frame [m/s]."),
    "root_link_ang_vel_w": (False, wp.vec3f, "Angular velocity of the root, world frame [rad/s]."),
    "root_link_lin_vel_b": (False, wp.vec3f, "Linear velocity of the root body frame origin, root frame [m/s]."),
    "root_link_ang_vel_b": (False, wp.vec3f, "Angular velocity of the root, root frame [rad/s]."),
    "root_link_state_w": (False, None, "Root body frame pose (7) and origin twist (6), shape (N, 13)."),
    "root_com_pose_w": (False, wp.transformf, "Root center-of-mass pose, world frame."),
    "root_com_pos_w": (False, wp.vec3f, "Root center of mass, world frame [m]."),
    "root_com_quat_w": (False, wp.quatf, "Root center-of-mass frame orientation, world frame (x, y, z, w)."),
    "root_com_vel_w": (False, wp.spatial_vectorf, "Root center-of-mass twist, world frame (lin, ang)."),
    "root_com_lin_vel_w": (False, wp.vec3f, "Root center-of-mass linear velocity, world frame [m/s]."),
    "root_com_ang_vel_w": (False, wp.vec3f, "Root angular velocity, world frame [rad/s]."),
    "root_com_lin_vel_b": (False, wp.vec3f, "Root center-of-mass linear velocity, root frame [m/s]."),
    "root_com_ang_vel_b": (False, wp.vec3f, "Root angular velocity, root frame [rad/s]."),
    "root_com_state_w": (False, None, "Root center-of-mass pose (7) and twist (6), shape (N, 13)."),
    "root_state_w": (False, None, "Root body frame pose (7) and center-of-mass twist (6), shape (N, 13)."),
    "projected_gravity_b": (False, wp.vec3f, "Unit gravity direction (:attr:`GRAVITY_VEC_W`) in the root frame."),
    "heading_w": (False, wp.float32, "Yaw of the root's x axis in the world frame [rad]."),
}


def _state_property(name: str, doc: str) -> property:
    def getter(self) -> ProxyArray:
        self._refresh()
        return self._bufs[name]

    getter.__name__ = name
    getter.__doc__ = doc
    return property(getter)


class NewtonBodyDataMixin:
    """Per-env body and root buffers of one asset, refreshed lazily from the manager's current state.

    A refresh happens on the first read after simulation time advanced or after :meth:`mark_dirty` (every
    write marks it). Body velocities in Newton's ``State.body_qd`` are center-of-mass twists in the world
    frame; origin twists are derived as ``v_origin = v_com - w x (R c)`` with ``c`` the body-frame CoM.
    """

    def _init_body_buffers(self, binding: ArticulationBinding, device: str) -> None:
        self._binding = binding
        self._n = binding.num_instances
        self._nb = len(binding.body_names)
        self._stamp = -1.0
        self._dirty = True
        self._prev_body_vel: torch.Tensor | None = None
        self._bufs: dict[str, ProxyArray] = {}
        for name, (per_body, dtype, _) in _BODY_FIELDS.items():
            shape = (self._n, self._nb) if per_body else (self._n,)
            if dtype is None:
                self._bufs[name] = ProxyArray(wp.zeros((*shape, 13), dtype=wp.float32, device=device))
            else:
                self._bufs[name] = ProxyArray(wp.zeros(shape, dtype=dtype, device=device))
        for name, dtype in (("default_root_pose", wp.transformf), ("default_root_vel", wp.spatial_vectorf)):
            self._bufs[name] = ProxyArray(wp.zeros((self._n,), dtype=dtype, device=device))
        self._bufs["default_root_state"] = ProxyArray(wp.zeros((self._n, 13), dtype=wp.float32, device=device))
        gravity = torch.tensor(NewtonManager._gravity, dtype=torch.float32)
        norm = torch.linalg.norm(gravity)
        direction = gravity / norm if norm > 0 else torch.tensor(_GRAVITY_DIR)
        self._bufs["GRAVITY_VEC_W"] = ProxyArray(
            wp.array(direction.repeat(self._n, 1).numpy(), dtype=wp.vec3f, device=device)
        )
        forward = torch.tensor([[1.0, 0.0, 0.0]]).repeat(self._n, 1)
        self._bufs["FORWARD_VEC_B"] = ProxyArray(wp.array(forward.numpy(), dtype=wp.vec3f, device=device))
        self._bufs["body_mass"] = ProxyArray(wp.zeros((self._n, self._nb), dtype=wp.float32, device=device))
        self._bufs["body_inertia"] = ProxyArray(wp.zeros((self._n, self._nb, 9), dtype=wp.float32, device=device))
        self._bufs["body_com_pose_b"] = ProxyArray(wp.zeros((self._n, self._nb), dtype=wp.transformf, device=device))
        self._bufs["body_com_pos_b"] = ProxyArray(wp.zeros((self._n, self._nb), dtype=wp.vec3f, device=device))
        self._bufs["body_com_quat_b"] = ProxyArray(wp.zeros((self._n, self._nb), dtype=wp.quatf, device=device))
        self.read_body_properties()

    def _t(self, name: str) -> torch.Tensor:
        return self._bufs[name].torch

    def mark_dirty(self) -> None:
        """Force the next read to refresh state-derived buffers (after a write to the simulation state)."""
        self._dirty = True

    def read_body_properties(self) -> None:
        """Copy masses [kg], inertias [kg m^2] (about the CoM, body frame) and CoM offsets [m] from the model."""
        model = NewtonManager.get_model()
        bodies = self._binding.body_indices
        self._t("body_mass").copy_(torch_view(model.body_mass)[bodies])
        self._inertia_b = torch_view(model.body_inertia)[bodies].reshape(self._n, self._nb, 3, 3).clone()
        com = torch_view(model.body_com)[bodies]
        self._t("body_com_pos_b").copy_(com)
        identity = torch.zeros((*com.shape[:-1], 4), device=com.device)
        identity[..., 3] = 1.0
        self._t("body_com_quat_b").copy_(identity)
        self._t("body_com_pose_b").copy_(torch.cat((com, identity), -1))

    def set_default_root_state(self, pose: torch.Tensor, vel: torch.Tensor) -> None:
        """Set the default root pose (7) and center-of-mass twist (6) relative to the env origin."""
        self._t("default_root_pose")[:] = pose
        self._t("default_root_vel")[:] = vel
        self._t("default_root_state")[:] = torch.cat((pose, vel), -1)

    def _refresh(self) -> None:
        stamp = NewtonManager.get_simulation_time()
        if not self._dirty and stamp == self._stamp:
            return
        self._stamp, self._dirty = stamp, False
        state = NewtonManager.get_state_0()
        self._refresh_joints(state)
        bodies = self._binding.body_indices
        pose = torch_view(state.body_q)[bodies]
        vel = torch_view(state.body_qd)[bodies]
        pos, quat = pose[..., :3], pose[..., 3:]
        lin, ang = vel[..., :3], vel[..., 3:]
        arm = quat_apply(quat, self._t("body_com_pos_b"))
        com_pos = pos + arm
        link_lin = lin - torch.cross(ang, arm, dim=-1)
        t = self._t
        t("body_link_pose_w").copy_(pose)
        t("body_link_pos_w").copy_(pos)
        t("body_link_quat_w").copy_(quat)
        t("body_link_vel_w").copy_(torch.cat((link_lin, ang), -1))
        t("body_link_lin_vel_w").copy_(link_lin)
        t("body_link_ang_vel_w").copy_(ang)
        t("body_link_state_w").copy_(torch.cat((pose, link_lin, ang), -1))
        t("body_com_pose_w").copy_(torch.cat((com_pos, quat), -1))
        t("body_com_pos_w").copy_(com_pos)
        t("body_com_quat_w").copy_(quat)
        t("body_com_vel_w").copy_(vel)
        t("body_com_lin_vel_w").copy_(lin)
        t("body_com_ang_vel_w").copy_(ang)
        t("body_com_state_w").copy_(torch.cat((com_pos, quat, vel), -1))
        t("body_state_w").copy_(torch.cat((pose, vel), -1))
        root_quat = quat[:, 0]
        for prefix, per_body in (("root_link", "body_link"), ("root_com", "body_com")):
            for suffix in ("pose_w", "pos_w", "quat_w", "vel_w", "lin_vel_w", "ang_vel_w", "state_w"):
                t(f"{prefix}_{suffix}").copy_(t(f"{per_body}_{suffix}")[:, 0])
        t("root_state_w").copy_(t("body_state_w")[:, 0])
        for prefix in ("root_link", "root_com"):
            t(f"{prefix}_lin_vel_b").copy_(quat_apply_inverse(root_quat, t(f"{prefix}_lin_vel_w")))
            t(f"{prefix}_ang_vel_b").copy_(quat_apply_inverse(root_quat, t(f"{prefix}_ang_vel_w")))
        t("projected_gravity_b").copy_(quat_apply_inverse(root_quat, t("GRAVITY_VEC_W")))
        rot = matrix_from_quat(quat)
        t("body_inertia").copy_((rot @ self._inertia_b @ rot.transpose(-1, -2)).reshape(self._n, self._nb, 9))
        yaw = yaw_quat(root_quat)
        t("heading_w").copy_(2.0 * torch.atan2(yaw[:, 2], yaw[:, 3]))

    def _refresh_joints(self, state) -> None:
        """Hook for joint buffers (articulations)."""

    def _update_body_acc(self, dt: float) -> None:
        """Finite-difference the center-of-mass twists over ``dt`` [s]."""
        self._refresh()
        vel = self._t("body_com_vel_w")
        if self._prev_body_vel is not None and dt > 0.0:
            acc = (vel - self._prev_body_vel) / dt
            self._t("body_com_acc_w").copy_(acc)
            self._t("body_com_lin_acc_w").copy_(acc[..., :3])
            self._t("body_com_ang_acc_w").copy_(acc[..., 3:])
            self._prev_body_vel.copy_(vel)
        else:
            self._prev_body_vel = vel.clone()

    def _reset_pose(self, from_link: bool = True) -> None:
        """Mark pose buffers stale."""
        self._dirty = True

    def _reset_velocity(self, from_com: bool = True) -> None:
        """Mark velocity buffers stale."""
        self._dirty = True

    @property
    def GRAVITY_VEC_W(self) -> ProxyArray:  # noqa: N802 - core's name
        """Unit direction of the simulation's gravity in the world frame, per env, shape (N, 3)."""
        return self._bufs["GRAVITY_VEC_W"]

    @property
    def FORWARD_VEC_B(self) -> ProxyArray:  # noqa: N802 - core's name
        """Forward axis (+x) of the root body frame, per env, shape (N, 3)."""
        return self._bufs["FORWARD_VEC_B"]

    @property
    def default_root_pose(self) -> ProxyArray:
        """Default root pose relative to the env origin, (x, y, z [m], qx, qy, qz, qw)."""
        return self._bufs["default_root_pose"]

    @property
    def default_root_vel(self) -> ProxyArray:
        """Default root center-of-mass twist (linear [m/s], angular [rad/s])."""
        return self._bufs["default_root_vel"]

    @property
    def default_root_state(self) -> ProxyArray:
        """Default root pose (7) and twist (6), shape (N, 13)."""
        return self._bufs["default_root_state"]

    @property
    def body_mass(self) -> ProxyArray:
        """Body masses [kg], shape (num_instances, num_bodies)."""
        return self._bufs["body_mass"]

    @property
    def body_inertia(self) -> ProxyArray:
        """Body inertias about the CoM in the world frame [kg m^2], flattened 3x3, shape (N, B, 9)."""
        self._refresh()
        return self._bufs["body_inertia"]

    @property
    def body_com_pose_b(self) -> ProxyArray:
        """Center-of-mass frames in the body frames (pos [m], identity quaternion)."""
        return self._bufs["body_com_pose_b"]

    @property
    def body_com_pos_b(self) -> ProxyArray:
        """Centers of mass in the body frames [m]."""
        return self._bufs["body_com_pos_b"]

    @property
    def body_com_quat_b(self) -> ProxyArray:
        """Orientation of the CoM frames in the body frames: identity (Newton's inertia is body-aligned)."""
        return self._bufs["body_com_quat_b"]


for _name, (_per_body, _dtype, _doc) in _BODY_FIELDS.items():
    setattr(NewtonBodyDataMixin, _name, _state_property(_name, _doc))
del _name, _per_body, _dtype, _doc
