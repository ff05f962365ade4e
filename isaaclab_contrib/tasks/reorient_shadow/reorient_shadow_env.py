"""In-hand cube reorientation with the offline Shadow hand: a direct task, whole steps graph-replayed on CUDA.

Actions (20): position targets of the actuated joints, ``[-1, 1]`` mapped onto each joint's limits and smoothed by
an exponential moving average (``action_smoothing``). Observations (119): joint positions scaled to ``[-1, 1]`` over
their limits (24) and joint velocities times 0.2 (24), the cube's position relative to the env origin (3),
orientation (4), linear (3) and angular velocity times 0.2 (3), the goal orientation (4) and the rotation from the
goal to the cube (4), the fingertip positions relative to the env origin (15) and linear velocities (15), and the
previous actions (20). Reward: ``1 / (rotation error + 0.1)`` minus ``10`` times the cube's distance from its
in-hand position [m], minus ``2e-4`` times the squared actions, plus ``250`` on each goal reached. A goal is reached
when the cube's orientation is within ``success_tolerance`` [rad] of it; a new goal is drawn at once and the count of
consecutive successes grows. An episode ends when the cube leaves the hand (``fall_distance``), when
``max_consecutive_successes`` goals were reached, or at the time limit.
"""

from __future__ import annotations

from collections.abc import Sequence

import torch
from isaaclab.assets import ArticulationCfg, AssetBaseCfg, RigidObjectCfg
from isaaclab.envs import DirectRLEnv, DirectRLEnvCfg
from isaaclab.scene import InteractiveSceneCfg
from isaaclab.sim import SimulationCfg
from isaaclab.utils import configclass
from isaaclab.utils.math import quat_conjugate, quat_error_magnitude, quat_mul

from isaaclab_contrib.envs.graph_step import GraphStepMixin
from isaaclab_newton.sim import GroundPlaneCfg

from .robot_cfg import ACTUATED_JOINTS, FINGERTIP_BODIES, cube_cfg, reorient_physics, shadow_hand_cfg


def random_quaternions(num: int, device: str | torch.device) -> torch.Tensor:
    """Uniformly distributed unit quaternions (x, y, z, w), shape (num, 4) (normalized 4-D Gaussians)."""
    quat = torch.randn((num, 4), device=device)
    return quat / torch.linalg.norm(quat, dim=-1, keepdim=True).clamp_min(1e-9)


@configclass
class ReorientShadowSceneCfg(InteractiveSceneCfg):
    """Ground, the Shadow hand and the cube in its palm."""

    ground = AssetBaseCfg(prim_path="/World/ground", spawn=GroundPlaneCfg())
    robot: ArticulationCfg | None = None
    object: RigidObjectCfg | None = None


@configclass
class ReorientShadowEnvCfg(DirectRLEnvCfg):
    """Settings of ``Isaac-Reorient-Cube-Shadow-Direct-v0``."""

    episode_length_s = 10.0
    decimation = 2
    action_space = 20
    observation_space = 119
    state_space = 0

    sim: SimulationCfg = SimulationCfg(dt=1 / 120, render_interval=2)
    scene: ReorientShadowSceneCfg = ReorientShadowSceneCfg(num_envs=64, env_spacing=0.75, replicate_physics=True)

    action_smoothing: float = 1.0
    """Weight of the new action in the joint-target moving average (1: no smoothing)."""

    success_tolerance: float = 0.1  # [rad]
    max_consecutive_successes: int = 50
    fall_distance: float = 0.24  # [m]
    reset_position_noise: float = 0.01  # [m], per axis
    reset_joint_noise: float = 0.2  # [-], fraction of each joint's range around its default
    random_reset_rotation: bool = True
    """Start each episode with a uniformly random cube orientation (else the configured one)."""

    rot_eps: float = 0.1  # [rad]
    dist_weight: float = -10.0
    action_weight: float = -0.0002
    success_bonus: float = 250.0

    def __post_init__(self):
        self.sim.physics = reorient_physics()
        self.scene.robot = shadow_hand_cfg()
        self.scene.object = cube_cfg()


