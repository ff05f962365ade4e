"""MDP pieces every Panda manipulation task here shares: the hand entity, the arm and gripper actions, and the
startup randomization of finger friction and arm drive gains."""

from __future__ import annotations

import isaaclab.envs.mdp as mdp
from isaaclab.managers import EventTermCfg as EventTerm
from isaaclab.managers import SceneEntityCfg
from isaaclab.utils import configclass

from .panda_cfg import PANDA_ARM_JOINTS, PANDA_FINGER_JOINTS, PANDA_FINGER_OPEN, PANDA_HAND_BODY

HAND = SceneEntityCfg("robot", body_names=PANDA_HAND_BODY)
"""The body carrying the hand, for grasp-point terms."""

FINGER_BODIES = "panda0_.*finger"
"""The two finger bodies."""


@configclass
class PandaActionsCfg:
    """Arm joint position offsets from the default pose (scale 0.5) and a binary gripper (open 0.04 m, closed 0)."""

    arm_action = mdp.JointPositionActionCfg(
        asset_name="robot", joint_names=[PANDA_ARM_JOINTS], scale=0.5, use_default_offset=True
    )
    gripper_action = mdp.BinaryJointPositionActionCfg(
        asset_name="robot",
        joint_names=[PANDA_FINGER_JOINTS],
        open_command_expr={PANDA_FINGER_JOINTS: PANDA_FINGER_OPEN},
        close_command_expr={PANDA_FINGER_JOINTS: 0.0},
    )


def finger_friction_event(*, scale_range: tuple[float, float] = (0.8, 1.2)) -> EventTerm:
    """Startup term drawing each env's finger friction (static and dynamic) from ``scale_range``."""
    return EventTerm(
        func=mdp.randomize_rigid_body_material,
        mode="startup",
        params={
            "asset_cfg": SceneEntityCfg("robot", body_names=FINGER_BODIES),
            "static_friction_range": scale_range,
            "dynamic_friction_range": scale_range,
            "restitution_range": (0.0, 0.0),
            "num_buckets": 64,
        },
    )


def arm_gains_event(*, scale_range: tuple[float, float] = (0.8, 1.2)) -> EventTerm:
    """Startup term scaling each env's arm drive stiffness and damping by factors drawn from ``scale_range``."""
    return EventTerm(
        func=mdp.randomize_actuator_gains,
        mode="startup",
        params={
            "asset_cfg": SceneEntityCfg("robot", joint_names=PANDA_ARM_JOINTS),
            "stiffness_distribution_params": scale_range,
            "damping_distribution_params": scale_range,
            "operation": "scale",
        },
    )
