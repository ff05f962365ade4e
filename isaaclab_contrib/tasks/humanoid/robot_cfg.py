"""The humanoid robot, loaded offline from Newton's ``nv_humanoid.xml`` (21 actuated joints)."""

from __future__ import annotations

import newton.examples
from isaaclab.actuators import ImplicitActuatorCfg
from isaaclab.assets import ArticulationCfg

from isaaclab_newton.sim import MjcfFileCfg

HUMANOID_CFG = ArticulationCfg(
    spawn=MjcfFileCfg(
        asset_path=newton.examples.get_asset("nv_humanoid.xml"),
        enable_self_collisions=False,
        importer_kwargs={"ignore_names": ["floor"]},
    ),
    init_state=ArticulationCfg.InitialStateCfg(pos=(0.0, 0.0, 1.34), joint_pos={".*": 0.0}),
    actuators={
        "body": ImplicitActuatorCfg(joint_names_expr=[".*"], stiffness=0.0, damping=0.1, armature=0.01),
    },
)
"""Isaac Lab's humanoid settings (standing pose, effort-driven joints) on Newton's MJCF humanoid.

Bodies carry the MJCF names (``torso``, ``pelvis``, ``left_foot``, ...); joints keep the MJCF names
(``abdomen_y``, ``right_hip_x``, ``left_knee``, ...).
"""

JOINT_GEARS: dict[str, float] = {
    "abdomen_.*": 67.5,
    ".*_hip_x_.*_hip_y:[01]": 45.0,  # hip x and z axes of the 3-axis hip
    ".*_hip_y:2": 135.0,  # hip y (flexion) axis
    ".*_knee": 90.0,
    ".*_ankle_.*": 22.5,
    ".*_shoulder.*": 67.5,
    ".*_elbow": 45.0,
}
"""Effort per unit action [N m], from the ``gear`` of each motor in ``nv_humanoid.xml``.

The importer merges the hinges of one MJCF body into a multi-axis joint named after them in order
(``right_hip_x_right_hip_z_right_hip_y``); its axes are the joints ``<name>:0``, ``<name>:1``, ...
"""
