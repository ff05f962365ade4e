"""Isaac Lab's direct locomotion environment (ant, humanoid): mask-native reset, steps replayed from a CUDA graph.

The task's per-step terms are upstream's, computed by one Warp kernel each (:mod:`.locomotion_kernels`) into
persistent buffers instead of chains of small torch operations: the derived state of
``_compute_intermediate_values`` (with the terminations in ``_get_dones``, with the reset potentials in the mask
reset), the joint efforts, the reward and the observation.
"""

from __future__ import annotations

from operator import is_

import torch
import warp as wp

from isaaclab_contrib.envs.cfg_checks import check_env_cfg
from isaaclab_contrib.envs.graph_step import GraphStepMixin
from isaaclab_contrib.envs.nonfinite import with_nonfinite_guard
from isaaclab_contrib.envs.reset_state import ResetStateSampler
from isaaclab_contrib.envs.task_terms import TaskTermsMixin

from ..upstream.modules import load_isaaclab_tasks_module
from .locomotion_kernels import (
    DerivedState,
    StateInputs,
    locomotion_derived_state_kernel,
    locomotion_dones_kernel,
    locomotion_effort_kernel,
    locomotion_obs_kernel,
    locomotion_reset_kernel,
    locomotion_reward_kernel,
)

_upstream = load_isaaclab_tasks_module(
    "core/locomotion/locomotion_direct_env.py", "_isaaclab_tasks_locomotion_direct_env"
)

_DERIVED = (
    "torso_position",
    "vel_loc",
    "angvel_loc",
    "up_proj",
    "heading_proj",
    "roll",
    "yaw",
    "angle_to_target",
    "dof_pos_scaled",
    "dof_vel",
    "potentials",
    "prev_potentials",
)
"""Upstream's attributes of ``_compute_intermediate_values``, in the kernels' output order."""

_STATE_INPUTS = tuple(StateInputs.vars)
"""The fields of :class:`.locomotion_kernels.StateInputs`, in the order :meth:`_term_state_arrays` gives them."""


