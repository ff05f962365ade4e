"""Mask reset of Isaac Lab's direct cartpole tasks: the hooks :class:`~isaaclab_contrib.envs.mask_reset.MaskResetMixin`
calls, for any env class derived from upstream's ``CartpoleEnv`` (ours and ``isaaclab_tasks``' own)."""

from __future__ import annotations

import torch

from isaaclab_contrib.envs.reset_state import ResetStateSampler


class CartpoleMaskResetHooks:
    """Put it before :class:`~isaaclab_contrib.envs.graph_step.GraphStepMixin` in the bases of a cartpole env.

    Resets what upstream's ``CartpoleEnv._reset_idx`` resets, by mask: the joint offsets and the logged success
    rate.
    """

    def __init__(self, cfg, render_mode: str | None = None, **kwargs):
        super().__init__(cfg, render_mode, **kwargs)
        self._reset_joint_ids = (tuple(self._cart_dof_idx.tolist()), tuple(self._pole_dof_idx.tolist()))
        self._reset_state = ResetStateSampler(self.cartpole, self._mask_launches)

    def _write_masked_sim_state(self, mask: torch.Tensor) -> None:
        """Cart and pole offsets sampled for every env, clamped to the soft limits, written where ``mask`` is set.

        The offsets are uniform in the cfg's ``initial_*_range`` fields (upstream's ``sample_uniform``), read at
        each call; a step replayed from a CUDA graph keeps the values it was recorded with.
        """
        cfg = self.cfg
        cart, pole = self._reset_joint_ids
        ranges = (
            (0, cart, tuple(cfg.initial_cart_position_range)),
            (0, pole, tuple(cfg.initial_pole_angle_range)),
            (1, cart, tuple(cfg.initial_cart_velocity_range)),
            (1, pole, tuple(cfg.initial_pole_velocity_range)),
        )
        self._reset_state.write(mask, self.scene.env_origins, ranges)

    def _reset_masked_task(self, mask: torch.Tensor) -> None:
        """Success rate logged; the joint state the observation reads without refreshing it is re-read."""
        self._log_masked_success_rate(mask)
        self.joint_pos = self.cartpole.data.joint_pos.torch
        self.joint_vel = self.cartpole.data.joint_vel.torch
