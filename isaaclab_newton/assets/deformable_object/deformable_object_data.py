"""Nodal state of a Newton deformable body in each environment, refreshed lazily from the current state."""

from __future__ import annotations

import warp as wp
from isaaclab.assets.deformable_object.base_deformable_object_data import BaseDeformableObjectData
from isaaclab.utils.warp import ProxyArray

from ...physics import NewtonManager
from .kernels import gather_nodal_kernel, nodal_mean_kernel, vec6f


class DeformableObjectData(BaseDeformableObjectData):
    """Nodal positions, velocities and states (world frame) of N deformable bodies of P nodes each.

    Buffers are allocated once and refreshed on the first read after the simulation state changed (a step, a write
    or a reset: :meth:`NewtonManager.get_state_stamp`, which also advances when whole env steps replay from a CUDA
    graph) or after a nodal write (:meth:`mark_dirty`). The root position and velocity are the nodal means.

    Args:
        indices: Model particle indices, shape (N, P), int32 on the simulation device.
        device: Device of the buffers.
    """

    def __init__(self, indices: wp.array, device: str):
        super().__init__(device)
        self._indices = indices
        n, p = indices.shape
        self._pos = wp.zeros((n, p), dtype=wp.vec3, device=device)
        self._vel = wp.zeros((n, p), dtype=wp.vec3, device=device)
        self._state = wp.zeros((n, p), dtype=vec6f, device=device)
        self._root_pos = wp.zeros(n, dtype=wp.vec3, device=device)
        self._root_vel = wp.zeros(n, dtype=wp.vec3, device=device)
        self._proxies = {
            name: ProxyArray(getattr(self, f"_{name}")) for name in ("pos", "vel", "state", "root_pos", "root_vel")
        }
        self.default_nodal_state_w = ProxyArray(wp.zeros((n, p), dtype=vec6f, device=device))
        self.nodal_kinematic_target = ProxyArray(wp.zeros((n, p), dtype=wp.vec4, device=device))
        self._stamp = -1

    def mark_dirty(self) -> None:
        """Force a refresh on the next read (called after every write)."""
        self._stamp = -1

    def _refresh(self) -> None:
        stamp = NewtonManager.get_state_stamp()
        if self._stamp == stamp:
            return
        state = NewtonManager.get_state_0()
        n, p = self._indices.shape
        wp.launch(
            gather_nodal_kernel,
            dim=(n, p),
            inputs=[state.particle_q, state.particle_qd, self._indices],
            outputs=[self._pos, self._vel, self._state],
            device=self.device,
        )
        wp.launch(
            nodal_mean_kernel,
            dim=n,
            inputs=[self._pos, self._vel],
            outputs=[self._root_pos, self._root_vel],
            device=self.device,
        )
        self._stamp = stamp

    @property
    def nodal_pos_w(self) -> ProxyArray:
        """Nodal positions, world frame [m], shape (N, P) vec3f."""
        self._refresh()
        return self._proxies["pos"]

    @property
    def nodal_vel_w(self) -> ProxyArray:
        """Nodal velocities, world frame [m/s], shape (N, P) vec3f."""
        self._refresh()
        return self._proxies["vel"]

    @property
    def nodal_state_w(self) -> ProxyArray:
        """Nodal states (x, y, z [m], vx, vy, vz [m/s]), world frame, shape (N, P) vec6f."""
        self._refresh()
        return self._proxies["state"]

    @property
    def root_pos_w(self) -> ProxyArray:
        """Mean nodal position, world frame [m], shape (N,) vec3f."""
        self._refresh()
        return self._proxies["root_pos"]

    @property
    def root_vel_w(self) -> ProxyArray:
        """Mean nodal velocity, world frame [m/s], shape (N,) vec3f."""
        self._refresh()
        return self._proxies["root_vel"]
