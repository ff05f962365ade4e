"""Direct-workflow humanoid (``Isaac-Humanoid-Direct-v0``): Isaac Lab's locomotion environment, offline robot.

Observations (87): torso height, body-frame linear (3) and angular (3) velocities, yaw, roll, angle to target,
up and heading projections (4), joint positions scaled to limits (21), joint velocities (21), feet incoming joint
wrenches (2 x 6) and the previous actions (21).
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
from .robot_cfg import HUMANOID_CFG, JOINT_GEARS

HUMANOID_PHYSICS = direct_locomotion_physics(
    "humanoid",
    njmax=80,
    nconmax=25,
    featherstone_substeps=4,
    xpbd_outcome="under random efforts the humanoid's state turns NaN within a few steps",
)
"""Physics of the humanoid task: MuJoCo Warp (default) or Featherstone."""


@configclass
class HumanoidDirectSceneCfg(InteractiveSceneCfg):
    """Ground (friction 1), one humanoid per environment, the feet wrench sensor and a light."""

    ground = AssetBaseCfg(prim_path="/World/ground", spawn=GroundPlaneCfg(static_friction=1.0))
    robot: ArticulationCfg = replace(HUMANOID_CFG, prim_path="{ENV_REGEX_NS}/Robot")
    joint_wrench = JointWrenchSensorCfg(prim_path="{ENV_REGEX_NS}/Robot")
    light = AssetBaseCfg(prim_path="/World/Light", spawn=sim_utils.DomeLightCfg(intensity=2000.0))


@configclass
class HumanoidEnvCfg(DirectRLEnvCfg):
    """Isaac Lab's direct humanoid settings."""

    episode_length_s = 16.0
    decimation = 2
    action_scale = 1.0
    action_space = 21
    observation_space = 87
    state_space = 0

    sim: SimulationCfg = SimulationCfg(dt=1 / 120, render_interval=2, physics=HUMANOID_PHYSICS.physics())

    scene: HumanoidDirectSceneCfg = HumanoidDirectSceneCfg(num_envs=4096, env_spacing=5.0, replicate_physics=True)

    joint_gears: dict[str, float] = JOINT_GEARS
    feet_body_names: list[str] = ["left_foot", "right_foot"]
    target_pos: tuple[float, float, float] = (1000.0, 0.0, 0.0)  # [m], relative to the env origin

    initial_joint_pos_range: tuple[float, float] = (-0.2, 0.2)  # [rad]
    initial_joint_vel_range: tuple[float, float] = (-0.1, 0.1)  # [rad/s]

    heading_weight: float = 0.5
    up_weight: float = 0.1
    energy_cost_scale: float = 0.005
    actions_cost_scale: float = 0.01
    alive_reward_scale: float = 2.0
    joint_pos_limits_cost_scale: float = 0.25
    joint_pos_limits_threshold: float = 0.98
    death_cost: float = -1.0
    termination_height: float = 0.8  # [m]
    dof_vel_scale: float = 0.1
    angular_velocity_scale: float = 0.25
    contact_force_scale: float = 0.01
