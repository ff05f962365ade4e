"""Isaac Lab's velocity-tracking MDP (``isaaclab_tasks``' ``LocomotionVelocityRoughEnvCfg``) for the Unitree robots.

Commands, observations (with the height scan), rewards (feet air time included), contact terminations, the
terrain curriculum and the events are upstream's; each robot config below changes the robot, the body- and
joint-name patterns its terms use and the per-robot weights (upstream's Go1 and G1 values), and adds the
``nonfinite_state`` termination every task here has (NaN worlds end their episode and reset). Besides the MDP, the
contact settings are sized for these robots: a 1 cm shape gap, a triangle-pair budget per env, collision once per
physics step and MuJoCo Warp's constraint rows and contacts per world (see ``_terrain_contacts`` and the configs). The
G1 patterns name the 29-joint model of the ``mjlab`` asset zoo (``*_elbow_joint``, ``waist_*_joint``, wrists), the
Go1 feet are the spheres at the end of the ``*_calf`` bodies.
"""

from __future__ import annotations

from isaaclab.managers import RewardTermCfg as RewTerm
from isaaclab.managers import SceneEntityCfg
from isaaclab.managers import TerminationTermCfg as DoneTerm
from isaaclab.utils import configclass, replace

from isaaclab_contrib.envs.cfg_checks import check_env_cfg
from isaaclab_contrib.envs.nonfinite import nonfinite_state
from isaaclab_newton.terrains import NewtonTerrainImporter

from ...upstream.modules import import_isaaclab_tasks_submodule
from .robot_cfg import G1_CFG, GO1_CFG

_velocity = import_isaaclab_tasks_submodule("core.velocity.velocity_env_cfg")
mdp = import_isaaclab_tasks_submodule("core.velocity.mdp")
LocomotionVelocityRoughEnvCfg = _velocity.LocomotionVelocityRoughEnvCfg


def _terrain_contacts(cfg) -> None:
    """Contact detection sized for legged robots on core's terrains (MuJoCo Warp with Newton's contacts).

    * Shape gap 1 cm instead of Newton's 10 cm: Newton finds contacts within the two shapes' summed gaps, but MuJoCo
      Warp makes constraints of the penetrating ones only (its include margin is the shapes' margin, 0 here), so the
      larger gap only multiplies the mesh triangles tested and the contacts passed on (measured on the Go1 rough task:
      616 triangle pairs and 85 contacts per env at 10 cm, 22 and 9 at 1 cm; the same constraint rows).
    * Triangle-pair capacity per env instead of upstream's 2.5 M in total, which does not scale with the env count
      (pairs past the capacity lose their contacts).
    * Collision detection on the first of the 2 substeps only. The second substep reuses the contacts, and Newton's
      MuJoCo solver recomputes their distances from the bodies' poses. The pair's summed 2 cm gap catches shapes
      approaching at up to 4 m/s before they touch. On the H200 the mesh collide was 4.3 of the 5.9 ms of a Go1 rough
      physics step.
    * SAH-built BVHs of every mesh shape, the terrain's above all (Warp builds LBVH on CUDA by default, SAH on the
      CPU): a build of about 0.5 s once for the 10 x 20 terrain, tighter boxes for every collide and ray query. On
      the H200 at 4,096 Go1 rough envs the mesh collide went from 1.91 to 1.34 ms, the height scan from 1.14 to
      0.53 ms and the env step from 17.2 to 14.2 ms.
    """
    physics = cfg.sim.physics.newton_mjwarp
    physics.bvh_constructor_geometry = "sah"
    physics.default_shape_cfg.gap = 0.01
    physics.collision_decimation = 2
    physics.collision_cfg.max_triangle_pairs, physics.collision_cfg.max_triangle_pairs_per_world = None, 1024


def _flat(cfg, *, njmax: int, nconmax: int) -> None:
    """Upstream's flat variant: a plane, no height scan, no terrain curriculum, MuJoCo Warp sized for it."""
    solver = cfg.sim.physics.newton_mjwarp.solver_cfg
    solver.njmax, solver.nconmax = njmax, nconmax
    cfg.scene.terrain.terrain_type = "plane"
    cfg.scene.terrain.terrain_generator = None
    cfg.scene.terrain.class_type = NewtonTerrainImporter  # core's plane is a USD on Isaac's asset server
    cfg.scene.height_scanner = None
    cfg.observations.policy.height_scan = None
    cfg.curriculum.terrain_levels = None


