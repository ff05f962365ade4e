"""Manager-based cartpole (``Isaac-Cartpole-v0``): Isaac Lab's MDP terms with the offline robot.

Observations: ``policy`` = (joint_pos_rel (2), joint_vel_rel (2)), shape (num_envs, 4).
"""

from __future__ import annotations

import math

import isaaclab.envs.mdp as mdp
import isaaclab.sim as sim_utils
from isaaclab.assets import ArticulationCfg, AssetBaseCfg
from isaaclab.envs import ManagerBasedRLEnvCfg
from isaaclab.managers import EventTermCfg as EventTerm
from isaaclab.managers import ObservationGroupCfg as ObsGroup
from isaaclab.managers import ObservationTermCfg as ObsTerm
from isaaclab.managers import RewardTermCfg as RewTerm
from isaaclab.managers import SceneEntityCfg
from isaaclab.managers import TerminationTermCfg as DoneTerm
from isaaclab.scene import InteractiveSceneCfg
from isaaclab.utils import configclass, replace

from isaaclab_contrib.envs.cfg_checks import check_env_cfg
from isaaclab_contrib.envs.nonfinite import nonfinite_state
from isaaclab_newton.sim import GroundPlaneCfg

from .physics_cfg import CARTPOLE_PHYSICS
from .robot_cfg import CARTPOLE_CFG


@configclass
class CartpoleSceneCfg(InteractiveSceneCfg):
    """Ground, one cartpole per environment and a light."""

    ground = AssetBaseCfg(prim_path="/World/ground", spawn=GroundPlaneCfg())
    robot: ArticulationCfg = replace(CARTPOLE_CFG, prim_path="{ENV_REGEX_NS}/Robot")
    distant_light = AssetBaseCfg(prim_path="/World/DistantLight", spawn=sim_utils.DistantLightCfg(intensity=2000.0))


@configclass
class ActionsCfg:
    """Cart force [N] = 100 x action."""

    joint_effort = mdp.JointEffortActionCfg(asset_name="robot", joint_names=["slider_to_cart"], scale=100.0)


@configclass
class ObservationsCfg:
    """Joint positions and velocities relative to their defaults."""

    @configclass
    class PolicyCfg(ObsGroup):
        joint_pos_rel = ObsTerm(func=mdp.joint_pos_rel)
        joint_vel_rel = ObsTerm(func=mdp.joint_vel_rel)

        def __post_init__(self):
            self.enable_corruption = False
            self.concatenate_terms = True

    policy: PolicyCfg = PolicyCfg()


@configclass
class EventCfg:
    """Random cart and pole states on reset."""

    reset_cart_position = EventTerm(
        func=mdp.reset_joints_by_offset,
        mode="reset",
        params={
            "asset_cfg": SceneEntityCfg("robot", joint_names=["slider_to_cart"]),
            "position_range": (-1.0, 1.0),
            "velocity_range": (-0.5, 0.5),
        },
    )
    reset_pole_position = EventTerm(
        func=mdp.reset_joints_by_offset,
        mode="reset",
        params={
            "asset_cfg": SceneEntityCfg("robot", joint_names=["cart_to_pole"]),
            "position_range": (-0.25 * math.pi, 0.25 * math.pi),
            "velocity_range": (-0.25 * math.pi, 0.25 * math.pi),
        },
    )


@configclass
class RewardsCfg:
    """Isaac Lab's cartpole rewards."""

    alive = RewTerm(func=mdp.is_alive, weight=1.0)
    terminating = RewTerm(func=mdp.is_terminated, weight=-2.0)
    pole_pos = RewTerm(
        func=mdp.joint_pos_target_l2,
        weight=-1.0,
        params={"asset_cfg": SceneEntityCfg("robot", joint_names=["cart_to_pole"]), "target": 0.0},
    )
    cart_vel = RewTerm(
        func=mdp.joint_vel_l1,
        weight=-0.01,
        params={"asset_cfg": SceneEntityCfg("robot", joint_names=["slider_to_cart"])},
    )
    pole_vel = RewTerm(
        func=mdp.joint_vel_l1,
        weight=-0.005,
        params={"asset_cfg": SceneEntityCfg("robot", joint_names=["cart_to_pole"])},
    )


@configclass
class TerminationsCfg:
    """Time out, the cart leaves [-3, 3] m, or the world's state went non-finite (NaN/inf)."""

    time_out = DoneTerm(func=mdp.time_out, time_out=True)
    nonfinite_state = DoneTerm(func=nonfinite_state)
    cart_out_of_bounds = DoneTerm(
        func=mdp.joint_pos_out_of_manual_limit,
        params={"asset_cfg": SceneEntityCfg("robot", joint_names=["slider_to_cart"]), "bounds": (-3.0, 3.0)},
    )


@configclass
class CartpoleEnvCfg(ManagerBasedRLEnvCfg):
    """Manager-based cartpole on the cartpole physics presets (:data:`~.physics_cfg.CARTPOLE_PHYSICS`)."""

    scene: CartpoleSceneCfg = CartpoleSceneCfg(num_envs=4096, env_spacing=4.0)
    observations: ObservationsCfg = ObservationsCfg()
    actions: ActionsCfg = ActionsCfg()
    rewards: RewardsCfg = RewardsCfg()
    terminations: TerminationsCfg = TerminationsCfg()
    events: EventCfg = EventCfg()

    def __post_init__(self):
        self.decimation = 2
        self.episode_length_s = 5
        self.sim.dt = 1 / 120
        self.sim.render_interval = self.decimation
        self.sim.physics = CARTPOLE_PHYSICS.physics()


def make_cartpole_manager_env(cfg: CartpoleEnvCfg, render_mode: str | None = None, **kwargs):
    """Build :class:`~..manager_based_env.ManagerBasedRLEnvOnNewton` with ``cfg``."""
    from isaaclab_contrib.envs.manager_based_env import ManagerBasedRLEnvOnNewton

    check_env_cfg(cfg)
    return ManagerBasedRLEnvOnNewton(cfg, render_mode, **kwargs)
