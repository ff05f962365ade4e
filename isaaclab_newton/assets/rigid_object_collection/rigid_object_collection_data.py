"""Rigid object collection data on Newton: the shared body buffers, one column per object."""

from __future__ import annotations

import torch
import warp as wp
from isaaclab.assets.rigid_object_collection.base_rigid_object_collection_data import BaseRigidObjectCollectionData
from isaaclab.utils.math import quat_apply_inverse, yaw_quat
from isaaclab.utils.warp import ProxyArray

from ...physics import NewtonManager
from ..body_data import NewtonBodyDataMixin
from ..unsupported import mark_unsupported
from .binding import CollectionBinding

_PER_OBJECT = {
    "projected_gravity_b": wp.vec3f,
    "heading_w": wp.float32,
    "body_link_lin_vel_b": wp.vec3f,
    "body_link_ang_vel_b": wp.vec3f,
    "body_com_lin_vel_b": wp.vec3f,
    "body_com_ang_vel_b": wp.vec3f,
}


class RigidObjectCollectionData(NewtonBodyDataMixin, BaseRigidObjectCollectionData):
    """State of K free rigid bodies in each of N Newton worlds, shape (N, K, ...) (see :class:`NewtonBodyDataMixin`).

    Default body poses and twists are relative to the env origin. Gravity, heading and body-frame velocities are
    per object.
    """

    def __init__(self, binding: CollectionBinding, device: str):
        BaseRigidObjectCollectionData.__init__(self, None, len(binding.body_names), device)
        self._init_body_buffers(binding, device)
        n, k = binding.num_instances, len(binding.body_names)
        self._objects = {
            name: ProxyArray(wp.zeros((n, k), dtype=dtype, device=device)) for name, dtype in _PER_OBJECT.items()
        }
        self._default_body_pose = ProxyArray(wp.zeros((n, k), dtype=wp.transformf, device=device))
        self._default_body_vel = ProxyArray(wp.zeros((n, k), dtype=wp.spatial_vectorf, device=device))
        self._default_body_state = ProxyArray(wp.zeros((n, k, 13), dtype=wp.float32, device=device))

    def set_default_body_states(self, pose: torch.Tensor, vel: torch.Tensor) -> None:
        """Set the default body poses (N, K, 7) and center-of-mass twists (N, K, 6) relative to the env origins."""
        self._default_body_pose.torch[:] = pose
        self._default_body_vel.torch[:] = vel
        self._default_body_state.torch[:] = torch.cat((pose, vel), -1)

    def update(self, dt: float) -> None:
        """Refresh buffers and the finite-difference accelerations over ``dt`` [s]."""
        self._update_body_acc(dt)

    def _refresh(self) -> None:
        fresh = self._dirty or NewtonManager.get_simulation_time() != self._stamp
        super()._refresh()
        if not fresh:
            return
        quat = self._t("body_link_quat_w")
        gravity = self._t("GRAVITY_VEC_W")[:, None, :].expand_as(self._t("body_link_pos_w"))
        objects = {name: proxy.torch for name, proxy in self._objects.items()}
        objects["projected_gravity_b"].copy_(quat_apply_inverse(quat, gravity))
        yaw = yaw_quat(quat)
        objects["heading_w"].copy_(2.0 * torch.atan2(yaw[..., 2], yaw[..., 3]))
        for kind in ("link", "com"):
            objects[f"body_{kind}_lin_vel_b"].copy_(quat_apply_inverse(quat, self._t(f"body_{kind}_lin_vel_w")))
            objects[f"body_{kind}_ang_vel_b"].copy_(quat_apply_inverse(quat, self._t(f"body_{kind}_ang_vel_w")))

    @property
    def default_body_pose(self) -> ProxyArray:
        """Default body poses relative to the env origin, (x, y, z [m], qx, qy, qz, qw), shape (N, K)."""
        return self._default_body_pose

    @property
    def default_body_vel(self) -> ProxyArray:
        """Default body center-of-mass twists (linear [m/s], angular [rad/s]), shape (N, K)."""
        return self._default_body_vel

    @property
    def default_body_state(self) -> ProxyArray:
        """Default body pose (7) and twist (6), shape (N, K, 13)."""
        return self._default_body_state

    @property
    def projected_gravity_b(self) -> ProxyArray:
        """Unit gravity direction in each body frame, shape (N, K)."""
        self._refresh()
        return self._objects["projected_gravity_b"]

    @property
    def heading_w(self) -> ProxyArray:
        """Yaw of each body's x axis in the world frame [rad], shape (N, K)."""
        self._refresh()
        return self._objects["heading_w"]

    @property
    def body_link_lin_vel_b(self) -> ProxyArray:
        """Linear velocities of the body frame origins in the body frames [m/s]."""
        self._refresh()
        return self._objects["body_link_lin_vel_b"]

    @property
    def body_link_ang_vel_b(self) -> ProxyArray:
        """Angular velocities in the body frames [rad/s]."""
        self._refresh()
        return self._objects["body_link_ang_vel_b"]

    @property
    def body_com_lin_vel_b(self) -> ProxyArray:
        """Center-of-mass linear velocities in the body frames [m/s]."""
        self._refresh()
        return self._objects["body_com_lin_vel_b"]

    @property
    def body_com_ang_vel_b(self) -> ProxyArray:
        """Angular velocities in the body frames [rad/s] (the CoM frame is body-aligned)."""
        self._refresh()
        return self._objects["body_com_ang_vel_b"]


mark_unsupported(RigidObjectCollectionData, sorted(BaseRigidObjectCollectionData.__abstractmethods__))
