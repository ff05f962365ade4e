"""Episode logs of a manager-based env's mask reset, computed on the device by one Warp kernel per reset.

Core's reward and termination managers log, on each reset, ``Episode_Reward/<term>`` (the mean over the reset envs
of the term's episode sum, divided by the episode length [s]) and ``Episode_Termination/<term>`` (the share of all
envs whose last episode ended by the term), and clear the reset envs' episode sums. :class:`MaskedEpisodeLog` does
the same for the envs set in a bool mask in one launch: one block per term reduces over the envs, and the reset envs'
sums are cleared by the threads that read them. On steps where no env resets the logged values keep their last
values, as in core.
"""

from __future__ import annotations

import torch
import warp as wp

_BLOCK_DIM = 256
"""Threads per term on CUDA (each sums a strided share of the envs before the block's reduction)."""


class MaskedEpisodeLog:
    """The logged episode values of a manager-based env: 0-d device tensors updated in place by :meth:`update`.

    Args:
        reward_names: Reward term names (columns of the reward manager's episode sums).
        termination_names: Termination term names (columns of the termination manager's last episode dones).
        device: Torch device of the env.
    """

    def __init__(self, reward_names: list[str], termination_names: list[str], device: str):
        names = [f"Episode_Reward/{name}" for name in reward_names]
        names += [f"Episode_Termination/{name}" for name in termination_names]
        self._device = wp.get_device(str(device))
        self._values = torch.zeros(len(names), dtype=torch.float32, device=device)
        self._values_wp = wp.from_torch(self._values, dtype=wp.float32)
        self.views: dict[str, torch.Tensor] = {name: self._values[i] for i, name in enumerate(names)}
        """Log entries (name to 0-d view of the values), to put in ``extras["log"]``."""
        self._inputs: tuple[tuple[torch.Tensor, ...], list[wp.array]] | None = None

    def update(
        self,
        mask: torch.Tensor,
        episode_sums: torch.Tensor,
        last_episode_dones: torch.Tensor,
        max_episode_length_s: float,
    ) -> None:
        """Log the episodes of the envs set in ``mask`` and clear their episode sums (values kept if none is set).

        Args:
            mask: Envs that reset, bool of shape (num_envs,).
            episode_sums: The reward manager's episode sums, float32 (num_envs, num_reward_terms); cleared where
                ``mask`` is set.
            last_episode_dones: The termination manager's last episode dones, bool (num_envs, num_termination_terms).
            max_episode_length_s: Episode length [s] the reward sums are divided by.
        """
        if not self.views:
            return
        tensors = (mask, episode_sums, last_episode_dones)
        if self._inputs is None or any(a is not b for a, b in zip(self._inputs[0], tensors, strict=True)):
            arrays = [
                wp.from_torch(mask, dtype=wp.bool),
                wp.from_torch(episode_sums, dtype=wp.float32),
                wp.from_torch(last_episode_dones, dtype=wp.bool),
            ]
            self._inputs = (tensors, arrays)
        wp.launch_tiled(
            _episode_log_kernel,
            dim=[self._values.shape[0]],
            inputs=[*self._inputs[1], float(max_episode_length_s)],
            outputs=[self._values_wp],
            block_dim=_BLOCK_DIM,
            device=self._device,
        )


@wp.kernel(enable_backward=False)
def _episode_log_kernel(
    mask: wp.array(dtype=wp.bool),
    episode_sums: wp.array2d(dtype=wp.float32),
    last_episode_dones: wp.array2d(dtype=wp.bool),
    max_episode_length_s: float,
    values: wp.array(dtype=wp.float32),
):
    """Block ``term`` logs reward term ``term`` or, past the reward terms, a termination term; see the module notes."""
    term, lane = wp.tid()
    num_envs = mask.shape[0]
    num_rewards = episode_sums.shape[1]
    count = float(0.0)  # noqa: UP018 - Warp: a variable changed in a dynamic loop is declared by its type
    total = float(0.0)  # noqa: UP018
    env = lane
    while env < num_envs:
        if mask[env]:
            count += 1.0
            if term < num_rewards:
                total += episode_sums[env, term]
                episode_sums[env, term] = 0.0
        if term >= num_rewards:  # noqa: SIM102 - Warp does not short-circuit: the index below is negative then
            if last_episode_dones[env, term - num_rewards]:
                total += 1.0
        env += wp.block_dim()
    count_sum = wp.tile_sum(wp.tile(count))
    total_sum = wp.tile_sum(wp.tile(total))
    if lane == 0 and count_sum[0] > 0.0:
        if term < num_rewards:
            values[term] = total_sum[0] / (count_sum[0] * max_episode_length_s)
        else:
            values[term] = total_sum[0] / float(num_envs)
