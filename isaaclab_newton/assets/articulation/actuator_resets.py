"""Resets of core's actuator groups by env mask, without turning the mask into env indices on the host.

Core resets actuator groups by env index (:meth:`~isaaclab.actuators.ActuatorCollection.reset`). Stateless groups
(implicit, ideal PD, DC motor) have nothing to reset; the actuator networks clear their per-env history with
:func:`isaaclab.utils.array.index_fill_`, which takes a bool mask as well; the delayed PD groups (and their
remotized subclass) draw new per-env delays, here for every env and kept only where the mask is set. Groups of
other classes reset by index: their envs are found with ``nonzero``, a host sync on CUDA
(:func:`index_only_groups` names them, so that a caller can avoid the mask path).

:func:`groups_rebinding_state` names the groups whose ``compute`` rebinds their per-env state to new tensors on
every physics step (core's MLP actuator network rolls its history into a new tensor): a step replayed from a CUDA
graph would read the tensor bound when it was recorded on every replay, so such scenes step eagerly.
"""

from __future__ import annotations

from collections.abc import Callable

import torch
from isaaclab.actuators import (
    ActuatorBase,
    ActuatorCollection,
    ActuatorNetLSTM,
    ActuatorNetMLP,
    DCMotor,
    DelayedPDActuator,
    IdealPDActuator,
    ImplicitActuator,
)

_STATELESS = frozenset({ImplicitActuator.reset, IdealPDActuator.reset, DCMotor.reset})
"""Group resets that clear nothing."""


def _reset_delayed_pd(group: DelayedPDActuator, mask: torch.Tensor) -> None:
    """New delays in ``[cfg.min_delay, cfg.max_delay]`` steps and cleared buffers for the envs set in ``mask``.

    One delay is drawn per env for the three command buffers, as core's index reset does.
    """
    cfg = group.cfg
    lags = torch.randint(cfg.min_delay, cfg.max_delay + 1, (group._num_envs,), dtype=torch.int, device=group._device)
    for buffer in group._delay_buffers:
        current = buffer.time_lags
        torch.where(mask, lags.to(current.dtype), current, out=current)
        buffer.reset(mask)


_BY_MASK: dict[Callable, Callable[[ActuatorBase, torch.Tensor], None]] = {
    ActuatorNetLSTM.reset: lambda group, mask: group.reset(mask),
    ActuatorNetMLP.reset: lambda group, mask: group.reset(mask),
    DelayedPDActuator.reset: _reset_delayed_pd,
}
"""Mask resets of the stateful groups, keyed by the group class' ``reset``."""


_REBINDS_STATE = frozenset({ActuatorNetMLP.compute})
"""Group ``compute`` methods that bind new per-env state tensors on every call."""


def groups_rebinding_state(collection: ActuatorCollection) -> list[str]:
    """Names of the groups of ``collection`` whose ``compute`` rebinds per-env state tensors on every call."""
    return [
        name
        for name, group in collection._groups.items()
        if isinstance(group, ActuatorBase) and type(group).compute in _REBINDS_STATE
    ]


def index_only_groups(collection: ActuatorCollection) -> list[str]:
    """Names of the groups of ``collection`` whose per-env state resets by env index only."""
    return [
        name
        for name, group in collection._groups.items()
        if isinstance(group, ActuatorBase) and type(group).reset not in _STATELESS | _BY_MASK.keys()
    ]


def reset_groups_by_mask(collection: ActuatorCollection, mask: torch.Tensor) -> None:
    """Reset the actuator groups of ``collection`` for the envs set in ``mask`` (bool, shape ``(num_envs,)``).

    Groups of :func:`index_only_groups` reset by the indices of ``mask``, which reads ``mask`` on the host.
    """
    index_only = []
    for group in collection._groups.values():
        if not isinstance(group, ActuatorBase):
            continue  # Newton-executed groups keep no state on this side
        reset = type(group).reset
        if reset in _STATELESS:
            continue
        by_mask = _BY_MASK.get(reset)
        if by_mask is None:
            index_only.append(group)
        else:
            by_mask(group, mask)
    if index_only:
        env_ids = torch.nonzero(mask).reshape(-1)
        for group in index_only:
            group.reset(env_ids)
