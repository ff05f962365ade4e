"""Particle state of a Newton MPM object in each environment, gathered lazily from the current state."""

from __future__ import annotations

import warp as wp
from isaaclab.utils.warp import ProxyArray

from ..particle_data import ParticleBuffersMixin, default_particle_states


class MPMObjectData(ParticleBuffersMixin):
    """Positions, velocities and states (world frame) of N particle bodies of P particles each.

    Buffers refresh on the first read after the simulation state changed (see
    :class:`~isaaclab_newton.assets.particle_data.ParticleBuffersMixin`).

    Args:
        indices: Model particle indices, shape (N, P), int32 on the simulation device.
        device: Device of the buffers.
    """

    def __init__(self, indices: wp.array, device: str):
        self.device = device
        self._init_particle_buffers(indices)
        self.default_particle_state_w = default_particle_states(indices)
        """Default particle states (x, y, z [m], vx, vy, vz [m/s]), world frame, shape (N, P) vec6f: the spawned
        lattice, which :meth:`MPMObject.reset` restores."""

    @property
    def particle_pos_w(self) -> ProxyArray:
        """Particle positions, world frame [m], shape (N, P) vec3f."""
        return self._read("pos")

    @property
    def particle_vel_w(self) -> ProxyArray:
        """Particle velocities, world frame [m/s], shape (N, P) vec3f."""
        return self._read("vel")

    @property
    def particle_state_w(self) -> ProxyArray:
        """Particle states (x, y, z [m], vx, vy, vz [m/s]), world frame, shape (N, P) vec6f."""
        return self._read("state")
