"""Particle state of a Newton MPM object in each environment, gathered lazily from the current state."""

from __future__ import annotations

import warp as wp
from isaaclab.utils.warp import ProxyArray

from ...physics import NewtonManager
from ..deformable_object.kernels import gather_nodal_kernel, vec6f


class MPMObjectData:
    """Positions, velocities and states (world frame) of N particle bodies of P particles each.

    Buffers are allocated once and gathered on the first read after the simulation state changed (a step, a
    write or a reset: :meth:`NewtonManager.get_state_stamp`), so reads between steps cost nothing.

    Args:
        indices: Model particle indices, shape (N, P), int32 on the simulation device.
        device: Device of the buffers.
    """

    def __init__(self, indices: wp.array, device: str):
        self.device = device
        self._indices = indices
        n, p = indices.shape
        self._pos = wp.zeros((n, p), dtype=wp.vec3, device=device)
        self._vel = wp.zeros((n, p), dtype=wp.vec3, device=device)
        self._state = wp.zeros((n, p), dtype=vec6f, device=device)
        self._proxies = {name: ProxyArray(getattr(self, f"_{name}")) for name in ("pos", "vel", "state")}
        self.default_particle_state_w = ProxyArray(wp.zeros((n, p), dtype=vec6f, device=device))
        """Default particle states (x, y, z [m], vx, vy, vz [m/s]), world frame, shape (N, P) vec6f: the spawned
        lattice, which :meth:`MPMObject.reset` restores."""
        self._stamp = -1

    def _refresh(self) -> None:
        stamp = NewtonManager.get_state_stamp()
        if self._stamp == stamp:
            return
        state = NewtonManager.get_state_0()
        wp.launch(
            gather_nodal_kernel,
            dim=self._indices.shape,
            inputs=[state.particle_q, state.particle_qd, self._indices],
            outputs=[self._pos, self._vel, self._state],
            device=self.device,
        )
        self._stamp = stamp

    @property
    def particle_pos_w(self) -> ProxyArray:
        """Particle positions, world frame [m], shape (N, P) vec3f."""
        self._refresh()
        return self._proxies["pos"]

    @property
    def particle_vel_w(self) -> ProxyArray:
        """Particle velocities, world frame [m/s], shape (N, P) vec3f."""
        self._refresh()
        return self._proxies["vel"]

    @property
    def particle_state_w(self) -> ProxyArray:
        """Particle states (x, y, z [m], vx, vy, vz [m/s]), world frame, shape (N, P) vec6f."""
        self._refresh()
        return self._proxies["state"]
