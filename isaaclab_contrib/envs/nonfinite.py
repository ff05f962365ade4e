"""Non-finite worlds and actions in the tasks: terminate and reset NaN worlds, zero NaN actions with a warning.

The Newton manager flags, on the device, every world whose body or joint state is not finite after a physics
step, or moves faster than ``NewtonCfg.nonfinite_speed_limit`` (a diverging solver)
(:meth:`~isaaclab_newton.physics.NewtonManager.get_nonfinite_worlds`; environment ``i`` is world ``i``).
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
from types import MappingProxyType
from typing import Any

import torch
import warp as wp

from isaaclab_newton.physics import NewtonManager
from isaaclab_newton.physics.recorded_launch import RecordedLaunches

from .nonfinite_kernels import nonfinite_count_kernel, nonfinite_flags_kernel, zero_nonfinite_kernel

logger = logging.getLogger(__name__)

_FLOAT_BITS = MappingProxyType(
    {
        torch.float16: (torch.int16, wp.int16(0x7C00)),
        torch.bfloat16: (torch.int16, wp.int16(0x7F80)),
        torch.float32: (torch.int32, wp.int32(0x7F800000)),
        torch.float64: (torch.int64, wp.int64(0x7FF0000000000000)),
    }
)
"""Float dtypes whose non-finite entries are replaced: integer dtype of the same width, exponent bits set."""


def nonfinite_state(env: Any) -> torch.Tensor:
    """Termination term: terminate the envs whose world's body or joint state went non-finite (NaN or inf).

    Add it to a manager-based task's terminations, e.g.
    ``nonfinite_state = TerminationTermCfg(func=nonfinite_state)``. It also stores ``env.extras["nan_envs"]`` (the
    count, a 0-d int64 device tensor updated in place by every call) and keeps the flags for the reward zeroing of
    :class:`NonfiniteGuardMixin`. Device-only work: no host synchronization.

    Args:
        env: The manager-based environment.

    Returns:
        Bool tensor of shape (num_envs,): the envs whose world's state was not finite after the last physics step.
    """
    return _world_flags(env).update(None)


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
        flags = getattr(self, "_nonfinite_world_flags", None)
        if flags is not None:
            reward.masked_fill_(flags.mask, 0.0)
        return obs, reward, terminated, truncated, extras

    def _finite_action(self, action: torch.Tensor) -> torch.Tensor:
        """``action`` with NaN/inf entries replaced by 0 and counted, in one kernel.

        Where the env reads its step input from a persistent buffer (:class:`.graph_step.GraphStepMixin`), the
        finite action is written straight into it (no second copy); elsewhere into a new tensor.
        """
        if not isinstance(action, torch.Tensor):
            raise TypeError(f"{type(self).__name__}.step() expects the action as a torch.Tensor, got {type(action)}.")
        action = action.to(self.device)
        if not action.is_floating_point():
            raise TypeError(f"{type(self).__name__}.step() expects a floating-point action tensor, got {action.dtype}.")
        counter = getattr(self, "_nonfinite_actions", None)
        if counter is None:
            counter = self._nonfinite_actions = _NonfiniteActionCounter(self.device)
        step_input = getattr(super(), "_step_input_buffer", None)
        finite = counter.zero_nonfinite(action, out=None if step_input is None else step_input(action))
        landed = counter.add_step(interval=_log_interval(self))
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
        self._count_wp = wp.from_torch(self._count.view(1))
        self._host = torch.zeros((), dtype=torch.int64, pin_memory=self._cuda)
        self._landed: torch.cuda.Event | None = None
        self._steps = 0
        self._copied_steps = 0
        self._launches = RecordedLaunches(device)
        self._bits_views: dict[int, tuple[torch.Tensor, wp.array]] = {}

    def zero_nonfinite(self, action: torch.Tensor, *, out: torch.Tensor | None = None) -> torch.Tensor:
        """A copy of ``action`` with its NaN and infinite entries replaced by +0.0, which are added to the count.

        One kernel launch (:func:`.nonfinite_kernels.zero_nonfinite_kernel`), on the floats' bit patterns.

        Args:
            action: The action.
            out: A contiguous tensor of ``action``'s shape to write the copy into (``action`` is converted to its
                dtype first); a new tensor when ``None``.
        """
        if out is not None and out.dtype != action.dtype:
            action = action.to(out.dtype)
        layout = _FLOAT_BITS.get(action.dtype)
        if layout is None:
            raise TypeError(
                f"Non-finite action entries can be replaced in {', '.join(map(str, _FLOAT_BITS))} actions, not"
                f" {action.dtype}; convert the action to torch.float32."
            )
        bits_dtype, exponent_mask = layout
        action = action.contiguous()
        finite = torch.empty_like(action) if out is None else out
        source, source_fresh = self._bits_view(0, action, bits_dtype)
        target, target_fresh = self._bits_view(2, finite, bits_dtype)
        fresh = tuple(slot for slot, new in ((0, source_fresh), (2, target_fresh)) if new)
        args = (source, exponent_mask, target, self._count_wp)
        self._launches.launch(zero_nonfinite_kernel, (action.numel(),), args, fresh=fresh)
        return finite

    def _bits_view(self, slot: int, tensor: torch.Tensor, bits_dtype: torch.dtype) -> tuple[wp.array, bool]:
        """A flat integer Warp view of ``tensor``, kept while the same tensor comes back; whether it is new.

        A policy that writes its actions into the same tensor every step, and the env's persistent step input, are
        viewed once (the recorded launch then replays as it is); a new tensor on every step is re-packed.
        """
        cached = self._bits_views.get(slot)
        if cached is not None and cached[0] is tensor:
            return cached[1], False
        view = wp.from_torch(tensor.view(-1).view(bits_dtype))
        self._bits_views[slot] = (tensor, view)
        return view, cached is not None

    def add_step(self, *, interval: int) -> tuple[int, int] | None:
        """Count one step; return ``(count, steps)`` of a copy that reached the host, else ``None``."""
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
    """:class:`NonfiniteGuardMixin` for direct envs: ``_get_dones`` also terminates the non-finite worlds.

    The terminations are written into core's ``reset_terminated`` (which core's step sets from them right after).
    """

    def _get_dones(self) -> tuple[torch.Tensor, torch.Tensor]:
        terminated, time_out = super()._get_dones()
        # written into core's own buffer: its copy of the returned terminations into it is then a no-op
        return _world_flags(self).update(terminated, out=self.reset_terminated), time_out


class _NonfiniteWorldFlags:
    """The envs whose world went non-finite (a persistent mask), their count, and the terminations they join.

    Two kernel launches per update: the flags (with the OR and the count) and the count's finalize.

    Args:
        env: The environment.
    """

    def __init__(self, env: Any):
        num_envs, device = env.num_envs, env.device
        self.mask = torch.zeros(num_envs, dtype=torch.bool, device=device)
        """Envs whose world's state was not finite after the last physics step, as of the last update."""
        self._terminated = torch.zeros_like(self.mask)
        self.count = torch.zeros((), dtype=torch.int64, device=device)
        """Number of envs set in :attr:`mask` (0-d int64), updated in place."""
        self._out = (
            wp.from_torch(self.mask),
            wp.from_torch(self._terminated),
            wp.from_torch(torch.zeros(1, dtype=torch.int32, device=device)),
            wp.from_torch(self.count.view(1)),
        )
        self._worlds: tuple[wp.array, wp.array] | None = None
        self._base: tuple[torch.Tensor, wp.array] | None = None
        self._target: tuple[torch.Tensor, wp.array] | None = None
        self._launches = RecordedLaunches(device)
        self._num_envs = num_envs

    def update(self, terminated: torch.Tensor | None, *, out: torch.Tensor | None = None) -> torch.Tensor:
        """Read the flags; return :attr:`mask`, or ``terminated`` OR the flags (a persistent tensor) when given.

        Args:
            terminated: The task's terminations (bool, ``(num_envs,)``), or ``None`` for the flags alone.
            out: Where to write ``terminated`` OR the flags (a persistent bool tensor of the same shape, e.g. the
                env's ``reset_terminated``, so that core's copy into it is a no-op); a buffer of its own when ``None``.
        """
        worlds = NewtonManager.get_nonfinite_worlds()
        if self._worlds is None or self._worlds[0] is not worlds:  # the view is made once per flag array
            self._worlds = (worlds, worlds[: self._num_envs])
        flags = self._worlds[1]
        fresh = ()
        if terminated is None:
            base = flags  # the OR of the flags with themselves: the flags
        else:
            if self._base is None or self._base[0] is not terminated:
                # a task returning a new tensor on every step: re-packed on every call from the second one on
                fresh = () if self._base is None else (1,)
                self._base = (terminated, wp.from_torch(terminated, dtype=wp.bool))
            base = self._base[1]
        mask, terminated_out, count, total = self._out
        result = self._terminated
        if out is not None:
            if self._target is None or self._target[0] is not out:
                self._target = (out, wp.from_torch(out, dtype=wp.bool))
            result, terminated_out = self._target
        self._launches.launch(
            nonfinite_flags_kernel, (self._num_envs,), (flags, base, mask, terminated_out, count), fresh=fresh
        )
        self._launches.launch(nonfinite_count_kernel, (1,), (count, total))
        return self.mask if terminated is None else result


def _world_flags(env: Any) -> _NonfiniteWorldFlags:
    """The env's :class:`_NonfiniteWorldFlags` (made on the first call), its count set as ``extras["nan_envs"]``."""
    flags = getattr(env, "_nonfinite_world_flags", None)
    if flags is None:
        flags = env._nonfinite_world_flags = _NonfiniteWorldFlags(env)
    env.extras["nan_envs"] = flags.count
    return flags


def _log_interval(env: Any) -> int:
    return int(env.cfg.sim.physics.nonfinite_log_interval)


def with_nonfinite_guard(env_class: type) -> type:
    """Return a subclass of the direct env ``env_class`` with :class:`DirectNonfiniteGuardMixin` (new per call)."""
    return type(
        f"{env_class.__name__}OnNewton",
        (DirectNonfiniteGuardMixin, env_class),
        {"__doc__": f"{env_class.__name__} with non-finite worlds terminated and non-finite actions zeroed."},
    )
