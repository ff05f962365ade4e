"""``Isaac-Reorient-Cube-Shadow-v0``: upstream's manager-based Shadow reorientation config on the offline hand.

:class:`ReorientShadowManagerEnvCfg` is upstream's ``ShadowHandManagerEnvCfg``
(``isaaclab_tasks.core.reorient.config.shadow_hand``) with only what names upstream's robot or needs its Nucleus
assets changed: the hand (the gymnasium-robotics Shadow hand, :mod:`.robot_cfg`), the cube (a primitive of the same
5 cm size), the ground (Newton's plane), the actuated joints and fingertip bodies (this MJCF's names), the physics
(upstream's own MuJoCo Warp preset as a plain ``NewtonCfg``), no light and no goal marker (Nucleus assets), and the
reset events without upstream's ``randomized`` preset terms. The goal command, the joint action and the two reset
events run as upstream's on the index path and have mask forms (:mod:`.mask_terms`), so on CUDA whole steps replay
from one CUDA graph.
Observations, commands, rewards, terminations and the reset events stay upstream's.

One term goes: upstream's hand has four motors that pull a tendon across each finger's middle and distal joints
(``tendon_pos``, a fixed-tendon position action). The wheel's hand has no tendon actuators: its middle joints have
motors of their own (in :data:`~.robot_cfg.ACTUATED_JOINTS`, driven by the joint term) and its fixed tendons couple
each distal joint to its middle joint passively. The joint term therefore drives 20 joints and the action has 20
entries, as upstream's 16 joint + 4 tendon entries.
"""

from __future__ import annotations

from isaaclab.assets import AssetBaseCfg
from isaaclab.utils import configclass

from isaaclab_contrib.envs.cfg_checks import check_env_cfg
from isaaclab_contrib.upstream.modules import import_isaaclab_tasks_submodule, load_isaaclab_tasks_module
from isaaclab_newton.sim import GroundPlaneCfg

from .mask_terms import (
    MaskedEMAJointPositionToLimitsAction,
    MaskedReorientCommand,
    reset_hand_joints,
    reset_object_random_orientation,
)
from .robot_cfg import ACTUATED_JOINTS, FINGERTIP_BODIES, cube_cfg, reorient_physics, shadow_hand_cfg

_PACKAGE = "core/reorient/config/shadow_hand"
_MODULE = "isaaclab_tasks." + _PACKAGE.replace("/", ".")
import_isaaclab_tasks_submodule("core.reorient.reorient_manager_env_cfg")  # what the configs import relatively
# the two config files are loaded by file: their package's __init__ registers upstream's unversioned task ids
_COMMON = load_isaaclab_tasks_module(f"{_PACKAGE}/shadow_hand_common.py", f"{_MODULE}.shadow_hand_common")
_UPSTREAM = load_isaaclab_tasks_module(
    f"{_PACKAGE}/shadow_hand_manager_env_cfg.py", f"{_MODULE}.shadow_hand_manager_env_cfg"
)


@configclass
class ReorientShadowManagerEnvCfg(_UPSTREAM.ShadowHandManagerEnvCfg):
    """Upstream's ``ShadowHandManagerEnvCfg`` with the offline hand and cube swapped in (see the module docstring)."""

    def __post_init__(self):
        self.scene.robot = shadow_hand_cfg()
        self.scene.object = cube_cfg()
        self.scene.ground = AssetBaseCfg(prim_path="/World/ground", spawn=GroundPlaneCfg())
        self.scene.light = None
        self.events = _COMMON.ShadowHandManagerResetEventCfg()
        self.events.reset_object.func = reset_object_random_orientation
        self.events.reset_hand.func = reset_hand_joints
        self.commands.object_pose.class_type = MaskedReorientCommand
        self.actions.joint_pos.class_type = MaskedEMAJointPositionToLimitsAction
        self.actions.tendon_pos = None
        self.fingertip_body_names = FINGERTIP_BODIES
        self.actuated_joint_names = ACTUATED_JOINTS
        self.commands.object_pose.debug_vis = False
        super().__post_init__()  # binds the fingertip and joint names into the terms
        self.sim.physics = reorient_physics()


def make_reorient_shadow_manager_env(cfg, render_mode: str | None = None, **kwargs):
    """Build :class:`~isaaclab_contrib.envs.manager_based_env.ManagerBasedRLEnvOnNewton` with ``cfg``."""
    from isaaclab_contrib.envs.manager_based_env import ManagerBasedRLEnvOnNewton

    check_env_cfg(cfg)
    return ManagerBasedRLEnvOnNewton(cfg, render_mode, **kwargs)
