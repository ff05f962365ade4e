"""``Isaac-Open-Drawer-Franka-v0``: the Panda grasps a drawer's handle and pulls the drawer open.

Our own manager-based config: upstream's ``Isaac-Open-Drawer-Franka`` (``isaaclab_tasks.core.cabinet``) opens the
Sektion cabinet, a USD on Isaac's asset server, and its terms observe that model's frames (``drawer_handle_top``)
through a frame transformer; the offline drawer here is a box cabinet written as MJCF
(:mod:`.cabinet_asset`: a prismatic joint, 0 to 0.35 m, 10 N s/m damping). The MDP follows upstream's:

* actions (8): arm joint position offsets from the default pose (scale 0.5) and a binary gripper;
* observations (31): joint positions and velocities relative to default (9 + 9), the drawer's opening and its rate
  (1 + 1), the vector from the grasp point to the handle (3), the last action (8);
* rewards: approach the handle (``1 - tanh(d / 0.1)``, weight 2), close the gripper on it (within 3 cm, 0.5),
  the drawer's opening (clamped to the 0.35 m travel, 10 per m), action rate (-1e-2) and joint velocity (-1e-4);
* terminations: time-out (8 s), non-finite state;
* resets (by mask): arm joints at default plus +-0.1 rad, the drawer closed;
* physics randomization at startup: finger friction 0.8-1.2, arm gains x0.8-1.2, drawer mass x0.8-1.2.
"""

from __future__ import annotations

import isaaclab.envs.mdp as mdp
from isaaclab.actuators import ImplicitActuatorCfg
from isaaclab.assets import ArticulationCfg, AssetBaseCfg
from isaaclab.envs import ManagerBasedRLEnvCfg
from isaaclab.managers import EventTermCfg as EventTerm
from isaaclab.managers import ObservationGroupCfg as ObsGroup
from isaaclab.managers import ObservationTermCfg as ObsTerm
from isaaclab.managers import RewardTermCfg as RewTerm
from isaaclab.managers import SceneEntityCfg
from isaaclab.managers import TerminationTermCfg as DoneTerm
from isaaclab.scene import InteractiveSceneCfg
from isaaclab.utils import configclass

from isaaclab_contrib.envs.nonfinite import nonfinite_state
from isaaclab_newton.sim import GroundPlaneCfg, MjcfFileCfg

from . import mdp as task_mdp
from .cabinet_asset import DRAWER_TRAVEL, ensure_cabinet_mjcf
from .panda_cfg import PANDA_ARM_JOINTS, PANDA_CFG, PANDA_FINGER_JOINTS
from .panda_terms import HAND, PandaActionsCfg, arm_gains_event, finger_friction_event
from .physics_cfg import grasp_physics

CABINET_POS = (0.83, 0.0, 0.0)
"""Cabinet origin in the env frame [m]: the closed handle 0.55 m in front of the robot, 0.28 m up."""

CABINET_CFG = ArticulationCfg(
    prim_path="{ENV_REGEX_NS}/Cabinet",
    spawn=MjcfFileCfg(asset_path=ensure_cabinet_mjcf(), floating=False),
    init_state=ArticulationCfg.InitialStateCfg(pos=CABINET_POS, joint_pos={"drawer_joint": 0.0}),
    actuators={"drawer": ImplicitActuatorCfg(joint_names_expr=["drawer_joint"], stiffness=0.0, damping=0.0)},
)
"""The box cabinet, fixed to the ground; its drawer joint is passive (the MJCF's damping, a drive without gains)."""

DRAWER = SceneEntityCfg("cabinet", joint_names="drawer_joint")
HANDLE = SceneEntityCfg("cabinet", body_names="handle")
FINGERS = SceneEntityCfg("robot", joint_names=PANDA_FINGER_JOINTS)


@configclass
class OpenDrawerSceneCfg(InteractiveSceneCfg):
    """Ground, the Panda at the env origin, the cabinet facing it."""

    ground = AssetBaseCfg(prim_path="/World/ground", spawn=GroundPlaneCfg())
    robot: ArticulationCfg = PANDA_CFG
    cabinet: ArticulationCfg = CABINET_CFG


