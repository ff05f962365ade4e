"""Franka Panda lifting a deformable (soft beam or cloth) on Newton: MuJoCo Warp arm, VBD object, two-way coupled.

Actions (8): arm joint position targets as offsets from the default pose (7, times ``action_scale`` = 1.5 rad, so
the IK poses of a lift are reachable) and a gripper command (> 0 opens, <= 0 closes fully; the hand's effort limit
sets the squeeze). Observations (32): joint positions relative to default (9), joint velocities (9), object
position (nodal mean) and gripper centre relative to the env origin (3 + 3), and the previous actions (8). Reward:
reaching (``1 - tanh(d / 0.1)``) plus ``lift_weight`` times the object's rise above its rest height, clipped to
``lift_target`` [m].
"""

from __future__ import annotations

from collections.abc import Sequence

import torch
from isaaclab.actuators import ImplicitActuatorCfg
from isaaclab.assets import ArticulationCfg, AssetBaseCfg, DeformableObjectCfg
from isaaclab.envs import DirectRLEnv, DirectRLEnvCfg
from isaaclab.scene import InteractiveSceneCfg
from isaaclab.sim import SimulationCfg
from isaaclab.utils import configclass
from isaaclab.utils.math import quat_apply

from isaaclab_contrib.envs.graph_step import GraphStepMixin
from isaaclab_newton.physics import NewtonCfg
from isaaclab_newton.sim import GroundPlaneCfg, MjcfFileCfg

from .panda_asset import ensure_panda_mjcf
from .physics_cfg import LiftTuningCfg, lift_physics

ARM_JOINTS = [f"robot:panda0_joint{i}" for i in range(1, 8)]
FINGER_JOINTS = "robot:panda0_finger_joint.*"
HAND_BODY = "panda0_link7"
GRIP_OFFSET = (0.0, 0.0, 0.21)
"""Grasp centre between the finger pads in the ``panda0_link7`` frame [m] (the MJCF's ``end_effector`` site)."""

FINGER_OPEN = 0.04
"""Finger joint position of the open gripper [m] (closed: 0)."""

HOME = (0.0, -0.785, 0.0, -2.356, 0.0, 0.0, 0.785)
"""Arm pose with the hand pointing down above the table [rad] (this MJCF's joint 6 is offset by -pi/2)."""


def franka_cfg(tuning: LiftTuningCfg) -> ArticulationCfg:
    """The fixed-base Panda with implicit PD drives from ``tuning`` (fetches the MJCF on first use)."""
    joint_pos = {name: q for name, q in zip(ARM_JOINTS, HOME, strict=True)}
    joint_pos[FINGER_JOINTS] = FINGER_OPEN
    return ArticulationCfg(
        prim_path="{ENV_REGEX_NS}/Robot",
        spawn=MjcfFileCfg(asset_path=ensure_panda_mjcf(), floating=False),
        init_state=ArticulationCfg.InitialStateCfg(joint_pos=joint_pos),
        actuators={
            "arm": ImplicitActuatorCfg(
                joint_names_expr=ARM_JOINTS,
                stiffness=tuning.arm_stiffness,
                damping=tuning.arm_damping,
                joint_effort_limit=tuning.arm_effort_limit,
            ),
            "hand": ImplicitActuatorCfg(
                joint_names_expr=[FINGER_JOINTS],
                stiffness=tuning.hand_stiffness,
                damping=tuning.hand_damping,
                joint_effort_limit=tuning.hand_effort_limit,
            ),
        },
    )


@configclass
class LiftFrankaSceneCfg(InteractiveSceneCfg):
    """Ground, the Panda at the env origin, the object 0.5 m in front of it (robot set by the env cfg)."""

    ground = AssetBaseCfg(prim_path="/World/ground", spawn=GroundPlaneCfg())
    robot: ArticulationCfg | None = None
    object: DeformableObjectCfg | None = None


@configclass
class LiftFrankaEnvCfg(DirectRLEnvCfg):
    """Shared settings of the soft and cloth lift tasks."""

    episode_length_s = 5.0
    decimation = 4
    action_scale = 1.5
    action_space = 8
    observation_space = 32
    state_space = 0

    sim: SimulationCfg = SimulationCfg(dt=1 / 120, render_interval=4, physics=NewtonCfg())
    scene: LiftFrankaSceneCfg = LiftFrankaSceneCfg(num_envs=64, env_spacing=2.0, replicate_physics=True)

    coupling: str = "custom"
    """``"custom"``: the MuJoCo Warp + VBD shared-model manager (two-way); ``"proxy"``: the proxy coupler preset."""

    tuning: LiftTuningCfg = LiftTuningCfg()
    """Every knob of the coupled contact and the drives (see docs/coupling.md for the tuning order)."""

    object_cfg: DeformableObjectCfg | None = None
    """The deformable to lift (set by the task)."""

    reach_weight: float = 1.0
    lift_weight: float = 20.0
    lift_target: float = 0.15  # [m]

    def __post_init__(self):
        self.sim.physics = lift_physics(self.coupling, self.tuning)
        self.scene.robot = franka_cfg(self.tuning)
        self.scene.object = self.object_cfg


