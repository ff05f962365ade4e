"""Interval events by device timers: the event manager's per-env time left counted down and acted on by mask.

Core's :meth:`~isaaclab.managers.EventManager.apply` in ``"interval"`` mode subtracts the step from each env's
time left, turns the envs whose time ran out into indices with ``nonzero`` (a host sync on CUDA) and calls the
event on them. :func:`apply_interval_events_mask` keeps the same timers (the manager's own per-env tensors, on the
device): it counts them down, draws a new interval for every env and keeps it where the time ran out, and calls the
event's mask form (:func:`.mask_events.mask_event_form`) with the due envs as a bool mask. The host reads nothing.

:func:`reset_event_manager_mask` is :meth:`~isaaclab.managers.EventManager.reset` for the envs set in a mask: the
per-env timers of terms that resample on reset draw a new interval there.

Global-time interval terms (``is_global_time``: one timer on the host for all envs) and class-based terms with a
reset of their own have no mask form; :func:`event_terms_mask_reason` names them.
"""

from __future__ import annotations

from typing import Any

import torch
from isaaclab.managers import ManagerTermBase

from .mask_events import mask_event_form

_DUE_TOLERANCE = 1e-6
"""Time left [s] under which an interval event is due (core's tolerance for rounding)."""


def event_terms_mask_reason(events: Any) -> str | None:
    """The first interval or class-based event term of ``events`` (an event manager) without a mask form, or ``None``.

    Class-based terms of any mode are reset with the manager; those whose class keeps core's no-op reset need none.
    """
    for mode, term_cfgs in events._mode_class_term_cfgs.items():
        for term_cfg in term_cfgs:
            func = term_cfg.func
            cls = func if isinstance(func, type) else type(func)
            if cls.reset is not ManagerTermBase.reset:
                return f"{mode} event {cls.__name__} is a class with its own reset (its reset takes env indices)"
    for term_name, term_cfg in zip(
        events.active_terms.get("interval", []), events._mode_term_cfgs.get("interval", []), strict=True
    ):
        if term_cfg.is_global_time:
            return f"interval event '{term_name}' is global-time (its one timer is read on the host)"
        if mask_event_form(term_cfg.func) is None:
            name = getattr(term_cfg.func, "__name__", type(term_cfg.func).__name__)
            return f"interval event '{term_name}' ({name}) has no mask form (see mask_events.mask_event_form)"
    return None


def apply_interval_events_mask(env: Any, dt: float) -> None:
    """Count the interval timers down by ``dt`` [s] and apply each due event to its due envs, by mask.

    Args:
        env: The manager-based environment (its event manager's interval terms, each with a mask form).
        dt: The env step [s].
    """
    events = env.event_manager
    for time_left, term_cfg in zip(events._interval_term_time_left, events._mode_term_cfgs["interval"], strict=True):
        time_left -= dt
        due = time_left < _DUE_TOLERANCE
        lower, upper = term_cfg.interval_range_s
        time_left.copy_(torch.where(due, torch.rand_like(time_left) * (upper - lower) + lower, time_left))
        mask_event_form(term_cfg.func)(env, due, **term_cfg.params)


def reset_event_manager_mask(env: Any, env_mask: torch.Tensor) -> None:
    """The event manager's reset for the envs set in ``env_mask``: new intervals for timers resampled on reset.

    Args:
        env: The manager-based environment.
        env_mask: Envs to reset, bool of shape (num_envs,).
    """
    events = env.event_manager
    for time_left, term_cfg in zip(
        events._interval_term_time_left, events._mode_term_cfgs.get("interval", []), strict=True
    ):
        if term_cfg.resample_interval_on_reset:
            lower, upper = term_cfg.interval_range_s
            time_left.copy_(torch.where(env_mask, torch.rand_like(time_left) * (upper - lower) + lower, time_left))
