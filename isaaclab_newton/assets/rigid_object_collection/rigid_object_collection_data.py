"""Rigid object collection data on Newton: the shared lazy body quantities, one column per object."""

from __future__ import annotations

import torch
import warp as wp
from isaaclab.assets.rigid_object_collection.base_rigid_object_collection_data import BaseRigidObjectCollectionData
from isaaclab.utils.math import quat_apply, quat_apply_inverse
from isaaclab.utils.warp import ProxyArray

from ..body_data import NewtonBodyDataMixin, _lazy_property
from ..root_frame import ROOT_FRAME_FIELDS
from ..unsupported import mark_unsupported
from .binding import CollectionBinding

_PER_OBJECT = {
    "projected_gravity_b": (wp.vec3f, "Unit gravity direction in each body frame, shape (N, K).", "GRAVITY_VEC_W"),
    "body_link_lin_vel_b": (wp.vec3f, "Linear velocities of the body frame origins, body frames [m/s].", None),
    "body_link_ang_vel_b": (wp.vec3f, "Angular velocities, body frames [rad/s].", None),
    "body_com_lin_vel_b": (wp.vec3f, "Center-of-mass linear velocities, body frames [m/s].", None),
    "body_com_ang_vel_b": (wp.vec3f, "Angular velocities, body frames [rad/s] (CoM frames are body-aligned).", None),
}


class RigidObjectCollectionData(NewtonBodyDataMixin, BaseRigidObjectCollectionData):
    """State of K free rigid bodies in each of N Newton worlds, shape (N, K, ...) (see :class:`NewtonBodyDataMixin`).

    Default body poses and twists are relative to the env origin. Gravity, heading and body-frame velocities are
    per object.
    """

    _root_frame_fields = tuple(name for name in ROOT_FRAME_FIELDS if name not in ("projected_gravity_b", "heading_w"))

    def __init__(self, binding: CollectionBinding, device: str):
        BaseRigidObjectCollectionData.__init__(self, None, len(binding.body_names), device)
        self._init_body_buffers(binding, device)
        n, k = binding.num_instances, len(binding.body_names)
        for name, (dtype, _, _) in _PER_OBJECT.items():
            self._add_lazy(name, (n, k), dtype, self._body_frame_compute(name))
        self._add_lazy("heading_w", (n, k), wp.float32, self._body_heading)
        self._static["default_body_pose"] = ProxyArray(wp.zeros((n, k), dtype=wp.transformf, device=device))
        self._static["default_body_vel"] = ProxyArray(wp.zeros((n, k), dtype=wp.spatial_vectorf, device=device))
        self._static["default_body_state"] = ProxyArray(wp.zeros((n, k, 13), dtype=wp.float32, device=device))

    def _body_frame_compute(self, name: str):
        source = _PER_OBJECT[name][2] or name.replace("_b", "_w")

        def compute() -> torch.Tensor:
            quat = self._dependency("body_link_quat_w")
            value = self._dependency(source)
            if value.dim() == 2:  # a per-env vector (gravity): the same for every object
                value = value[:, None, :].expand_as(quat[..., :3])
            return quat_apply_inverse(quat, value)

        return compute

    def _body_heading(self) -> torch.Tensor:
        quat = self._dependency("body_link_quat_w")
        forward = quat_apply(quat, self._static["FORWARD_VEC_B"].torch[:, None, :].expand_as(quat[..., :3]))
        return torch.atan2(forward[..., 1], forward[..., 0])

    def set_default_body_states(self, pose: torch.Tensor, vel: torch.Tensor) -> None:
        """Set the default body poses (N, K, 7) and center-of-mass twists (N, K, 6) relative to the env origins."""
        self._static["default_body_pose"].torch[:] = pose
        self._static["default_body_vel"].torch[:] = vel
        self._static["default_body_state"].torch[:] = torch.cat((pose, vel), -1)

    def update(self, dt: float) -> None:
        """Nothing to do: state-derived buffers are computed when read (``dt`` [s] is unused)."""

    @property
    def default_body_pose(self) -> ProxyArray:
        """Default body poses relative to the env origin, (x, y, z [m], qx, qy, qz, qw), shape (N, K)."""
        return self._static["default_body_pose"]

    @property
    def default_body_vel(self) -> ProxyArray:
        """Default body center-of-mass twists (linear [m/s], angular [rad/s]), shape (N, K)."""
        return self._static["default_body_vel"]

    @property
    def default_body_state(self) -> ProxyArray:
        """Default body pose (7) and twist (6), shape (N, K, 13)."""
        return self._static["default_body_state"]


for _name, (_dtype, _doc, _source) in _PER_OBJECT.items():
    setattr(RigidObjectCollectionData, _name, _lazy_property(_name, _doc))
RigidObjectCollectionData.heading_w = _lazy_property("heading_w", "Yaw of each body's x axis, world frame [rad].")
del _name, _dtype, _doc, _source

mark_unsupported(RigidObjectCollectionData, sorted(BaseRigidObjectCollectionData.__abstractmethods__))
