"""Configuration of a multirotor: an articulation whose root body carries rotor thrusters."""

from __future__ import annotations

from typing import Any

from isaaclab.assets import ArticulationCfg
from isaaclab.utils import configclass

from ...actuators import ThrusterCfg
from .multirotor import Multirotor


@configclass
class MultirotorCfg(ArticulationCfg):
    """A floating articulation driven by :class:`~isaaclab_contrib.actuators.ThrusterCfg` groups in ``actuators``.

    Thrusts act on the root body: the body-frame wrench ``(F [N], M [N m]) = allocation_matrix @ thrust`` about
    the root body's origin, applied at its center of mass every physics step. Other actuator groups (joint
    actuators, e.g. for spinning propeller joints) work as in :class:`~isaaclab.assets.ArticulationCfg`.
    """

    @configclass
    class InitialStateCfg(ArticulationCfg.InitialStateCfg):
        """Initial state of the multirotor."""

        rps: dict[str, float] = {".*": 0.0}
        """Rotor speeds by thruster-name expression, in the unit of ``ThrusterCfg.thrust_const_range``."""

    class_type: type = Multirotor

    init_state: InitialStateCfg = InitialStateCfg()

    rotor_directions: list[int] | None = None
    """Spin direction (+1 or -1) of each thruster, in thruster order; ``None`` means all +1."""

    allocation_matrix: list[list[float]] | None = None
    """(6, num_thrusters) map from rotor thrusts [N] to the body-frame wrench about the root body origin (rows
    Fx, Fy, Fz [N], Mx, My, Mz [N m]). ``None`` derives it from the rotor bodies' positions in the root frame
    (thrust along root +z, yaw moment ``direction * torque_to_thrust_ratio``). When given, its yaw row must
    equal ``rotor_directions * torque_to_thrust_ratio``."""

    def _post_spawn(self, stage: Any) -> None:
        """Author Newton actuator prims for the joint actuator groups only (thrusters are not joint actuators)."""
        joint_groups = {k: v for k, v in self.actuators.items() if not isinstance(v, ThrusterCfg)}
        if joint_groups:
            from isaaclab.sim.schemas.schemas_actuators import define_actuator_properties

            path = self.spawn.spawn_path if self.spawn is not None and self.spawn.spawn_path else self.prim_path
            define_actuator_properties(path, joint_groups, stage=stage)
