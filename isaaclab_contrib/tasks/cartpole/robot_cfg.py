"""The cartpole robot, loaded offline from the USD file shipped in the ``newton`` wheel."""

from __future__ import annotations

import newton.examples
from isaaclab.actuators import ImplicitActuatorCfg
from isaaclab.assets import ArticulationCfg

from isaaclab_newton.sim import NewtonUsdFileCfg
from isaaclab_newton.sim.schemas import NewtonArticulationCfg

CARTPOLE_CFG = ArticulationCfg(
    spawn=NewtonUsdFileCfg(
        asset_path=newton.examples.get_asset("cartpole_single_pendulum.usda"),
        root_path="/cartpole",
        articulation_props=[NewtonArticulationCfg(self_collision_enabled=False)],
    ),
    init_state=ArticulationCfg.InitialStateCfg(
        pos=(0.0, 0.0, 2.0), joint_pos={"slider_to_cart": 0.0, "cart_to_pole": 0.0}
    ),
    actuators={
        "cart_actuator": ImplicitActuatorCfg(
            joint_names_expr=["slider_to_cart"], joint_effort_limit=400.0, stiffness=0.0, damping=10.0
        ),
        "pole_actuator": ImplicitActuatorCfg(
            joint_names_expr=["cart_to_pole"], joint_effort_limit=400.0, stiffness=0.0, damping=0.0
        ),
    },
)
"""Isaac Lab's cartpole (same joints, limits and actuators), from Newton's ``cartpole_single_pendulum.usda``."""