@configclass
class UnitreeGo1RoughEnvCfg(LocomotionVelocityRoughEnvCfg):
    """``Isaac-Velocity-Rough-Unitree-Go1-v0``: upstream's Go1 rough task on the ``mjlab`` Go1."""

    def __post_init__(self):
        super().__post_init__()
        _terrain_contacts(self)
        # upstream's 1000 constraint rows / 300 contacts per world go far unused: with the 1 cm gap, 32 envs taking
        # uniform random actions (falls included) peaked at 36 rows and 36 contacts in a world over 300 steps
        solver = self.sim.physics.newton_mjwarp.solver_cfg
        solver.njmax, solver.nconmax = 300, 64
        # Newton's mesh-contact reduction pays off for box feet (the G1's: 424 rows in a world without it, 140 with)
        # but not for the Go1's sphere feet, one contact per terrain triangle (peaks of 43 contacts and 44 rows
        # without it, 36 and 40 with), and its kernel alone took 116 s to compile on a cold H200 cache.
        self.sim.physics.newton_mjwarp.collision_cfg.reduce_contacts = False
        self.scene.robot = replace(GO1_CFG, prim_path="{ENV_REGEX_NS}/Robot")
        self.scene.height_scanner.prim_path = "{ENV_REGEX_NS}/Robot/trunk"
        sub_terrains = self.scene.terrain.terrain_generator.sub_terrains
        sub_terrains["boxes"].grid_height_range = (0.025, 0.1)
        sub_terrains["random_rough"].noise_range = (0.01, 0.06)
        sub_terrains["random_rough"].noise_step = 0.01
        self.actions.joint_pos.scale = 0.25
        rewards = self.rewards
        rewards.feet_air_time.params["sensor_cfg"].body_names = ".*_calf"
        rewards.feet_air_time.weight = 0.01
        rewards.undesired_contacts = None
        rewards.dof_torques_l2.weight = -0.0002
        rewards.track_lin_vel_xy_exp.weight = 1.5
        rewards.track_ang_vel_z_exp.weight = 0.75
        rewards.dof_acc_l2.weight = -2.5e-7
        self.terminations.base_contact.params["sensor_cfg"].body_names = "trunk"
        self.terminations.nonfinite_state = DoneTerm(func=nonfinite_state)  # NaN worlds reset (as every task here)
        self.events.add_base_mass.params["asset_cfg"].body_names = "trunk"
        self.events.base_external_force_torque.params["asset_cfg"].body_names = "trunk"
        self.events.base_com.params["asset_cfg"].body_names = "trunk"


@configclass
class UnitreeGo1FlatEnvCfg(UnitreeGo1RoughEnvCfg):
    """``Isaac-Velocity-Flat-Unitree-Go1-v0``: upstream's Go1 flat variant."""

    def __post_init__(self):
        super().__post_init__()
        _flat(self, njmax=300, nconmax=64)  # upstream 60/25: the MJCF has more capsules
        self.rewards.flat_orientation_l2.weight = -2.5
        self.rewards.feet_air_time.weight = 0.25


_G1_FEET = ".*_ankle_roll_link"
_G1_ARMS = [
    ".*_shoulder_pitch_joint",
    ".*_shoulder_roll_joint",
    ".*_shoulder_yaw_joint",
    ".*_elbow_joint",
    ".*_wrist_.*",
]


@configclass
class G1Rewards(_velocity.RewardsCfg):
    """Upstream's G1 reward terms, with the 29-joint model's joint names."""

    termination_penalty = RewTerm(func=mdp.is_terminated, weight=-200.0)
    track_lin_vel_xy_exp = RewTerm(
        func=mdp.track_lin_vel_xy_yaw_frame_exp, weight=1.0, params={"command_name": "base_velocity", "std": 0.5}
    )
    track_ang_vel_z_exp = RewTerm(
        func=mdp.track_ang_vel_z_world_exp, weight=2.0, params={"command_name": "base_velocity", "std": 0.5}
    )
    feet_air_time = RewTerm(
        func=mdp.feet_air_time_positive_biped,
        weight=0.25,
        params={
            "command_name": "base_velocity",
            "sensor_cfg": SceneEntityCfg("contact_forces", body_names=_G1_FEET),
            "threshold": 0.4,
        },
    )
    feet_slide = RewTerm(
        func=mdp.feet_slide,
        weight=-0.1,
        params={
            "sensor_cfg": SceneEntityCfg("contact_forces", body_names=_G1_FEET),
            "asset_cfg": SceneEntityCfg("robot", body_names=_G1_FEET),
        },
    )
    dof_pos_limits = RewTerm(
        func=mdp.joint_pos_limits,
        weight=-1.0,
        params={"asset_cfg": SceneEntityCfg("robot", joint_names=[".*_ankle_pitch_joint", ".*_ankle_roll_joint"])},
    )
    joint_deviation_hip = RewTerm(
        func=mdp.joint_deviation_l1,
        weight=-0.1,
        params={"asset_cfg": SceneEntityCfg("robot", joint_names=[".*_hip_yaw_joint", ".*_hip_roll_joint"])},
    )
    joint_deviation_arms = RewTerm(
        func=mdp.joint_deviation_l1, weight=-0.1, params={"asset_cfg": SceneEntityCfg("robot", joint_names=_G1_ARMS)}
    )
    joint_deviation_torso = RewTerm(
        func=mdp.joint_deviation_l1, weight=-0.1, params={"asset_cfg": SceneEntityCfg("robot", joint_names="waist_.*")}
    )


