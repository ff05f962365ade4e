"""``Isaac-Lift-Cube-Franka-v0``: the Panda lifts a 5 cm cube from the ground to a commanded position.

Our own manager-based config, in the form of Isaac Lab 2's Franka cube lift: upstream's current
``Isaac-Lift-Franka`` (``isaaclab_tasks.core.lift``) draws one of 8 mesh shapes per env, samples resets from a bank
filled by a conditional reset with mesh clearance checks, observes a 64-point object point cloud and finger contact
sensors with 5-step histories, and runs an ADR curriculum; none of that has a mask form or a Newton-native asset
(see docs/training.md). The MDP here:

* actions (8): arm joint position offsets from the default pose (scale 0.5) and a binary gripper (open 0.04 m,
  closed 0 m per finger);
* observations (36): joint positions and velocities relative to default (9 + 9), the cube's position in the robot's
  root frame (3), the target position command (7) and the last action (8);
* rewards: reach the cube (``1 - tanh(d / 0.1)``, weight 1), lift it above 4 cm (15), track the target while lifted
  (``1 - tanh(d / 0.3)``, 16, and ``d / 0.05``, 5), action rate and joint velocity penalties (-1e-4 each);
* terminations: time-out (5 s), the cube falling below -5 cm, non-finite state;
* resets (by mask): arm at its default pose, cube at a uniform position 0.4-0.6 m in front, +-0.25 m aside;
* physics randomization at startup (the events of :mod:`isaaclab_newton.envs.mdp.events` and core's body-mass and
  actuator-gain terms on Newton): cube mass x0.5-1.5, cube and finger friction 0.8-1.2, arm gains x0.8-1.2.
"""

from __future__ import annotations

import isaaclab.envs.mdp as mdp
import isaaclab.sim as sim_utils
from isaaclab.assets import ArticulationCfg, AssetBaseCfg, RigidObjectCfg
from isaaclab.envs import ManagerBasedRLEnvCfg
from isaaclab.managers import EventTermCfg as EventTerm
from isaaclab.managers import ObservationGroupCfg as ObsGroup
from isaaclab.managers import ObservationTermCfg as ObsTerm
from isaaclab.managers import RewardTermCfg as RewTerm
from isaaclab.managers import SceneEntityCfg
from isaaclab.managers import TerminationTermCfg as DoneTerm
from isaaclab.scene import InteractiveSceneCfg
from isaaclab.sim.schemas import UsdPhysicsCollisionCfg, UsdPhysicsRigidBodyCfg
from isaaclab.utils import configclass

from isaaclab_contrib.envs.nonfinite import nonfinite_state
from isaaclab_newton.sim import GroundPlaneCfg

from . import mdp as task_mdp
from .panda_cfg import PANDA_CFG, PANDA_HAND_BODY
from .panda_terms import HAND, PandaActionsCfg, arm_gains_event, finger_friction_event
from .physics_cfg import grasp_physics

CUBE_SIZE = 0.05
"""Cube edge [m]."""

CUBE_MASS = 0.1
"""Cube mass [kg] (before randomization)."""

CUBE_CFG = RigidObjectCfg(
    prim_path="{ENV_REGEX_NS}/Object",
    spawn=sim_utils.CuboidCfg(
        size=(CUBE_SIZE, CUBE_SIZE, CUBE_SIZE),
        rigid_props=[UsdPhysicsRigidBodyCfg()],
        collision_props=[UsdPhysicsCollisionCfg()],
        mass_props=sim_utils.MassCfg(mass=CUBE_MASS),
        physics_material=sim_utils.RigidBodyMaterialCfg(static_friction=1.0, dynamic_friction=1.0),
        visual_material=sim_utils.PreviewSurfaceCfg(diffuse_color=(0.8, 0.2, 0.2)),
    ),
    init_state=RigidObjectCfg.InitialStateCfg(pos=(0.5, 0.0, CUBE_SIZE / 2)),
)
"""A 5 cm, 100 g cube (friction 1) resting on the ground 0.5 m in front of the robot."""


@configclass
class LiftCubeSceneCfg(InteractiveSceneCfg):
    """Ground, the Panda at the env origin, the cube in front of it."""

    ground = AssetBaseCfg(prim_path="/World/ground", spawn=GroundPlaneCfg())
    robot: ArticulationCfg = PANDA_CFG
    object: RigidObjectCfg = CUBE_CFG


@configclass
class CommandsCfg:
    """Target position of the cube, in the robot's root frame (the orientation is not tracked)."""

    object_pose = mdp.UniformPoseCommandCfg(
        asset_name="robot",
        body_name=PANDA_HAND_BODY,
        resampling_time_range=(5.0, 5.0),
        debug_vis=False,
        ranges=mdp.UniformPoseCommandCfg.Ranges(
            pos_x=(0.4, 0.6), pos_y=(-0.25, 0.25), pos_z=(0.25, 0.5), roll=(0.0, 0.0), pitch=(0.0, 0.0), yaw=(0.0, 0.0)
        ),
    )


