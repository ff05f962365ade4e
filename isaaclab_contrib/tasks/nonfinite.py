"""Non-finite worlds and actions in the tasks: terminate and reset NaN worlds, zero NaN actions with a warning.

The Newton manager flags, on the device, every world whose body or joint state is not finite after a physics
step (:meth:`~isaaclab_newton.physics.NewtonManager.get_nonfinite_worlds`; environment ``i`` is world ``i``).
The tasks turn the flags into terminations, following Isaac Lab's conventions:

- manager-based envs: the termination term :func:`nonfinite_state` (``TerminationsCfg.nonfinite_state``);
- direct envs: :class:`DirectNonfiniteGuardMixin` ORs the flags into ``_get_dones``' ``terminated``.

Either way the env resets the flagged envs in the same step (their observation is the post-reset one),
``extras["nan_envs"]`` holds the number of flagged envs as a 0-d device tensor, and their reward is set to 0.

Actions with NaN or infinite entries are not rejected (that would need a host read every step): the
non-finite entries are replaced by 0 on the device, counted there, and every ``NewtonCfg.nonfinite_log_interval``
env steps the count is copied to the host (on CUDA into pinned memory, without waiting; read on the first later step
at which the copy has landed) and a warning with it is logged.
"""

from __future__ import annotations

import logging
from typing import Any

import torch
import warp as wp

from isaaclab_newton.physics import NewtonManager

logger = logging.getLogger(__name__)


def flag_nonfinite_envs(env: Any) -> torch.Tensor:
    """Return a bool tensor (num_envs,): envs whose world's state was not finite after the last physics step.

    Also stores ``env.extras["nan_envs"]`` (count, 0-d device tensor) and keeps a copy of the mask for the
    reward zeroing of :class:`NonfiniteGuardMixin`. Device-only work: no host synchronization.

    Args:
        env: A direct or manager-based Isaac Lab environment on the Newton backend.
    """
    worlds = NewtonManager.get_nonfinite_worlds()
    cached = getattr(env, "_nonfinite_flags", None)
    if cached is None or cached[0] is not worlds:  # the torch view is made once per flag array
        cached = env._nonfinite_flags = (worlds, wp.to_torch(worlds)[: env.num_envs])
    mask = getattr(env, "_nonfinite_env_mask", None)
    if mask is None:
        mask = env._nonfinite_env_mask = torch.zeros(env.num_envs, dtype=torch.bool, device=env.device)
    mask.copy_(cached[1])
    env.extras["nan_envs"] = mask.sum()
    return mask


def nonfinite_state(env: Any) -> torch.Tensor:
    """Termination term: terminate the envs whose world's body or joint state went non-finite (NaN or inf).

    Add it to a manager-based task's terminations, e.g.
    ``nonfinite_state = TerminationTermCfg(func=nonfinite_state)``; it also sets ``extras["nan_envs"]``.

    Args:
        env: The manager-based environment.

    Returns:
        Bool tensor of shape (num_envs,).
    """
    return flag_nonfinite_envs(env)


class NonfiniteGuardMixin:
    """Mix into an Isaac Lab env class (before it): zero non-finite actions, zero the reward of flagged envs.

    ``step`` replaces NaN/inf action entries by 0 (device only; warns at the ``nonfinite_log_interval`` cadence).
    Manager-based envs flag non-finite worlds with the :func:`nonfinite_state` term; direct envs use
    :class:`DirectNonfiniteGuardMixin`.
    """

    def step(self, action: torch.Tensor):
        """Step with non-finite action entries replaced by 0; flagged envs get reward 0."""
        action = self._finite_action(action)
        obs, reward, terminated, truncated, extras = super().step(action)
        mask = getattr(self, "_nonfinite_env_mask", None)
        if mask is not None:
            reward.masked_fill_(mask, 0.0)
        return obs, reward, terminated, truncated, extras

    def _finite_action(self, action: torch.Tensor) -> torch.Tensor:
        if not isinstance(action, torch.Tensor):
            raise TypeError(f"{type(self).__name__}.step() expects the action as a torch.Tensor, got {type(action)}.")
        action = action.to(self.device)
        if not action.is_floating_point():
            raise TypeError(f"{type(self).__name__}.step() expects a floating-point action tensor, got {action.dtype}.")
        counter = getattr(self, "_nonfinite_actions", None)
        if counter is None:
            counter = self._nonfinite_actions = _NonfiniteActionCounter(self.device)
        # one kernel replaces NaN/inf by 0; the entries it changed are exactly the non-finite ones (torch.isfinite is
        # several kernels on CPU)
        finite = torch.nan_to_num(action, nan=0.0, posinf=0.0, neginf=0.0)
        landed = counter.add(finite != action, interval=_log_interval(self))
        if landed is not None and landed[0]:
            logger.warning(
                "[%s] %d non-finite action entries (NaN/inf) in the last %d env steps were replaced by 0; check the"
                " policy output.",
                type(self).__name__,
                *landed,
            )
        return finite


class _NonfiniteActionCounter:
    """Device count of non-finite action entries, handed to the host every ``interval`` steps without waiting.

    Args:
        device: The env's device.
    """

    def __init__(self, device: str):
        self._cuda = torch.device(device).type == "cuda"
        self._count = torch.zeros((), dtype=torch.int64, device=device)
        self._host = torch.zeros((), dtype=torch.int64, pin_memory=self._cuda)
        self._landed: torch.cuda.Event | None = None
        self._steps = 0
        self._copied_steps = 0

    def add(self, bad: torch.Tensor, *, interval: int) -> tuple[int, int] | None:
        """Count ``bad``'s set entries; return ``(count, steps)`` of a copy that reached the host, else ``None``."""
        self._count += bad.sum()
        self._steps += 1
        landed = None
        if self._landed is not None and self._landed.query():
            self._landed = None
            landed = (int(self._host), self._copied_steps)
        if self._steps < interval or self._landed is not None:
            return landed
        self._copied_steps, self._steps = self._steps, 0
        self._host.copy_(self._count, non_blocking=self._cuda)
        self._count.zero_()
        if not self._cuda:
            return int(self._host), self._copied_steps
        self._landed = torch.cuda.Event()
        self._landed.record()
        return landed


class DirectNonfiniteGuardMixin(NonfiniteGuardMixin):
    """:class:`NonfiniteGuardMixin` for direct envs: ``_get_dones`` also terminates the non-finite worlds."""

    def _get_dones(self) -> tuple[torch.Tensor, torch.Tensor]:
        terminated, time_out = super()._get_dones()
        return terminated | flag_nonfinite_envs(self), time_out


def _log_interval(env: Any) -> int:
    return int(env.cfg.sim.physics.nonfinite_log_interval)


def with_nonfinite_guard(env_class: type) -> type:
    """Return a subclass of the direct env ``env_class`` with :class:`DirectNonfiniteGuardMixin` (new per call)."""
    return type(
        f"{env_class.__name__}OnNewton",
        (DirectNonfiniteGuardMixin, env_class),
        {"__doc__": f"{env_class.__name__} with non-finite worlds terminated and non-finite actions zeroed."},
    )
