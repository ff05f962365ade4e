"""The offline Franka Panda (``gymnasium-robotics`` MJCF) as the arm of the manipulation tasks.

Names on this model: arm joints ``robot:panda0_joint1..7``, finger joints ``robot:panda0_finger_joint1..2`` (two
independent slides, 0 to 0.04 m each), bodies ``panda0_link0..7`` and ``panda0_{left,right}finger``. The model has no
separate hand body: the hand's geometry sits on ``panda0_link7``, 0.107 m below upstream's ``panda_hand`` frame
(same z axis, turned -45 deg about it), and the grasp centre between the finger pads is 0.21 m along that axis.
"""

from __future__ import annotations

from isaaclab.actuators import ImplicitActuatorCfg
from isaaclab.assets import ArticulationCfg

from isaaclab_newton.sim import MjcfFileCfg

from .panda_asset import ensure_panda_grasp_mjcf

PANDA_ARM_JOINTS = "robot:panda0_joint.*"
"""The seven arm joints."""

PANDA_FINGER_JOINTS = "robot:panda0_finger_joint.*"
"""The two finger slides."""

PANDA_HAND_BODY = "panda0_link7"
"""The body carrying the hand (upstream's ``panda_hand`` is 0.107 m further along its z axis)."""

PANDA_GRASP_OFFSET = (0.0, 0.0, 0.21)
"""Grasp centre between the finger pads in the :data:`PANDA_HAND_BODY` frame [m] (the MJCF's ``end_effector``)."""

PANDA_FINGER_OPEN = 0.04
"""Finger joint position of the open gripper [m] (closed: 0)."""

PANDA_HOME = {
    "robot:panda0_joint1": 0.0,
    "robot:panda0_joint2": -0.569,
    "robot:panda0_joint3": 0.0,
    "robot:panda0_joint4": -2.81,
    "robot:panda0_joint5": 0.0,
    "robot:panda0_joint6": 3.037 - 1.5708,
    "robot:panda0_joint7": 0.741,
    PANDA_FINGER_JOINTS: PANDA_FINGER_OPEN,
}
"""Upstream's Franka default pose [rad, m]; this MJCF's joint 6 is offset by -pi/2 from the usual convention."""

PANDA_CFG = ArticulationCfg(
    prim_path="{ENV_REGEX_NS}/Robot",
    spawn=MjcfFileCfg(asset_path=ensure_panda_grasp_mjcf(), floating=False),
    init_state=ArticulationCfg.InitialStateCfg(joint_pos=PANDA_HOME),
    actuators={
        "shoulder": ImplicitActuatorCfg(
            joint_names_expr=["robot:panda0_joint[1-4]"], stiffness=870.0, damping=0.0, joint_effort_limit=87.0
        ),
        "forearm": ImplicitActuatorCfg(
            joint_names_expr=["robot:panda0_joint[5-7]"], stiffness=120.0, damping=0.0, joint_effort_limit=12.0
        ),
        "hand": ImplicitActuatorCfg(
            joint_names_expr=[PANDA_FINGER_JOINTS], stiffness=2000.0, damping=100.0, joint_effort_limit=15.0
        ),
    },
)
"""Fixed-base, gravity-compensated Panda (:mod:`.panda_asset`) driven as the wheel's own MJCF drives it: position
gains of its ``actuator.xml`` (870 N m/rad on joints 1-4, 120 on 5-7, the makers' 87 and 12 N m torque ratings) as
implicit drives without drive damping, the MJCF's passive joint damping (100 and 10 N m s/rad) damping them; each
finger 2000 N/m, 100 N s/m and 15 N (ample for a 100 g cube, soft on the pads)."""
