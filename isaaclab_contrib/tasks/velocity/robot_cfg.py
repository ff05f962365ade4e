"""Unitree Go1 and G1 as Isaac Lab ``ArticulationCfg``s on the ``mjlab`` wheel's MJCF models (see ``unitree_assets``).

Actuator limits are the makers' motor specifications reflected at the joints. Go1: hip and thigh 23.7 N m and
30.1 rad/s, knee 35.55 N m and 20.06 rad/s (gear 6 and 9 on a rotor of 1.11842e-4 kg m^2, hence the armature).
G1 (Unitree's motor families): 5020 25 N m / 37 rad/s, 7520-14 88 N m / 32 rad/s, 7520-22 139 N m / 20 rad/s,
4010 5 N m / 22 rad/s; the waist pitch/roll and ankle joints are each driven by two 5020s through a linkage (taken
as 1:1, so twice the torque and armature). G1 gains place each joint's natural frequency at 10 Hz with damping
ratio 2 on its reflected armature. The joints are position-driven by Isaac Lab implicit actuators.
"""

from __future__ import annotations

import math

from isaaclab.actuators import ImplicitActuatorCfg
from isaaclab.assets import ArticulationCfg

from isaaclab_newton.sim import MjcfFileCfg

from .unitree_assets import ensure_g1_mjcf, ensure_go1_mjcf


def reflected_inertia(rotor_inertias: tuple[float, float, float], stage_ratios: tuple[float, float]) -> float:
    """Armature [kg m^2] of a motor with a two-stage planetary gearbox, seen at the output.

    Args:
        rotor_inertias: Inertia of the rotor, the first-stage carrier and the second-stage carrier [kg m^2].
        stage_ratios: Reduction of the first and second stage.
    """
    first, second = stage_ratios
    return rotor_inertias[0] * (first * second) ** 2 + rotor_inertias[1] * second**2 + rotor_inertias[2]


GO1_ROTOR_INERTIA = 1.11842e-4
"""Go1 rotor inertia about its axis [kg m^2] (Unitree's Go1 URDF)."""

GO1_CFG = ArticulationCfg(
    spawn=MjcfFileCfg(asset_path=ensure_go1_mjcf(), enable_self_collisions=False),
    init_state=ArticulationCfg.InitialStateCfg(
        pos=(0.0, 0.0, 0.4),
        joint_pos={
            ".*L_hip_joint": 0.1,
            ".*R_hip_joint": -0.1,
            "F[L,R]_thigh_joint": 0.8,
            "R[L,R]_thigh_joint": 1.0,
            ".*_calf_joint": -1.5,
        },
    ),
    soft_joint_pos_limit_factor=0.9,
    actuators={
        "hip_thigh": ImplicitActuatorCfg(
            joint_names_expr=[".*_hip_joint", ".*_thigh_joint"],
            joint_effort_limit=23.7,
            actuator_velocity_limit=30.1,
            stiffness=25.0,
            damping=0.5,
            armature=GO1_ROTOR_INERTIA * 6.0**2,
        ),
        "knee": ImplicitActuatorCfg(
            joint_names_expr=[".*_calf_joint"],
            joint_effort_limit=35.55,
            actuator_velocity_limit=20.06,
            stiffness=25.0,
            damping=0.5,
            armature=GO1_ROTOR_INERTIA * 9.0**2,
        ),
    },
)
"""Unitree Go1: 12 joints (``{FL,FR,RL,RR}_{hip,thigh,calf}_joint``), base ``trunk``, feet ``*_calf`` (sphere feet).

Standing pose and PD gains (25 N m/rad, 0.5 N m s/rad) of Isaac Lab's Unitree quadrupeds."""

_G1_MOTORS = {  # family: (joint patterns, effort [N m], velocity [rad/s], armature [kg m^2])
    "5020": (
        [
            ".*_elbow_joint",
            ".*_shoulder_pitch_joint",
            ".*_shoulder_roll_joint",
            ".*_shoulder_yaw_joint",
            ".*_wrist_roll_joint",
        ],
        25.0,
        37.0,
        reflected_inertia((0.139e-4, 0.017e-4, 0.169e-4), (1.0 + 46.0 / 18.0, 1.0 + 56.0 / 16.0)),
    ),
    "7520_14": (
        [".*_hip_pitch_joint", ".*_hip_yaw_joint", "waist_yaw_joint"],
        88.0,
        32.0,
        reflected_inertia((0.489e-4, 0.098e-4, 0.533e-4), (4.5, 1.0 + 48.0 / 22.0)),
    ),
    "7520_22": (
        [".*_hip_roll_joint", ".*_knee_joint"],
        139.0,
        20.0,
        reflected_inertia((0.489e-4, 0.109e-4, 0.738e-4), (4.5, 5.0)),
    ),
    "4010": (
        [".*_wrist_pitch_joint", ".*_wrist_yaw_joint"],
        5.0,
        22.0,
        reflected_inertia((0.068e-4, 0.0, 0.0), (5.0, 5.0)),
    ),
}
_G1_LINKAGES = {
    "waist": ["waist_pitch_joint", "waist_roll_joint"],
    "ankle": [".*_ankle_pitch_joint", ".*_ankle_roll_joint"],
}
_OMEGA = 2.0 * math.pi * 10.0  # natural frequency [rad/s]
_ZETA = 2.0  # damping ratio


def _g1_actuator(joints: list[str], effort: float, velocity: float, armature: float) -> ImplicitActuatorCfg:
    return ImplicitActuatorCfg(
        joint_names_expr=joints,
        joint_effort_limit=effort,
        actuator_velocity_limit=velocity,
        stiffness=armature * _OMEGA**2,
        damping=2.0 * _ZETA * armature * _OMEGA,
        armature=armature,
    )


_5020 = _G1_MOTORS["5020"]
_G1_ACTUATORS = {name: _g1_actuator(*spec) for name, spec in _G1_MOTORS.items()} | {
    name: _g1_actuator(joints, 2.0 * _5020[1], _5020[2], 2.0 * _5020[3]) for name, joints in _G1_LINKAGES.items()
}

G1_CFG = ArticulationCfg(
    spawn=MjcfFileCfg(asset_path=ensure_g1_mjcf(), enable_self_collisions=False),
    init_state=ArticulationCfg.InitialStateCfg(
        pos=(0.0, 0.0, 0.76),
        joint_pos={
            ".*_hip_pitch_joint": -0.312,
            ".*_knee_joint": 0.669,
            ".*_ankle_pitch_joint": -0.363,
            ".*_elbow_joint": 0.6,
            "left_shoulder_roll_joint": 0.2,
            "left_shoulder_pitch_joint": 0.2,
            "right_shoulder_roll_joint": -0.2,
            "right_shoulder_pitch_joint": 0.2,
        },
    ),
    soft_joint_pos_limit_factor=0.9,
    actuators=_G1_ACTUATORS,
)
"""Unitree G1 (29 joints): base ``pelvis``, torso ``torso_link``, feet ``*_ankle_roll_link``; knees slightly bent."""
