"""Direct-workflow ant (``Isaac-Ant-Direct-v0``): Isaac Lab's locomotion environment with the offline robot.

Observations (60): torso height, body-frame linear (3) and angular (3) velocities, yaw, roll, angle to
target, up and heading projections (4), joint positions scaled to limits (8), joint velocities (8), feet
incoming joint wrenches (4 x 6) and the previous actions (8). The feet wrenches come from a
:class:`~isaaclab.sensors.JointWrenchSensorCfg`, which needs the Newton sensor backend
(``isaaclab_newton.sensors.joint_wrench``).
"""

from __future__ import annotations

import isaaclab.sim as sim_utils
from isaaclab.assets import ArticulationCfg, AssetBaseCfg
from isaaclab.envs import DirectRLEnvCfg
from isaaclab.scene import InteractiveSceneCfg
from isaaclab.sensors import JointWrenchSensorCfg
from isaaclab.sim import SimulationCfg
from isaaclab.utils import configclass, replace

from isaaclab_newton.sim import GroundPlaneCfg

from ..physics_presets import direct_locomotion_physics
from .robot_cfg import ANT_CFG

ANT_PHYSICS = direct_locomotion_physics(
    "ant",
    njmax=45,
    nconmax=25,
    # penalty contacts need 8 substeps (1/960 s): with 4 the light feet bounce off and the ant is thrown upward
    featherstone_substeps=8,
    xpbd_outcome=(
        "the light MJCF legs (density 5) spin up under the 7.5 N m efforts and the ant is thrown meters into the air"
    ),
)
"""Physics of the ant tasks: MuJoCo Warp (default) or Featherstone."""


@configclass
class AntDirectSceneCfg(InteractiveSceneCfg):
    """Ground (friction 1), one ant per environment, the feet wrench sensor and a light."""

    ground = AssetBaseCfg(prim_path="/World/ground", spawn=GroundPlaneCfg(static_friction=1.0))
    robot: ArticulationCfg = replace(ANT_CFG, prim_path="{ENV_REGEX_NS}/Robot")
    joint_wrench = JointWrenchSensorCfg(prim_path="{ENV_REGEX_NS}/Robot")
    light = AssetBaseCfg(prim_path="/World/Light", spawn=sim_utils.DomeLightCfg(intensity=2000.0))


@configclass
class AntEnvCfg(DirectRLEnvCfg):
    """Isaac Lab's direct ant settings."""

    episode_length_s = 16.0
    decimation = 2
    action_scale = 0.5
    action_space = 8
    observation_space = 60
    state_space = 0

    sim: SimulationCfg = SimulationCfg(dt=1 / 120, render_interval=2, physics=ANT_PHYSICS.physics())

    scene: AntDirectSceneCfg = AntDirectSceneCfg(num_envs=4096, env_spacing=5.0, replicate_physics=True)

    joint_gears: dict[str, float] = {".*": 15.0}  # [N m]
    feet_body_names: list[str] = ["front_left_foot", "front_right_foot", "left_back_foot", "right_back_foot"]
    target_pos: tuple[float, float, float] = (1000.0, 0.0, 0.0)  # [m], relative to the env origin

    initial_joint_pos_range: tuple[float, float] = (-0.2, 0.2)  # [rad]
    initial_joint_vel_range: tuple[float, float] = (-0.1, 0.1)  # [rad/s]

    heading_weight: float = 0.5
    up_weight: float = 0.1
    energy_cost_scale: float = 0.05
    actions_cost_scale: float = 0.005
    alive_reward_scale: float = 0.5
    joint_pos_limits_cost_scale: float = 0.1
    joint_pos_limits_threshold: float = 0.99
    death_cost: float = -2.0
    termination_height: float = 0.31  # [m]
    dof_vel_scale: float = 0.2
    angular_velocity_scale: float = 1.0
    contact_force_scale: float = 0.1
