"""Articulation data on Newton: joint and body state read from ``State``/``Model`` into persistent buffers."""

from __future__ import annotations

from typing import TYPE_CHECKING

import torch
import warp as wp
from isaaclab.assets.articulation.base_articulation_data import BaseArticulationData
from isaaclab.utils.math import quat_apply_inverse, yaw_quat
from isaaclab.utils.warp import ProxyArray

from ...physics import NewtonManager
from ..unsupported import mark_unsupported
from .binding import torch_view

if TYPE_CHECKING:
    from .binding import ArticulationBinding

_GRAVITY_DIR = (0.0, 0.0, -1.0)


class ArticulationData(BaseArticulationData):
    """State and properties of an articulation in N Newton worlds.

    Buffers are allocated once and refreshed in place, so ``data.joint_pos.torch`` may be cached by callers.
    State-derived buffers refresh lazily whenever simulation time advanced or a write touched the state.
    Units: positions [m], angles [rad], velocities [m/s, rad/s]; quaternions are (x, y, z, w); body
    velocities are those of the center of mass in the world frame, (linear, angular).
    """

    def __init__(self, root_view, device: str, binding: ArticulationBinding):
        super().__init__(root_view, device)
        self._binding = binding
        self._n = binding.num_instances
        self._j = len(binding.joint_names)
        self._b = len(binding.body_names)
        self._stamp = -1.0
        self._dirty = True
        self._prev_joint_vel: torch.Tensor | None = None
        n, j, b = self._n, self._j, self._b
        f32 = wp.float32
        self._bufs: dict[str, ProxyArray] = {}
        for name, shape, dtype in (
            ("joint_pos", (n, j), f32),
            ("joint_vel", (n, j), f32),
            ("joint_acc", (n, j), f32),
            ("default_joint_pos", (n, j), f32),
            ("default_joint_vel", (n, j), f32),
            ("joint_stiffness", (n, j), f32),
            ("joint_damping", (n, j), f32),
            ("joint_armature", (n, j), f32),
            ("joint_friction_coeff", (n, j), f32),
            ("joint_effort_limits", (n, j), f32),
            ("joint_vel_limits", (n, j), f32),
            ("joint_pos_limits", (n, j), wp.vec2f),
            ("soft_joint_pos_limits_buf", (n, j), wp.vec2f),
            ("default_root_pose", (n,), wp.transformf),
            ("default_root_vel", (n,), wp.spatial_vectorf),
            ("root_link_pose_w", (n,), wp.transformf),
            ("root_link_pos_w", (n,), wp.vec3f),
            ("root_link_quat_w", (n,), wp.quatf),
            ("root_com_vel_w", (n,), wp.spatial_vectorf),
            ("root_com_lin_vel_w", (n,), wp.vec3f),
            ("root_com_ang_vel_w", (n,), wp.vec3f),
            ("root_com_lin_vel_b", (n,), wp.vec3f),
            ("root_com_ang_vel_b", (n,), wp.vec3f),
            ("projected_gravity_b", (n,), wp.vec3f),
            ("heading_w", (n,), f32),
            ("body_link_pose_w", (n, b), wp.transformf),
            ("body_link_pos_w", (n, b), wp.vec3f),
            ("body_link_quat_w", (n, b), wp.quatf),
            ("body_com_vel_w", (n, b), wp.spatial_vectorf),
            ("body_com_lin_vel_w", (n, b), wp.vec3f),
            ("body_com_ang_vel_w", (n, b), wp.vec3f),
            ("body_mass", (n, b), f32),
            ("body_inertia", (n, b), wp.mat33f),
        ):
            self._bufs[name] = ProxyArray(wp.zeros(shape, dtype=dtype, device=device))
        self._read_model_properties()
        self.soft_joint_pos_limit_factor = 1.0

    # -- refresh ---------------------------------------------------------------------------------------

    def _t(self, name: str) -> torch.Tensor:
        return self._bufs[name].torch

    def mark_dirty(self) -> None:
        """Force the next read to refresh state-derived buffers (after a write to the simulation state)."""
        self._dirty = True

    def _refresh(self) -> None:
        stamp = NewtonManager.get_simulation_time()
        if not self._dirty and stamp == self._stamp:
            return
        self._stamp, self._dirty = stamp, False
        state = NewtonManager.get_state_0()
        bind = self._binding
        q = torch_view(state.joint_q)
        qd = torch_view(state.joint_qd)
        self._t("joint_pos").copy_(q[bind.coord_indices])
        self._t("joint_vel").copy_(qd[bind.dof_indices])
        body_q = torch_view(state.body_q)[bind.body_indices]
        body_qd = torch_view(state.body_qd)[bind.body_indices]
        self._t("body_link_pose_w").copy_(body_q)
        self._t("body_link_pos_w").copy_(body_q[..., :3])
        self._t("body_link_quat_w").copy_(body_q[..., 3:])
        self._t("body_com_vel_w").copy_(body_qd)
        self._t("body_com_lin_vel_w").copy_(body_qd[..., :3])
        self._t("body_com_ang_vel_w").copy_(body_qd[..., 3:])
        root_q, root_qd = body_q[:, 0], body_qd[:, 0]
        quat = root_q[:, 3:]
        self._t("root_link_pose_w").copy_(root_q)
        self._t("root_link_pos_w").copy_(root_q[:, :3])
        self._t("root_link_quat_w").copy_(quat)
        self._t("root_com_vel_w").copy_(root_qd)
        self._t("root_com_lin_vel_w").copy_(root_qd[:, :3])
        self._t("root_com_ang_vel_w").copy_(root_qd[:, 3:])
        self._t("root_com_lin_vel_b").copy_(quat_apply_inverse(quat, root_qd[:, :3]))
        self._t("root_com_ang_vel_b").copy_(quat_apply_inverse(quat, root_qd[:, 3:]))
        gravity = torch.tensor(_GRAVITY_DIR, device=quat.device).expand(quat.shape[0], 3)
        self._t("projected_gravity_b").copy_(quat_apply_inverse(quat, gravity))
        yaw = yaw_quat(quat)
        self._t("heading_w").copy_(2.0 * torch.atan2(yaw[:, 2], yaw[:, 3]))

    def _read_model_properties(self) -> None:
        """Copy joint and body properties of the finalized model into the per-env buffers."""
        model = NewtonManager.get_model()
        bind = self._binding
        dof, coord = bind.dof_indices, bind.coord_indices
        self._t("joint_stiffness").copy_(torch_view(model.joint_target_ke)[dof])
        self._t("joint_damping").copy_(torch_view(model.joint_target_kd)[dof])
        self._t("joint_armature").copy_(torch_view(model.joint_armature)[dof])
        self._t("joint_friction_coeff").copy_(torch_view(model.joint_friction)[dof])
        self._t("joint_effort_limits").copy_(torch_view(model.joint_effort_limit)[dof])
        self._t("joint_vel_limits").copy_(torch_view(model.joint_velocity_limit)[dof])
        limits = torch.stack((torch_view(model.joint_limit_lower)[dof], torch_view(model.joint_limit_upper)[dof]), -1)
        self._t("joint_pos_limits").copy_(limits)
        self.update_soft_joint_pos_limits()
        self._t("default_joint_pos").copy_(torch_view(model.joint_q)[coord])
        self._t("default_joint_vel").copy_(torch_view(model.joint_qd)[dof])
        self._t("body_mass").copy_(torch_view(model.body_mass)[bind.body_indices])
        self._t("body_inertia").copy_(torch_view(model.body_inertia)[bind.body_indices])

    def update_soft_joint_pos_limits(self) -> None:
        """Recompute the soft limits: the hard range scaled about its middle by ``soft_joint_pos_limit_factor``."""
        limits = self._t("joint_pos_limits")
        factor = getattr(self, "soft_joint_pos_limit_factor", 1.0)
        mid = 0.5 * (limits[..., 0] + limits[..., 1])
        half = 0.5 * (limits[..., 1] - limits[..., 0]) * factor
        self._t("soft_joint_pos_limits_buf").copy_(torch.stack((mid - half, mid + half), -1))

    def update(self, dt: float) -> None:
        """Refresh state buffers and the finite-difference joint acceleration [rad/s^2 or m/s^2].

        Args:
            dt: Time since the previous update [s].
        """
        self._refresh()
        vel = self._t("joint_vel")
        if self._prev_joint_vel is not None and dt > 0.0:
            self._t("joint_acc").copy_((vel - self._prev_joint_vel) / dt)
            self._prev_joint_vel.copy_(vel)
        else:
            self._prev_joint_vel = vel.clone()

    def _reset_pose(self, from_link: bool = True) -> None:
        """Mark pose buffers stale."""
        self._dirty = True

    def _reset_velocity(self, from_com: bool = True) -> None:
        """Mark velocity buffers stale."""
        self._dirty = True

    # -- properties ------------------------------------------------------------------------------------

    @property
    def joint_pos(self) -> ProxyArray:
        """Joint positions [m or rad], shape (num_instances, num_joints)."""
        self._refresh()
        return self._bufs["joint_pos"]

    @property
    def joint_vel(self) -> ProxyArray:
        """Joint velocities [m/s or rad/s], shape (num_instances, num_joints)."""
        self._refresh()
        return self._bufs["joint_vel"]

    @property
    def joint_acc(self) -> ProxyArray:
        """Joint accelerations by finite differences between updates, shape (num_instances, num_joints)."""
        return self._bufs["joint_acc"]

    @property
    def default_joint_pos(self) -> ProxyArray:
        """Default joint positions from the configuration's initial state."""
        return self._bufs["default_joint_pos"]

    @property
    def default_joint_vel(self) -> ProxyArray:
        """Default joint velocities from the configuration's initial state."""
        return self._bufs["default_joint_vel"]

    @property
    def default_root_pose(self) -> ProxyArray:
        """Default root pose relative to the env origin, (x, y, z, qx, qy, qz, qw)."""
        return self._bufs["default_root_pose"]

    @property
    def default_root_vel(self) -> ProxyArray:
        """Default root velocity (linear [m/s], angular [rad/s])."""
        return self._bufs["default_root_vel"]

    @property
    def joint_stiffness(self) -> ProxyArray:
        """Joint drive stiffness [N/m or N m/rad] (Newton ``joint_target_ke``)."""
        return self._bufs["joint_stiffness"]

    @property
    def joint_damping(self) -> ProxyArray:
        """Joint drive damping [N s/m or N m s/rad] (Newton ``joint_target_kd``)."""
        return self._bufs["joint_damping"]

    @property
    def joint_armature(self) -> ProxyArray:
        """Joint armature [kg or kg m^2]."""
        return self._bufs["joint_armature"]

    @property
    def joint_friction_coeff(self) -> ProxyArray:
        """Joint friction (Newton ``joint_friction``: frictionloss force [N or N m] for MuJoCo)."""
        return self._bufs["joint_friction_coeff"]

    @property
    def joint_effort_limits(self) -> ProxyArray:
        """Joint effort limits [N or N m]."""
        return self._bufs["joint_effort_limits"]

    @property
    def joint_vel_limits(self) -> ProxyArray:
        """Joint velocity limits [m/s or rad/s]."""
        return self._bufs["joint_vel_limits"]

    @property
    def joint_pos_limits(self) -> ProxyArray:
        """Joint position limits (lower, upper) [m or rad], shape (num_instances, num_joints, 2)."""
        return self._bufs["joint_pos_limits"]

    @property
    def soft_joint_pos_limits(self) -> ProxyArray:
        """Soft joint position limits (lower, upper) [m or rad]."""
        return self._bufs["soft_joint_pos_limits_buf"]

    def _state_prop(name: str, doc: str):  # noqa: N805 - class-body helper
        def getter(self) -> ProxyArray:
            self._refresh()
            return self._bufs[name]

        getter.__doc__ = doc
        return property(getter)

    root_link_pose_w = _state_prop("root_link_pose_w", "Root link pose in the world frame, (pos [m], quat xyzw).")
    root_link_pos_w = _state_prop("root_link_pos_w", "Root link position in the world frame [m].")
    root_link_quat_w = _state_prop("root_link_quat_w", "Root link orientation in the world frame (x, y, z, w).")
    root_com_vel_w = _state_prop("root_com_vel_w", "Root center-of-mass velocity in the world frame (lin, ang).")
    root_com_lin_vel_w = _state_prop("root_com_lin_vel_w", "Root center-of-mass linear velocity, world [m/s].")
    root_com_ang_vel_w = _state_prop("root_com_ang_vel_w", "Root angular velocity in the world frame [rad/s].")
    root_com_lin_vel_b = _state_prop("root_com_lin_vel_b", "Root center-of-mass linear velocity, root frame [m/s].")
    root_com_ang_vel_b = _state_prop("root_com_ang_vel_b", "Root angular velocity in the root frame [rad/s].")
    projected_gravity_b = _state_prop("projected_gravity_b", "Unit gravity direction in the root frame.")
    heading_w = _state_prop("heading_w", "Yaw of the root in the world frame [rad].")
    body_link_pose_w = _state_prop("body_link_pose_w", "Body link poses in the world frame, (pos [m], quat xyzw).")
    body_link_pos_w = _state_prop("body_link_pos_w", "Body link positions in the world frame [m].")
    body_link_quat_w = _state_prop("body_link_quat_w", "Body link orientations in the world frame (x, y, z, w).")
    body_com_vel_w = _state_prop("body_com_vel_w", "Body center-of-mass velocities in the world frame (lin, ang).")
    body_com_lin_vel_w = _state_prop("body_com_lin_vel_w", "Body center-of-mass linear velocities, world [m/s].")
    body_com_ang_vel_w = _state_prop("body_com_ang_vel_w", "Body angular velocities in the world frame [rad/s].")
    del _state_prop

    @property
    def body_mass(self) -> ProxyArray:
        """Body masses [kg], shape (num_instances, num_bodies)."""
        return self._bufs["body_mass"]

    @property
    def body_inertia(self) -> ProxyArray:
        """Body inertia tensors about the center of mass [kg m^2], shape (num_instances, num_bodies, 3, 3)."""
        return self._bufs["body_inertia"]


mark_unsupported(ArticulationData, sorted(BaseArticulationData.__abstractmethods__))