class LocomotionMaskResetEnv(TaskTermsMixin, GraphStepMixin, _upstream.LocomotionDirectEnv):
    """Isaac Lab's ``LocomotionDirectEnv`` with the graph-replayed step of :mod:`.graph_step` and Warp task terms.

    Upstream's attributes (``torso_position``, ``up_proj``, ``potentials``, ``actions``...) keep upstream's values
    and are bound to persistent buffers that the kernels rewrite in place; configuration fields and task attributes
    (``action_scale``, ``joint_gears``, ``gear_ratio_scaled``, ``targets``) are read at each call, as upstream's.
    Terminations are returned in persistent buffers (core copies them); the observation and the reward are new
    tensors on every eager step, as upstream's, and the persistent buffers themselves while a step is recorded in a
    graph (:class:`.graph_step.GraphStepMixin` copies them after each replay).
    """

    def __init__(self, cfg, render_mode: str | None = None, **kwargs):
        super().__init__(cfg, render_mode, **kwargs)
        self._reset_joint_ids = tuple(range(self.robot.num_joints))
        self._reset_state = ResetStateSampler(self.robot, self._mask_launches)
        device, n = self.device, self.num_envs
        num_joints = self.robot.num_joints
        num_actions = self.actions.shape[1]
        self._init_task_terms()
        self._term_feet = wp.from_torch(self._feet_body_idx.to(torch.int32).contiguous(), dtype=wp.int32)
        widths = {
            "torso_position": 3,
            "vel_loc": 3,
            "angvel_loc": 3,
            "dof_pos_scaled": num_joints,
            "dof_vel": num_joints,
        }
        self._term_derived = {
            name: torch.zeros((n, widths[name]) if name in widths else (n,), dtype=torch.float32, device=device)
            for name in _DERIVED
        }
        self._term_derived["potentials"].copy_(self.potentials)
        self._term_derived["prev_potentials"].copy_(self.prev_potentials)
        self._term_derived_wp = DerivedState()  # persistent buffers: one struct for every launch
        for name, buffer in self._term_derived.items():
            setattr(self._term_derived_wp, name, wp.from_torch(buffer))
        self._term_inputs: tuple[tuple[wp.array, ...], StateInputs] | None = None  # see _term_state_inputs
        self._term_actions = torch.zeros((n, num_actions), dtype=torch.float32, device=device)
        self._term_actions.copy_(self.actions)
        self._term_efforts = torch.zeros((n, num_actions), dtype=torch.float32, device=device)
        self._term_died = torch.zeros(n, dtype=torch.bool, device=device)
        self._term_reward = torch.zeros(n, dtype=torch.float32, device=device)
        num_obs = 12 + 2 * num_joints + 6 * self._term_feet.shape[0] + num_actions
        self._term_obs = torch.zeros((n, num_obs), dtype=torch.float32, device=device)
        self._term_out_wp = {
            name: wp.from_torch(getattr(self, f"_term_{name}"))
            for name in ("actions", "efforts", "died", "reward", "obs")
        }
        self._bind_derived()
        self.actions = self._term_actions

    # -- upstream's hooks -------------------------------------------------------------------------

    def _pre_physics_step(self, actions: torch.Tensor) -> None:
        """Upstream's actions kept in ``actions``; efforts ``action_scale * joint_gears * clamp(actions, -1, 1)``.

        One launch copies the actions (as float32) and computes the efforts [N m], set once as the joints' effort
        target, which keeps them for the whole env step.
        """
        self.actions = self._term_actions
        args = (
            wp.from_torch(actions.to(torch.float32)),
            self._term_view("joint_gears", wp.float32),
            float(self.action_scale),
            self._term_out_wp["actions"],
            self._term_out_wp["efforts"],
        )
        self._term_launches.launch(locomotion_effort_kernel, tuple(self._term_actions.shape), args, fresh=(0,))
        self.robot.actuators.target_command.set_effort_index(value=self._term_efforts)

    def _compute_intermediate_values(self) -> None:
        """Upstream's derived state (torso pose and velocities, projections, angles, potentials) in one launch."""
        args = (self._term_state_inputs(), float(self.step_dt), self._term_derived_wp)
        self._term_launches.launch(locomotion_derived_state_kernel, (self.num_envs,), args)
        self._bind_derived()

    def _get_dones(self) -> tuple[torch.Tensor, torch.Tensor]:
        """Upstream's derived state, then ``(died, time_out)``: torso below ``cfg.termination_height``, time limit.

        The time-outs are written into core's ``reset_time_outs`` (which core's step sets from them right after).
        """
        args = (
            self._term_state_inputs(),
            float(self.step_dt),
            self._term_view("episode_length_buf", wp.int64),
            int(self.max_episode_length),
            float(self.cfg.termination_height),
            self._term_derived_wp,
            self._term_out_wp["died"],
            self._term_view("reset_time_outs", wp.bool),
        )
        self._term_launches.launch(locomotion_dones_kernel, (self.num_envs,), args)
        self._bind_derived()
        return self._term_died, self.reset_time_outs  # time-outs in core's buffer: its copy into it is a no-op

    def _get_rewards(self) -> torch.Tensor:
        """Upstream's ``compute_rewards`` on the derived state, ``reset_terminated`` and the ``cfg`` weights."""
        cfg = self.cfg
        args = (
            self._term_view("actions", wp.float32),
            self._term_view("reset_terminated", wp.bool),
            self._term_view("heading_proj", wp.float32),
            self._term_view("up_proj", wp.float32),
            self._term_view("dof_vel", wp.float32),
            self._term_view("dof_pos_scaled", wp.float32),
            self._term_view("gear_ratio_scaled", wp.float32),
            self._term_view("potentials", wp.float32),
            self._term_view("prev_potentials", wp.float32),
            float(cfg.up_weight),
            float(cfg.heading_weight),
            float(cfg.actions_cost_scale),
            float(cfg.energy_cost_scale),
            float(cfg.joint_pos_limits_cost_scale),
            float(cfg.joint_pos_limits_threshold),
            float(1.0 - cfg.joint_pos_limits_threshold),
            float(cfg.death_cost),
            float(cfg.alive_reward_scale),
            float(self.step_dt),
            self._term_out_wp["reward"],
        )
        self._term_launches.launch(locomotion_reward_kernel, (self.num_envs,), args)
        return self._term_returned(self._term_reward)

    def _get_observations(self) -> dict[str, torch.Tensor]:
        """Upstream's policy observation of the derived state, feet wrenches and actions, ``cfg`` scales applied."""
        cfg = self.cfg
        wrench = self.joint_wrench.data
        args = (
            *(self._term_view(name, wp.float32) for name in ("torso_position", "vel_loc", "angvel_loc", "yaw", "roll")),
            *(self._term_view(name, wp.float32) for name in ("angle_to_target", "up_proj", "heading_proj")),
            self._term_view("dof_pos_scaled", wp.float32),
            self._term_view("dof_vel", wp.float32),
            wrench.force.warp,
            wrench.torque.warp,
            self._term_feet,
            self._term_view("actions", wp.float32),
            float(cfg.angular_velocity_scale),
            float(cfg.dof_vel_scale),
            float(cfg.contact_force_scale),
            self._term_out_wp["obs"],
        )
        self._term_launches.launch(locomotion_obs_kernel, (self.num_envs,), args)
        return {"policy": self._term_returned(self._term_obs)}

    # -- mask reset -------------------------------------------------------------------------------

    def _write_masked_sim_state(self, mask: torch.Tensor) -> None:
        """Default root state and joint offsets sampled for every env (clamped to the soft limits), where ``mask``.

        The offsets are uniform in ``cfg.initial_joint_pos_range`` and ``cfg.initial_joint_vel_range`` (upstream's
        ``sample_uniform``) for every joint, read at each call.
        """
        cfg, ids = self.cfg, self._reset_joint_ids
        ranges = ((0, ids, tuple(cfg.initial_joint_pos_range)), (1, ids, tuple(cfg.initial_joint_vel_range)))
        self._reset_state.write(mask, self.scene.env_origins, ranges)

    def _reset_masked_task(self, mask: torch.Tensor) -> None:
        """Actions and potentials of the masked envs reset; the derived state recomputed, in one launch.

        The derived state is recomputed for all envs, as the index path does on steps with resets; for envs that
        did not reset it comes out unchanged (only ``prev_potentials``, rewritten before its next read).
        """
        self._log_masked_success_rate(mask)
        mask_wp = self._reset_mask_wp if mask is self._reset_mask else wp.from_torch(mask, dtype=wp.bool)
        fresh = () if mask is self._reset_mask else (0,)  # another mask: a new view on every call
        args = (
            mask_wp,
            self.robot.data.default_root_pose.warp,
            self._term_tensor_view("scene.env_origins", self.scene.env_origins, wp.float32),
            self._term_state_inputs(),
            float(self.step_dt),
            self._term_view("actions", wp.float32),
            self._term_derived_wp,
        )
        self._term_launches.launch(locomotion_reset_kernel, (self.num_envs,), args, fresh=fresh)
        self._bind_derived()

    # -- buffers ----------------------------------------------------------------------------------

    def _term_state_inputs(self) -> StateInputs:
        """The derived-state kernels' inputs (root and joint data, ``targets``, ``potentials``) in one struct.

        The struct is made again only when one of its arrays was replaced, and never changed once made: a recorded
        launch holds the struct it was recorded with and replays it while the same struct is passed.
        """
        arrays = self._term_state_arrays()
        if self._term_inputs is None or not all(map(is_, arrays, self._term_inputs[0])):
            inputs = StateInputs()
            for name, array in zip(_STATE_INPUTS, arrays, strict=True):
                setattr(inputs, name, array)
            self._term_inputs = (arrays, inputs)
        return self._term_inputs[1]

    def _term_state_arrays(self) -> tuple[wp.array, ...]:
        """The arrays of :meth:`_term_state_inputs`, in :class:`.locomotion_kernels.StateInputs`' field order."""
        data = self.robot.data
        return (
            data.root_pos_w.warp,
            data.root_quat_w.warp,
            data.root_lin_vel_b.warp,
            data.root_ang_vel_b.warp,
            data.projected_gravity_b.warp,
            data.FORWARD_VEC_B.warp,
            data.joint_pos.warp,
            data.joint_vel.warp,
            data.default_joint_vel.warp,
            data.soft_joint_pos_limits.warp,
            self._term_view("targets", wp.float32),
            self._term_view("potentials", wp.float32),
        )

    def _bind_derived(self) -> None:
        """Bind upstream's derived-state attributes to the buffers the kernels wrote."""
        for name, buffer in self._term_derived.items():
            setattr(self, name, buffer)


def make_locomotion_direct_env(cfg, render_mode: str | None = None, **kwargs):
    """Build the ant or the humanoid (the task ids' gym entry point): cfg checked, non-finite guard on.

    Args:
        cfg: The task's env cfg (:class:`~isaaclab_contrib.tasks.ant.ant_direct_env_cfg.AntEnvCfg`, ...).
        render_mode: Gymnasium's render mode.
        **kwargs: Passed on to the env class.
    """
    check_env_cfg(cfg)
    return with_nonfinite_guard(LocomotionMaskResetEnv)(cfg, render_mode, **kwargs)
