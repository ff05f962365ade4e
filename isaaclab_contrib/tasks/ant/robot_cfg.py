"""The ant robot, loaded offline from Newton's ``nv_ant.xml`` (MuJoCo ant, density 5)."""

from __future__ import annotations

import newton.examples
from isaaclab.actuators import ImplicitActuatorCfg
from isaaclab.assets import ArticulationCfg

from isaaclab_newton.sim import MjcfFileCfg

ANT_CFG = ArticulationCfg(
    spawn=MjcfFileCfg(
        asset_path=newton.examples.get_asset("nv_ant.xml"),
        enable_self_collisions=False,
        importer_kwargs={"ignore_names": ["floor"]},
    ),
    init_state=ArticulationCfg.InitialStateCfg(
        pos=(0.0, 0.0, 0.6),
        joint_pos={"hip_.*": 0.0, "ankle_1": 0.785398, "ankle_2": -0.785398, "ankle_3": -0.785398, "ankle_4": 0.785398},
    ),
    actuators={
        "body": ImplicitActuatorCfg(
            joint_names_expr=[".*"], stiffness=0.0, damping=0.1, armature=0.05, joint_effort_limit=15.0
        ),
    },
)
"""Isaac Lab's ant settings (45 degree ankles, 15 N m effort limit) on Newton's MJCF ant.

The torso starts at 0.6 m (Isaac Lab's USD ant: 0.5 m): the MJCF feet are 0.4 m long capsules (radius 0.08 m)
and the reset adds up to 0.2 rad to the ankles, which at 0.5 m puts the feet up to 5 cm into the ground; penalty
and position-based contacts then throw the ant upward.

The bodies carry Isaac Lab's names (``torso``, ``front_left_foot``, ...); the joints keep the MJCF names
``hip_1..4`` and ``ankle_1..4`` (Isaac Lab's USD calls them ``*_leg`` and ``*_foot``).
"""