@configclass
class ObservationsCfg:
    """Policy observations (concatenated)."""

    @configclass
    class PolicyCfg(ObsGroup):
        joint_pos = ObsTerm(func=mdp.joint_pos_rel)
        joint_vel = ObsTerm(func=mdp.joint_vel_rel)
        object_position = ObsTerm(func=task_mdp.object_position_in_robot_root_frame)
        target_object_position = ObsTerm(func=mdp.generated_commands, params={"command_name": "object_pose"})
        actions = ObsTerm(func=mdp.last_action)

        def __post_init__(self):
            self.enable_corruption = True
            self.concatenate_terms = True

    policy: PolicyCfg = PolicyCfg()


@configclass
class EventCfg:
    """Startup physics randomization and the mask-safe resets."""

    object_mass = EventTerm(
        func=mdp.randomize_rigid_body_mass,
        mode="startup",
        params={
            "asset_cfg": SceneEntityCfg("object"),
            "mass_distribution_params": (0.5, 1.5),
            "operation": "scale",
        },
    )
    object_material = EventTerm(
        func=mdp.randomize_rigid_body_material,
        mode="startup",
        params={
            "asset_cfg": SceneEntityCfg("object"),
            "static_friction_range": (0.8, 1.2),
            "dynamic_friction_range": (0.8, 1.2),
            "restitution_range": (0.0, 0.0),
            "num_buckets": 64,
        },
    )
    finger_material = finger_friction_event()
    arm_gains = arm_gains_event()
    reset_robot_joints = EventTerm(
        func=mdp.reset_joints_by_offset,
        mode="reset",
        params={"position_range": (0.0, 0.0), "velocity_range": (0.0, 0.0)},
    )
    reset_object_position = EventTerm(
        func=mdp.reset_root_state_uniform,
        mode="reset",
        params={
            "pose_range": {"x": (-0.1, 0.1), "y": (-0.25, 0.25), "z": (0.0, 0.0)},
            "velocity_range": {},
            "asset_cfg": SceneEntityCfg("object"),
        },
    )


@configclass
class RewardsCfg:
    """Isaac Lab 2's cube-lift rewards, measured at the grasp point between the finger pads."""

    reaching_object = RewTerm(func=task_mdp.object_grasp_distance, weight=1.0, params={"std": 0.1, "hand_cfg": HAND})
    lifting_object = RewTerm(func=task_mdp.object_is_lifted, weight=15.0, params={"minimal_height": 0.04})
    object_goal_tracking = RewTerm(
        func=task_mdp.object_goal_distance,
        weight=16.0,
        params={"std": 0.3, "minimal_height": 0.04, "command_name": "object_pose"},
    )
    object_goal_tracking_fine_grained = RewTerm(
        func=task_mdp.object_goal_distance,
        weight=5.0,
        params={"std": 0.05, "minimal_height": 0.04, "command_name": "object_pose"},
    )
    action_rate = RewTerm(func=mdp.action_rate_l2, weight=-1.0e-4)
    joint_vel = RewTerm(func=mdp.joint_vel_l2, weight=-1.0e-4, params={"asset_cfg": SceneEntityCfg("robot")})


@configclass
class TerminationsCfg:
    """Time-out, a dropped cube, non-finite state."""

    time_out = DoneTerm(func=mdp.time_out, time_out=True)
    object_dropping = DoneTerm(
        func=mdp.root_height_below_minimum, params={"minimum_height": -0.05, "asset_cfg": SceneEntityCfg("object")}
    )
    nonfinite_state = DoneTerm(func=nonfinite_state)


@configclass
class LiftCubeFrankaEnvCfg(ManagerBasedRLEnvCfg):
    """``Isaac-Lift-Cube-Franka-v0``: 100 Hz physics (4 substeps of 2.5 ms), 50 Hz policy, 5 s episodes."""

    scene: LiftCubeSceneCfg = LiftCubeSceneCfg(num_envs=4096, env_spacing=2.5)
    observations: ObservationsCfg = ObservationsCfg()
    actions: PandaActionsCfg = PandaActionsCfg()
    commands: CommandsCfg = CommandsCfg()
    rewards: RewardsCfg = RewardsCfg()
    terminations: TerminationsCfg = TerminationsCfg()
    events: EventCfg = EventCfg()

    def __post_init__(self):
        self.decimation = 2
        self.episode_length_s = 5.0
        self.sim.dt = 0.01
        self.sim.render_interval = self.decimation
        self.sim.physics = grasp_physics(num_substeps=3)