class LiftFrankaEnv(GraphStepMixin, DirectRLEnv):
    """The lift environment (see the module docstring).

    On CUDA (with ``NewtonCfg.use_cuda_graph``) whole env steps, the coupled substeps and the mask reset of done envs
    (MuJoCo Warp and VBD per-world resets, the object's rest shape, the robot's default joints) included, replay from
    one CUDA graph (:class:`~isaaclab_contrib.envs.graph_step.GraphStepMixin`); nothing is read back to the host.
    """

    cfg: LiftFrankaEnvCfg

    def __init__(self, cfg: LiftFrankaEnvCfg, render_mode: str | None = None, **kwargs):
        super().__init__(cfg, render_mode, **kwargs)
        self.robot = self.scene["robot"]
        self.object = self.scene["object"]
        arm_ids, _ = self.robot.find_joints(ARM_JOINTS, preserve_order=True)
        finger_ids, _ = self.robot.find_joints(FINGER_JOINTS)
        self._hand_id = self.robot.find_bodies(HAND_BODY)[0][0]
        self._grip_offset = torch.tensor(GRIP_OFFSET, device=self.device).expand(self.num_envs, 3)
        self._actions = torch.zeros((self.num_envs, self.cfg.action_space), device=self.device)
        self._targets = self.robot.data.default_joint_pos.torch.clone()
        self._rest_height = self.object.data.root_pos_w.torch[:, 2].clone()
        # Per joint: the action column that drives it, and whether it is an arm joint or a finger. Device tensors: a
        # step gathers with them and never indexes with Python lists (a host-to-device copy on CUDA).
        joints = torch.arange(self.robot.num_joints)
        column = torch.zeros(self.robot.num_joints, dtype=torch.long)
        column[arm_ids] = torch.arange(len(arm_ids))
        column[finger_ids] = len(arm_ids)  # the gripper command follows the arm's
        self._action_column = column.to(self.device)
        self._is_arm = torch.isin(joints, torch.tensor(arm_ids)).to(self.device)
        self._is_finger = torch.isin(joints, torch.tensor(finger_ids)).to(self.device)

    def grip_center_w(self) -> torch.Tensor:
        """Grasp centre between the finger pads, world frame [m], shape (num_envs, 3)."""
        pose = self.robot.data.body_link_pose_w.torch[:, self._hand_id]
        return pose[:, :3] + quat_apply(pose[:, 3:7], self._grip_offset)

    def _pre_physics_step(self, actions: torch.Tensor) -> None:
        self._actions = actions.clamp(-1.0, 1.0)
        default = self.robot.data.default_joint_pos.torch
        command = self._actions.index_select(1, self._action_column)  # (num_envs, num_joints)
        arm = default + self.cfg.action_scale * command
        fingers = torch.where(command > 0.0, FINGER_OPEN, 0.0)
        self._targets.copy_(torch.where(self._is_arm, arm, torch.where(self._is_finger, fingers, default)))

    def _apply_action(self) -> None:
        self.robot.actuators.target_command.set_position_index(value=self._targets)

    def _get_observations(self) -> dict:
        origins = self.scene.env_origins
        obs = torch.cat(
            (
                self.robot.data.joint_pos.torch - self.robot.data.default_joint_pos.torch,
                self.robot.data.joint_vel.torch,
                self.object.data.root_pos_w.torch - origins,
                self.grip_center_w() - origins,
                self._actions,
            ),
            dim=-1,
        )
        return {"policy": obs}

    def _get_rewards(self) -> torch.Tensor:
        distance = torch.linalg.norm(self.object.data.root_pos_w.torch - self.grip_center_w(), dim=-1)
        lift = (self.object.data.root_pos_w.torch[:, 2] - self._rest_height).clamp(0.0, self.cfg.lift_target)
        return self.cfg.reach_weight * (1.0 - torch.tanh(distance / 0.1)) + self.cfg.lift_weight * lift

    def _get_dones(self) -> tuple[torch.Tensor, torch.Tensor]:
        time_out = self.episode_length_buf >= self.max_episode_length - 1
        nodes = self.object.data.nodal_pos_w.torch
        broken = ~torch.isfinite(nodes).all(dim=(1, 2)) | (nodes[..., 2].min(dim=1).values < -0.05)
        return broken, time_out

    def _reset_idx(self, env_ids: Sequence[int] | None) -> None:
        if env_ids is None:
            env_ids = torch.arange(self.num_envs, device=self.device)
        super()._reset_idx(env_ids)
        default_pos = self.robot.data.default_joint_pos.torch[env_ids]
        self.robot.write_joint_position_to_sim_index(position=default_pos, env_ids=env_ids)
        self.robot.write_joint_velocity_to_sim_index(velocity=torch.zeros_like(default_pos), env_ids=env_ids)
        self._targets[env_ids] = default_pos
        self._actions[env_ids] = 0.0

    def _write_masked_sim_state(self, mask: torch.Tensor) -> None:
        """The robot back at its default joint positions, at rest, where ``mask`` is set (the object resets itself)."""
        default_pos = self.robot.data.default_joint_pos.torch
        self.robot.write_joint_position_to_sim_mask(position=default_pos, env_mask=mask)
        self.robot.write_joint_velocity_to_sim_mask(velocity=torch.zeros_like(default_pos), env_mask=mask)

    def _reset_masked_task(self, mask: torch.Tensor) -> None:
        """Joint targets back to the defaults and actions to zero where ``mask`` is set."""
        rows = mask[:, None]
        self._targets.copy_(torch.where(rows, self.robot.data.default_joint_pos.torch, self._targets))
        self._actions.masked_fill_(rows, 0.0)
