"""Nodal state of a Newton deformable body in each environment, refreshed lazily from the current state."""

from __future__ import annotations

import warp as wp
from isaaclab.assets.deformable_object.base_deformable_object_data import BaseDeformableObjectData
from isaaclab.utils.warp import ProxyArray

from ..particle_data import ParticleBuffersMixin, default_particle_states
from .kernels import nodal_mean_kernel


class DeformableObjectData(ParticleBuffersMixin, BaseDeformableObjectData):
    """Nodal positions, velocities and states (world frame) of N deformable bodies of P nodes each.

    Buffers refresh on the first read after the simulation state changed (see
    :class:`~isaaclab_newton.assets.particle_data.ParticleBuffersMixin`). The root position and velocity are the
    nodal means. The default nodal state is the spawned rest shape; the kinematic targets start at it, all free.

    Args:
        indices: Model particle indices, shape (N, P), int32 on the simulation device.
        device: Device of the buffers.
    """

    def __init__(self, indices: wp.array, device: str):
        super().__init__(device)
        self._init_particle_buffers(indices)
        n, p = indices.shape
        self._root_pos = wp.zeros(n, dtype=wp.vec3, device=device)
        self._root_vel = wp.zeros(n, dtype=wp.vec3, device=device)
        self._proxies.update(root_pos=ProxyArray(self._root_pos), root_vel=ProxyArray(self._root_vel))
        self.default_nodal_state_w = default_particle_states(indices)
        self.nodal_kinematic_target = ProxyArray(wp.zeros((n, p), dtype=wp.vec4, device=device))
        self.nodal_kinematic_target.torch[..., :3] = self.default_nodal_state_w.torch[..., :3]
        self.nodal_kinematic_target.torch[..., 3] = 1.0

    def _derive(self) -> None:
        wp.launch(
            nodal_mean_kernel,
            dim=self._indices.shape[0],
            inputs=[self._pos, self._vel],
            outputs=[self._root_pos, self._root_vel],
            device=self.device,
        )

    @property
    def nodal_pos_w(self) -> ProxyArray:
        """Nodal positions, world frame [m], shape (N, P) vec3f."""
        return self._read("pos")

    @property
    def nodal_vel_w(self) -> ProxyArray:
        """Nodal velocities, world frame [m/s], shape (N, P) vec3f."""
        return self._read("vel")

    @property
    def nodal_state_w(self) -> ProxyArray:
        """Nodal states (x, y, z [m], vx, vy, vz [m/s]), world frame, shape (N, P) vec6f."""
        return self._read("state")

    @property
    def root_pos_w(self) -> ProxyArray:
        """Mean nodal position, world frame [m], shape (N,) vec3f."""
        return self._read("root_pos")

    @property
    def root_vel_w(self) -> ProxyArray:
        """Mean nodal velocity, world frame [m/s], shape (N,) vec3f."""
        return self._read("root_vel")
