"""Multirotor data: the articulation's data plus the rotors' targets, thrusts and speeds."""

from __future__ import annotations

import warp as wp
from isaaclab.utils.warp import ProxyArray

from isaaclab_newton.assets import ArticulationData

_THRUSTER_BUFFERS = ("thrust_target", "thrust", "rotor_speed", "default_rotor_speed")


class MultirotorData(ArticulationData):
    """Articulation data with per-rotor buffers of shape (num_instances, num_thrusters), in thruster order.

    The thruster buffers have zero columns until :meth:`allocate_thrusters` runs (during the asset's
    initialization, once the rotors are resolved).
    """

    def __init__(self, root_view: None, device: str, binding):
        super().__init__(root_view, device, binding)
        self.allocate_thrusters(0)

    def allocate_thrusters(self, count: int) -> None:
        """Allocate the per-rotor buffers for ``count`` thrusters (zeros)."""
        for name in _THRUSTER_BUFFERS:
            self._static[name] = ProxyArray(
                wp.zeros((self._num_instances, count), dtype=wp.float32, device=self.device)
            )

    @property
    def thrust_target(self) -> ProxyArray:
        """Commanded thrust per rotor [N], before the thrust limits and motor lag."""
        return self._static["thrust_target"]

    @property
    def thrust(self) -> ProxyArray:
        """Thrust per rotor applied on the last physics step [N]."""
        return self._static["thrust"]

    @property
    def rotor_speed(self) -> ProxyArray:
        """Rotor speed magnitudes after the last physics step (unit of ``ThrusterCfg.thrust_const_range``)."""
        return self._static["rotor_speed"]

    @property
    def default_rotor_speed(self) -> ProxyArray:
        """Rotor speeds restored on reset (from ``MultirotorCfg.init_state.rps``)."""
        return self._static["default_rotor_speed"]
