"""Checks of a task configuration where an environment is built, with errors that name the field and the fix."""

from __future__ import annotations

import numbers
from typing import Any


def check_num_envs(value: Any, *, field: str = "scene.num_envs") -> int:
    """Return ``value`` as an int when it is a valid environment count.

    Args:
        value: The requested number of environments.
        field: Name of the setting, used in the message.

    Raises:
        ValueError: If it is not an integer >= 1.
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
        raise ValueError(f"{field} must be an integer >= 1 (number of environments), got {value!r}; e.g. 16.")
    return int(value)


def check_env_cfg(cfg: Any) -> None:
    """Validate the settings of ``cfg`` that core would otherwise reject deep inside scene creation.

    Args:
        cfg: A ``DirectRLEnvCfg`` or ``ManagerBasedRLEnvCfg``.

    Raises:
        ValueError: If ``cfg.scene.num_envs`` is not an integer >= 1.
    """
    check_num_envs(cfg.scene.num_envs)
