"""Isaac Lab's direct cartpole environment: mask-native reset, whole steps replayed from a CUDA graph on CUDA.

The task terms (terminations, reward, observation) are upstream's, computed by one Warp kernel each
(:mod:`.cartpole_kernels`) into persistent buffers instead of a chain of small torch operations.
"""

from __future__ import annotations

import torch
import warp as wp

from isaaclab_contrib.envs.cartpole_mask_reset import CartpoleMaskResetHooks
from isaaclab_contrib.envs.graph_step import GraphStepMixin
from isaaclab_contrib.envs.task_terms import TaskTermsMixin

from ...upstream.modules import load_isaaclab_tasks_module
from .cartpole_kernels import cartpole_dones_kernel, cartpole_obs_kernel, cartpole_reward_kernel

_upstream = load_isaaclab_tasks_module("core/cartpole/cartpole_direct_env.py", "_isaaclab_tasks_cartpole_direct_env")


class CartpoleMaskResetEnv(TaskTermsMixin, CartpoleMaskResetHooks, GraphStepMixin, _upstream.CartpoleEnv):
    """Isaac Lab's ``CartpoleEnv`` with the graph-replayed step of :mod:`..graph_step`, the mask reset of
    :class:`~isaaclab_contrib.envs.cartpole_mask_reset.CartpoleMaskResetHooks` and Warp task terms.

    ``_get_dones``, ``_get_rewards`` and ``_get_observations`` give upstream's values (configuration fields read at
    each call) from one kernel launch each. Terminations are written into persistent buffers, the time-outs into
    core's ``reset_time_outs`` itself (core's copy of them is then a no-op);
    the observation and the reward are new tensors on every eager step, as upstream's, and the persistent buffers
    themselves while a step is recorded in a graph (:class:`..graph_step.GraphStepMixin` copies them after each
    replay).
    """

    def __init__(self, cfg, render_mode: str | None = None, **kwargs):
        super().__init__(cfg, render_mode, **kwargs)
        device = self.device
        cart = self._cart_dof_idx.to(torch.int32)
        pole = self._pole_dof_idx.to(torch.int32)
        self._init_task_terms()
        self._term_cart_dofs = wp.from_torch(cart.contiguous(), dtype=wp.int32)
        self._term_pole_dofs = wp.from_torch(pole.contiguous(), dtype=wp.int32)
        self._term_obs_dofs = wp.from_torch(torch.cat((cart, pole)).contiguous(), dtype=wp.int32)
        self._term_out_of_bounds = torch.zeros(self.num_envs, dtype=torch.bool, device=device)
        self._term_reward = torch.zeros(self.num_envs, dtype=torch.float32, device=device)
        self._term_obs = torch.zeros(
            (self.num_envs, 2 * self._term_obs_dofs.shape[0]), dtype=torch.float32, device=device
        )
        self._term_out_wp = (
            wp.from_torch(self._term_out_of_bounds, dtype=wp.bool),
            wp.from_torch(self._term_reward, dtype=wp.float32),
            wp.from_torch(self._term_obs, dtype=wp.float32),
        )

    def _pre_physics_step(self, actions: torch.Tensor) -> None:
        """Upstream's scaled actions into ``actions``, set once as the cart's effort target [N].

        The scale is ``self.action_scale``, which upstream copies from ``cfg.action_scale`` at construction and reads
        at each step. Upstream sets the same target again before every physics step of the env step
        (:meth:`_apply_action`); the target command keeps it until the next env step sets a new one.
        """
        torch.mul(actions, self.action_scale, out=self.actions)
        self.cartpole.actuators.target_command.set_effort_index(value=self.actions, joint_ids=self._cart_dof_idx)

    def _apply_action(self) -> None:
        """Nothing to do per physics step: :meth:`_pre_physics_step` set the effort target for the whole env step."""

    def _get_dones(self) -> tuple[torch.Tensor, torch.Tensor]:
        """Upstream's ``(out_of_bounds, time_out)``: a cart beyond ``cfg.max_cart_pos``, the episode at its limit.

        The time-outs are written into core's ``reset_time_outs`` (which core's step sets from them right after).
        """
        joint_pos = self.cartpole.data.joint_pos.warp
        args = (
            joint_pos,
            self._term_cart_dofs,
            float(self.cfg.max_cart_pos),
            self._term_view("episode_length_buf", wp.int64),
            int(self.max_episode_length),
            self._term_out_wp[0],
            self._term_view("reset_time_outs", wp.bool),
        )
        self._term_launches.launch(cartpole_dones_kernel, (self.num_envs,), args)
        # the time-outs go straight into core's buffer, so that its copy of them into it is a no-op
        return self._term_out_of_bounds, self.reset_time_outs

    def _get_rewards(self) -> torch.Tensor:
        """Upstream's ``compute_rewards`` on the current joint state and ``reset_terminated``, ``cfg.rew_scale_*``."""
        data = self.cartpole.data
        cfg = self.cfg
        args = (
            data.joint_pos.warp,
            data.joint_vel.warp,
            self._term_cart_dofs,
            self._term_pole_dofs,
            self._term_view("reset_terminated", wp.bool),
            float(cfg.rew_scale_alive),
            float(cfg.rew_scale_terminated),
            float(cfg.rew_scale_pole_pos),
            float(cfg.rew_scale_cart_vel),
            float(cfg.rew_scale_pole_vel),
            float(self.step_dt),
            self._term_out_wp[1],
        )
        self._term_launches.launch(cartpole_reward_kernel, (self.num_envs,), args)
        return self._term_returned(self._term_reward)

    def _get_observations(self) -> dict:
        """Upstream's policy observation: cart and pole positions, then velocities, relative to the defaults."""
        data = self.cartpole.data
        args = (
            data.joint_pos.warp,
            data.joint_vel.warp,
            data.default_joint_pos.warp,
            data.default_joint_vel.warp,
            self._term_obs_dofs,
            self._term_out_wp[2],
        )
        self._term_launches.launch(cartpole_obs_kernel, (self.num_envs, self._term_obs_dofs.shape[0]), args)
        return {"policy": self._term_returned(self._term_obs)}