class ReorientShadowEnv(GraphStepMixin, DirectRLEnv):
    """The reorientation environment (see the module docstring).

    On CUDA (with ``NewtonCfg.use_cuda_graph``) whole env steps, the goal updates on success and the mask reset of
    done envs included, replay from one CUDA graph; nothing is read back to the host.
    """

    cfg: ReorientShadowEnvCfg

    def __init__(self, cfg: ReorientShadowEnvCfg, render_mode: str | None = None, **kwargs):
        super().__init__(cfg, render_mode, **kwargs)
        self.hand = self.scene["robot"]
        self.object = self.scene["object"]
        actuated, _ = self.hand.find_joints(ACTUATED_JOINTS, preserve_order=True)
        self._actuated = torch.tensor(actuated, device=self.device)
        fingertips, _ = self.hand.find_bodies(FINGERTIP_BODIES, preserve_order=True)
        self._fingertips = torch.tensor(fingertips, device=self.device)
        limits = self.hand.data.joint_pos_limits.torch[0]
        self._lower, self._upper = limits[:, 0].clone(), limits[:, 1].clone()
        self._targets = self.hand.data.default_joint_pos.torch.clone()
        self._actions = torch.zeros((self.num_envs, self.cfg.action_space), device=self.device)
        self._goal_rot = random_quaternions(self.num_envs, self.device)
        self._in_hand_pos = self.object.data.default_root_pose.torch[:, :3] + self.scene.env_origins
        self.successes = torch.zeros(self.num_envs, device=self.device)
        """Goals reached in a row in the current episode, per env."""
        self._rot_error = torch.zeros(self.num_envs, device=self.device)

    # -- step ----------------------------------------------------------------------------------------------

    def _pre_physics_step(self, actions: torch.Tensor) -> None:
        self._actions = actions.clamp(-1.0, 1.0)
        lower, upper = self._lower[self._actuated], self._upper[self._actuated]
        scaled = lower + 0.5 * (self._actions + 1.0) * (upper - lower)
        alpha = self.cfg.action_smoothing
        blended = alpha * scaled + (1.0 - alpha) * self._targets[:, self._actuated]
        self._targets[:, self._actuated] = torch.maximum(torch.minimum(blended, upper), lower)

    def _apply_action(self) -> None:
        self.hand.actuators.target_command.set_position_index(value=self._targets)

    def fingertip_pos_w(self) -> torch.Tensor:
        """Fingertip (distal link) positions, world frame [m], shape (num_envs, 5, 3)."""
        return self.hand.data.body_link_pose_w.torch[:, self._fingertips, :3]

    def _get_observations(self) -> dict:
        data, obj = self.hand.data, self.object.data
        origins = self.scene.env_origins
        joint_pos = data.joint_pos.torch
        scaled_pos = (2.0 * joint_pos - self._upper - self._lower) / (self._upper - self._lower)
        object_quat = obj.root_link_pose_w.torch[:, 3:7]
        tips_vel = data.body_link_vel_w.torch[:, self._fingertips, :3]
        obs = torch.cat(
            (
                scaled_pos,
                0.2 * data.joint_vel.torch,
                obj.root_link_pose_w.torch[:, :3] - origins,
                object_quat,
                obj.root_com_vel_w.torch[:, :3],
                0.2 * obj.root_com_vel_w.torch[:, 3:6],
                self._goal_rot,
                quat_mul(object_quat, quat_conjugate(self._goal_rot)),
                (self.fingertip_pos_w() - origins[:, None, :]).reshape(self.num_envs, -1),
                tips_vel.reshape(self.num_envs, -1),
                self._actions,
            ),
            dim=-1,
        )
        return {"policy": obs}

    def _get_rewards(self) -> torch.Tensor:
        pose = self.object.data.root_link_pose_w.torch
        distance = torch.linalg.norm(pose[:, :3] - self._in_hand_pos, dim=-1)
        self._rot_error = quat_error_magnitude(pose[:, 3:7], self._goal_rot)
        reached = self._rot_error < self.cfg.success_tolerance
        reward = (
            1.0 / (self._rot_error + self.cfg.rot_eps)
            + self.cfg.dist_weight * distance
            + self.cfg.action_weight * self._actions.square().sum(dim=-1)
            + self.cfg.success_bonus * reached.float()
        )
        self.successes += reached.float()
        self._goal_rot = torch.where(reached[:, None], random_quaternions(self.num_envs, self.device), self._goal_rot)
        self.extras.setdefault("log", {})["consecutive_successes"] = self.successes.mean()
        return reward

    def _get_dones(self) -> tuple[torch.Tensor, torch.Tensor]:
        distance = torch.linalg.norm(self.object.data.root_link_pose_w.torch[:, :3] - self._in_hand_pos, dim=-1)
        fell = (distance > self.cfg.fall_distance) | ~torch.isfinite(distance)
        done = fell | (self.successes >= self.cfg.max_consecutive_successes)
        return done, self.episode_length_buf >= self.max_episode_length - 1

    # -- resets --------------------------------------------------------------------------------------------

    def _sampled_reset_state(self) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """Cube pose (world frame), cube velocity and hand joint positions sampled for every env."""
        pose = self.object.data.default_root_pose.torch.clone()
        pose[:, :3] += self.scene.env_origins
        noise = self.cfg.reset_position_noise
        pose[:, :3] += noise * (2.0 * torch.rand((self.num_envs, 3), device=self.device) - 1.0)
        if self.cfg.random_reset_rotation:
            pose[:, 3:7] = random_quaternions(self.num_envs, self.device)
        default = self.hand.data.default_joint_pos.torch
        spread = self.cfg.reset_joint_noise * (self._upper - self._lower)
        joints = default + spread * (torch.rand_like(default) - 0.5)
        joints = torch.maximum(torch.minimum(joints, self._upper), self._lower)
        return pose, torch.zeros((self.num_envs, 6), device=self.device), joints

    def _reset_idx(self, env_ids: Sequence[int] | None) -> None:
        if env_ids is None:
            env_ids = torch.arange(self.num_envs, device=self.device)
        super()._reset_idx(env_ids)
        pose, vel, joints = self._sampled_reset_state()
        self.object.write_root_pose_to_sim_index(root_pose=pose[env_ids], env_ids=env_ids)
        self.object.write_root_velocity_to_sim_index(root_velocity=vel[env_ids], env_ids=env_ids)
        self.hand.write_joint_position_to_sim_index(position=joints[env_ids], env_ids=env_ids)
        self.hand.write_joint_velocity_to_sim_index(velocity=torch.zeros_like(joints[env_ids]), env_ids=env_ids)
        self._targets[env_ids] = joints[env_ids]
        self._actions[env_ids] = 0.0
        self.successes[env_ids] = 0.0
        self._goal_rot[env_ids] = random_quaternions(len(env_ids), self.device)

    def _write_masked_sim_state(self, mask: torch.Tensor) -> None:
        """Cube and hand back to a sampled start state where ``mask`` is set; the targets follow the hand."""
        pose, vel, joints = self._sampled_reset_state()
        self.object.write_root_pose_to_sim_mask(root_pose=pose, env_mask=mask)
        self.object.write_root_velocity_to_sim_mask(root_velocity=vel, env_mask=mask)
        self.hand.write_joint_position_to_sim_mask(position=joints, env_mask=mask)
        self.hand.write_joint_velocity_to_sim_mask(velocity=torch.zeros_like(joints), env_mask=mask)
        self._targets.copy_(torch.where(mask[:, None], joints, self._targets))

    def _reset_masked_task(self, mask: torch.Tensor) -> None:
        """Actions, success counts and goals of the envs set in ``mask``."""
        self._actions.masked_fill_(mask[:, None], 0.0)
        self.successes.masked_fill_(mask, 0.0)
        self._goal_rot = torch.where(mask[:, None], random_quaternions(self.num_envs, self.device), self._goal_rot)
