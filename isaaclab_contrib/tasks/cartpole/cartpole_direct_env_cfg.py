"""Direct-workflow cartpole (``Isaac-Cartpole-Direct-v0``): Isaac Lab's environment with the offline robot."""

from __future__ import annotations

import math

import isaaclab.sim as sim_utils
from isaaclab.assets import ArticulationCfg, AssetBaseCfg
from isaaclab.envs import DirectRLEnvCfg
from isaaclab.scene import InteractiveSceneCfg
from isaaclab.sim import SimulationCfg
from isaaclab.utils import configclass, replace

from isaaclab_contrib.envs.cfg_checks import check_env_cfg
from isaaclab_contrib.envs.nonfinite import with_nonfinite_guard
from isaaclab_newton.sim import GroundPlaneCfg

from .physics_cfg import CARTPOLE_PHYSICS
from .robot_cfg import CARTPOLE_CFG


@configclass
class CartpoleSceneCfg(InteractiveSceneCfg):
    """Ground, one cartpole per environment and a light."""

    ground = AssetBaseCfg(prim_path="/World/ground", spawn=GroundPlaneCfg())
    cartpole: ArticulationCfg = replace(CARTPOLE_CFG, prim_path="{ENV_REGEX_NS}/Robot")
    light = AssetBaseCfg(prim_path="/World/Light", spawn=sim_utils.DistantLightCfg(intensity=2000.0))


@configclass
class CartpoleEnvCfg(DirectRLEnvCfg):
    """Isaac Lab's direct cartpole settings; observations are (cart pos, pole angle, cart vel, pole vel)."""

    decimation = 2
    episode_length_s = 5.0
    action_scale = 100.0  # [N]
    action_space = 1
    observation_space = 4
    state_space = 0

    sim: SimulationCfg = SimulationCfg(dt=1 / 120, render_interval=2, physics=CARTPOLE_PHYSICS.physics())

    cart_dof_name = "slider_to_cart"
    pole_dof_name = "cart_to_pole"

    scene: CartpoleSceneCfg = CartpoleSceneCfg(num_envs=4096, env_spacing=4.0, replicate_physics=True)

    max_cart_pos = 3.0  # [m]
    initial_cart_position_range = (-1.0, 1.0)  # [m]
    initial_cart_velocity_range = (-0.5, 0.5)  # [m/s]
    initial_pole_angle_range = (-0.25 * math.pi, 0.25 * math.pi)  # [rad]
    initial_pole_velocity_range = (-0.25 * math.pi, 0.25 * math.pi)  # [rad/s]
    rew_scale_alive = 1.0
    rew_scale_terminated = -2.0
    rew_scale_pole_pos = -1.0
    rew_scale_cart_vel = -0.01
    rew_scale_pole_vel = -0.005


def make_cartpole_direct_env(cfg: CartpoleEnvCfg, render_mode: str | None = None, **kwargs):
    """Build Isaac Lab's ``CartpoleEnv`` (from ``isaaclab_tasks``) with ``cfg``."""
    from .cartpole_direct_env import CartpoleMaskResetEnv

    check_env_cfg(cfg)
    return with_nonfinite_guard(CartpoleMaskResetEnv)(cfg, render_mode, **kwargs)