@configclass
class ObservationsCfg:
    """Policy observations (concatenated)."""

    @configclass
    class PolicyCfg(ObsGroup):
        joint_pos = ObsTerm(func=mdp.joint_pos_rel)
        joint_vel = ObsTerm(func=mdp.joint_vel_rel)
        drawer_opening = ObsTerm(func=task_mdp.joint_position, params={"asset_cfg": DRAWER})
        drawer_rate = ObsTerm(func=mdp.joint_vel_rel, params={"asset_cfg": DRAWER})
        to_handle = ObsTerm(func=task_mdp.grasp_point_to_body, params={"hand_cfg": HAND, "body_cfg": HANDLE})
        actions = ObsTerm(func=mdp.last_action)

        def __post_init__(self):
            self.enable_corruption = True
            self.concatenate_terms = True

    policy: PolicyCfg = PolicyCfg()


@configclass
class EventCfg:
    """Startup physics randomization and the mask-safe resets."""

    finger_material = finger_friction_event()
    arm_gains = arm_gains_event()
    drawer_mass = EventTerm(
        func=mdp.randomize_rigid_body_mass,
        mode="startup",
        params={
            "asset_cfg": SceneEntityCfg("cabinet", body_names="drawer"),
            "mass_distribution_params": (0.8, 1.2),
            "operation": "scale",
        },
    )
    reset_robot_joints = EventTerm(
        func=mdp.reset_joints_by_offset,
        mode="reset",
        params={
            "position_range": (-0.1, 0.1),
            "velocity_range": (0.0, 0.0),
            "asset_cfg": SceneEntityCfg("robot", joint_names=PANDA_ARM_JOINTS),
        },
    )
    reset_fingers = EventTerm(
        func=mdp.reset_joints_by_offset,
        mode="reset",
        params={"position_range": (0.0, 0.0), "velocity_range": (0.0, 0.0), "asset_cfg": FINGERS},
    )
    reset_drawer = EventTerm(
        func=mdp.reset_joints_by_offset,
        mode="reset",
        params={"position_range": (0.0, 0.0), "velocity_range": (0.0, 0.0), "asset_cfg": DRAWER},
    )


@configclass
class RewardsCfg:
    """Approach, grasp and open; action rate and joint velocity penalties."""

    approach_handle = RewTerm(
        func=task_mdp.body_grasp_distance, weight=2.0, params={"std": 0.1, "hand_cfg": HAND, "body_cfg": HANDLE}
    )
    grasp_handle = RewTerm(
        func=task_mdp.gripper_closed_near_body,
        weight=0.5,
        params={"radius": 0.03, "hand_cfg": HAND, "body_cfg": HANDLE, "fingers_cfg": FINGERS},
    )
    open_drawer = RewTerm(
        func=task_mdp.joint_position_clamped, weight=10.0, params={"asset_cfg": DRAWER, "limit": DRAWER_TRAVEL}
    )
    action_rate = RewTerm(func=mdp.action_rate_l2, weight=-1.0e-2)
    joint_vel = RewTerm(func=mdp.joint_vel_l2, weight=-1.0e-4, params={"asset_cfg": SceneEntityCfg("robot")})


@configclass
class TerminationsCfg:
    """Time-out and non-finite state."""

    time_out = DoneTerm(func=mdp.time_out, time_out=True)
    nonfinite_state = DoneTerm(func=nonfinite_state)


@configclass
class OpenDrawerFrankaEnvCfg(ManagerBasedRLEnvCfg):
    """``Isaac-Open-Drawer-Franka-v0``: 120 Hz physics (2 substeps of 4.2 ms), 60 Hz policy, 8 s episodes."""

    scene: OpenDrawerSceneCfg = OpenDrawerSceneCfg(num_envs=4096, env_spacing=3.0)
    observations: ObservationsCfg = ObservationsCfg()
    actions: PandaActionsCfg = PandaActionsCfg()
    rewards: RewardsCfg = RewardsCfg()
    terminations: TerminationsCfg = TerminationsCfg()
    events: EventCfg = EventCfg()

    def __post_init__(self):
        self.decimation = 2
        self.episode_length_s = 8.0
        self.sim.dt = 1.0 / 120.0
        self.sim.render_interval = self.decimation
        self.sim.physics = grasp_physics(nconmax=64, njmax=200)