@configclass
class G1RoughEnvCfg(LocomotionVelocityRoughEnvCfg):
    """``Isaac-Velocity-Rough-G1-v0``: upstream's G1 rough task on the ``mjlab`` G1 (29 joints)."""

    rewards: G1Rewards = G1Rewards()

    def __post_init__(self):
        super().__post_init__()
        _terrain_contacts(self)
        self.sim.physics.newton_mjwarp.solver_cfg.njmax = 300
        self.scene.robot = replace(G1_CFG, prim_path="{ENV_REGEX_NS}/Robot")
        self.scene.height_scanner.prim_path = "{ENV_REGEX_NS}/Robot/torso_link"
        velocity = self.commands.base_velocity
        velocity.vel_yaw_success_threshold = 0.8
        velocity.marker_pos_offset = (0.0, 0.0, 0.75)
        velocity.ranges.lin_vel_x = (0.0, 1.0)
        velocity.ranges.lin_vel_y = (-0.0, 0.0)
        velocity.ranges.ang_vel_z = (-1.0, 1.0)
        rewards = self.rewards
        rewards.lin_vel_z_l2.weight = 0.0
        rewards.undesired_contacts = None
        rewards.flat_orientation_l2.weight = -1.0
        rewards.action_rate_l2.weight = -0.005
        rewards.dof_acc_l2.weight = -1.25e-7
        rewards.dof_acc_l2.params["asset_cfg"] = SceneEntityCfg("robot", joint_names=[".*_hip_.*", ".*_knee_joint"])
        rewards.dof_torques_l2.weight = -1.5e-7
        rewards.dof_torques_l2.params["asset_cfg"] = SceneEntityCfg(
            "robot", joint_names=[".*_hip_.*", ".*_knee_joint", ".*_ankle_.*"]
        )
        self.terminations.base_contact.params["sensor_cfg"].body_names = "torso_link"
        self.terminations.nonfinite_state = DoneTerm(func=nonfinite_state)  # NaN worlds reset (as every task here)
        self.events.add_base_mass.params["asset_cfg"].body_names = "torso_link"
        self.events.base_com = None
        self.events.base_external_force_torque.params["asset_cfg"].body_names = "torso_link"
        self.events.reset_robot_joints.params["position_range"] = (1.0, 1.0)


@configclass
class G1FlatEnvCfg(G1RoughEnvCfg):
    """``Isaac-Velocity-Flat-G1-v0``: upstream's G1 flat variant."""

    def __post_init__(self):
        super().__post_init__()
        _flat(self, njmax=400, nconmax=64)  # upstream 95/10: the MJCF has more capsules
        velocity = self.commands.base_velocity
        velocity.ranges.lin_vel_x = (0.0, 1.0)
        velocity.ranges.lin_vel_y = (-0.5, 0.5)
        velocity.ranges.ang_vel_z = (-1.0, 1.0)
        rewards = self.rewards
        rewards.track_ang_vel_z_exp.weight = 1.0
        rewards.lin_vel_z_l2.weight = -0.2
        rewards.action_rate_l2.weight = -0.005
        rewards.dof_acc_l2.weight = -1.0e-7
        rewards.feet_air_time.weight = 0.75
        rewards.feet_air_time.params["threshold"] = 0.4
        rewards.dof_torques_l2.weight = -2.0e-6
        rewards.dof_torques_l2.params["asset_cfg"] = SceneEntityCfg("robot", joint_names=[".*_hip_.*", ".*_knee_joint"])


def make_velocity_env(cfg, render_mode: str | None = None, **kwargs):
    """Build :class:`~isaaclab_contrib.envs.manager_based_env.ManagerBasedRLEnvOnNewton` with ``cfg`` (upstream's
    physics presets resolved to their ``newton_mjwarp`` entry)."""
    from isaaclab_contrib.envs.manager_based_env import ManagerBasedRLEnvOnNewton

    physics = cfg.sim.physics
    if hasattr(physics, "newton_mjwarp"):  # upstream's backend presets: the tasks run MuJoCo Warp on Newton
        cfg.sim.physics = physics.newton_mjwarp
    check_env_cfg(cfg)
    return ManagerBasedRLEnvOnNewton(cfg, render_mode, **kwargs)
