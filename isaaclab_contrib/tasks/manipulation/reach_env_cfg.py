"""``Isaac-Reach-Franka-v0``, ``-IK-v0`` and ``-Hold-v0``: upstream's Franka reach configs on the offline Panda.

All are upstream's ``FrankaReachEnvCfg`` (``isaaclab_tasks.core.reach``) with its ``newton_mjwarp`` physics, the
robot swapped by :func:`~isaaclab_contrib.tasks.manipulation.reach_swap.swap_reach_robot`. The default ends an
episode once the hand is within 5 cm and 0.2 rad of its goal (upstream's ``success`` termination); the IK variant
selects upstream's ``newton_ik`` arm preset (relative pose commands solved by
:class:`~isaaclab_newton.controllers.ik.NewtonIKSolver`); the hold variant selects upstream's ``hold`` preset (one
goal for the whole episode, no success termination, a per-step reward while within the tolerances, the pose error
observed), which trains a policy to reach and stay. Upstream's hold preset also softens its Franka's arm gains; the
swapped Panda keeps its own. Added, as every task here has: the ``nonfinite_state``
termination (NaN worlds end their episode and reset); dropped: upstream's MuJoCo Warp ``update_data_interval=2``,
deprecated in Newton 1.8.
"""

from __future__ import annotations

from isaaclab.managers import TerminationTermCfg as DoneTerm
from isaaclab.utils import configclass

from isaaclab_contrib.envs.nonfinite import nonfinite_state

from .reach_swap import resolve_reach_presets, swap_reach_robot, upstream_reach_module

_franka = upstream_reach_module()


@configclass
class FrankaReachEnvCfg(_franka.FrankaReachEnvCfg):
    """Upstream's Franka reach (joint-position arm action) on the offline Panda."""

    upstream_presets: tuple[str, ...] = ()
    """Upstream presets selected after ``newton_mjwarp`` (the IK variant's ``newton_ik``)."""

    def __post_init__(self):
        super().__post_init__()
        resolve_reach_presets(self, self.upstream_presets)
        swap_reach_robot(self)
        # upstream's update_data_interval=2 is deprecated in Newton 1.8 (its data then syncs from the state every step)
        self.sim.physics.solver_cfg.update_data_interval = None
        self.terminations.nonfinite_state = DoneTerm(func=nonfinite_state)


@configclass
class FrankaReachIKEnvCfg(FrankaReachEnvCfg):
    """Upstream's Franka reach with the Newton IK arm action (relative pose) on the offline Panda."""

    upstream_presets: tuple[str, ...] = ("newton_ik",)


@configclass
class FrankaReachHoldEnvCfg(FrankaReachEnvCfg):
    """Upstream's Franka reach with its ``hold`` preset (reach the episode's one goal and stay) on the offline Panda."""

    upstream_presets: tuple[str, ...] = ("hold",)
