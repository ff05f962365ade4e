"""Per-env particle buffers of particle asset data, gathered lazily from the current simulation state."""

from __future__ import annotations

import numpy as np
import warp as wp
from isaaclab.utils.warp import ProxyArray

from ..physics import NewtonManager
from .particle_kernels import gather_particles_kernel, vec6f


def default_particle_states(indices: wp.array) -> ProxyArray:
    """The model's (spawned) particle states of ``indices``: (x, y, z [m], vx, vy, vz [m/s]), shape (N, P) vec6f.

    Args:
        indices: Model particle indices, shape (N, P), int32.
    """
    model = NewtonManager.get_model()
    rows = indices.numpy()
    states = np.concatenate((model.particle_q.numpy()[rows], model.particle_qd.numpy()[rows]), axis=-1)
    return ProxyArray(wp.array(states.astype(np.float32), dtype=vec6f, device=indices.device))


class ParticleBuffersMixin:
    """Positions, velocities and states (world frame) of N envs of P particles each, refreshed on read.

    Buffers are allocated once by :meth:`_init_particle_buffers` and gathered on the first read after the simulation
    state changed (a step, a write or a reset: :meth:`NewtonManager.get_state_stamp`, which also advances when whole
    env steps replay from a CUDA graph), so reads between steps cost nothing. A subclass computing more from the
    gathered buffers overrides :meth:`_derive`.
    """

    device: str

    def _init_particle_buffers(self, indices: wp.array) -> None:
        """Allocate the (N, P) buffers of the particles ``indices`` (model particle indices, int32)."""
        self._indices = indices
        n, p = indices.shape
        self._pos = wp.zeros((n, p), dtype=wp.vec3, device=self.device)
        self._vel = wp.zeros((n, p), dtype=wp.vec3, device=self.device)
        self._state = wp.zeros((n, p), dtype=vec6f, device=self.device)
        self._proxies = {name: ProxyArray(getattr(self, f"_{name}")) for name in ("pos", "vel", "state")}
        self._stamp = -1

    def _read(self, name: str) -> ProxyArray:
        """The buffer ``name`` (``"pos"``, ``"vel"``, ``"state"`` or a derived one), refreshed if the state changed."""
        stamp = NewtonManager.get_state_stamp()
        if self._stamp != stamp:
            state = NewtonManager.get_state_0()
            wp.launch(
                gather_particles_kernel,
                dim=self._indices.shape,
                inputs=[state.particle_q, state.particle_qd, self._indices],
                outputs=[self._pos, self._vel, self._state],
                device=self.device,
            )
            self._derive()
            self._stamp = stamp
        return self._proxies[name]

    def _derive(self) -> None:
        """Compute the subclass's derived buffers from the freshly gathered ones (nothing here)."""
