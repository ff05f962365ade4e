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
from isaaclab_newton.physics.recorded_launch import RecordedLaunches

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
        """``action`` with NaN/inf entries replaced by 0, counted on the device, in one kernel.

        Where the env takes its step input in a persistent buffer (:class:`.graph_step.GraphStepMixin`), the
        finite action is written straight into it; elsewhere into a new tensor, as the action the env was given.
        """
        if not isinstance(action, torch.Tensor):
            raise TypeError(f"{type(self).__name__}.step() expects the action as a torch.Tensor, got {type(action)}.")
        action = action.to(self.device)
        if action.dtype not in _FLOAT_DTYPES:
            raise TypeError(
                f"{type(self).__name__}.step() expects a floating-point action tensor (float16, float32 or"
                f" float64), got {action.dtype}."
            )
        counter = getattr(self, "_nonfinite_actions", None)
        if counter is None:
            counter = self._nonfinite_actions = _NonfiniteActionCounter(self.device)
        step_input = getattr(super(), "_step_input_buffer", None)
        finite = step_input(action) if step_input is not None else torch.empty_like(action)
        counter.replace_nonfinite(action.to(finite.dtype), finite)
        landed = counter.note_step(interval=_log_interval(self))
        if landed is not None and landed[0]:
            logger.warning(
                "[%s] %d non-finite action entries (NaN/inf) in the last %d env steps were replaced by 0; check the"
                " policy output.",
                type(self).__name__,
                *landed,
            )
        return finite


_FLOAT_DTYPES = {torch.float16: wp.float16, torch.float32: wp.float32, torch.float64: wp.float64}


@wp.kernel(enable_backward=False)
def _replace_nonfinite_kernel(
    action: wp.array(dtype=Any), finite: wp.array(dtype=Any), count: wp.array(dtype=wp.int32)
):
    i = wp.tid()
    value = action[i]
    if wp.isfinite(value):
        finite[i] = value
    else:
        finite[i] = type(value)(0.0)
        wp.atomic_add(count, 0, 1)


class _NonfiniteActionCounter:
    """Device count of non-finite action entries, handed to the host every ``interval`` steps without waiting.

    Args:
        device: The env's device.
    """

    def __init__(self, device: str):
        self._cuda = torch.device(device).type == "cuda"
        self._count = torch.zeros(1, dtype=torch.int32, device=device)
        self._count_wp = wp.from_torch(self._count, dtype=wp.int32)
        self._host = torch.zeros(1, dtype=torch.int32, pin_memory=self._cuda)
        self._launches = RecordedLaunches(device, cpu_graphs=NewtonManager.cpu_graphs_enabled())
        self._views: dict[int, tuple[torch.Tensor, wp.array]] = {}
        self._landed: torch.cuda.Event | None = None
        self._steps = 0
        self._copied_steps = 0

    def replace_nonfinite(self, action: torch.Tensor, finite: torch.Tensor) -> None:
        """Write ``action`` into ``finite`` (same shape and dtype) with NaN/inf entries 0, and count those entries."""
        source = self._flat_view(action.contiguous(), 0)
        target = self._flat_view(finite, 1)
        fresh = tuple(i for i, t in ((0, source), (1, target)) if t[0] is None)
        args = (source[1], target[1], self._count_wp)
        self._launches.launch(_replace_nonfinite_kernel, (action.numel(),), args, fresh=fresh)

    def _flat_view(self, tensor: torch.Tensor, slot: int) -> tuple[torch.Tensor | None, wp.array]:
        """A flat Warp view of ``tensor``, kept while the same tensor comes back (the persistent step input)."""
        cached = self._views.get(slot)
        if cached is not None and cached[0] is tensor:
            return cached
        view = wp.from_torch(tensor.reshape(-1), dtype=_FLOAT_DTYPES[tensor.dtype])
        self._views[slot] = (tensor, view)
        return None, view

    def note_step(self, *, interval: int) -> tuple[int, int] | None:
        """Count one step; return ``(count, steps)`` of a copy that reached the host, else ``None``."""
        self._steps += 1
        landed = None
        if self._landed is not None and self._landed.query():
            self._landed = None
            landed = (int(self._host[0]), self._copied_steps)
        if self._steps < interval or self._landed is not None:
            return landed
        self._copied_steps, self._steps = self._steps, 0
        self._host.copy_(self._count, non_blocking=self._cuda)
        self._count.zero_()
        if not self._cuda:
            return int(self._host[0]), self._copied_steps
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
