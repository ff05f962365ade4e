"""Load a registered task's environment configuration from its ``env_cfg_entry_point``."""

from __future__ import annotations

import gymnasium as gym
from isaaclab.utils.string import string_to_callable


def load_env_cfg(task: str):
    """Instantiate the environment configuration registered for ``task``.

    Raises:
        KeyError: If the task is not registered or has no ``env_cfg_entry_point``.
    """
    if task not in gym.registry:
        raise KeyError(f"Task {task!r} is not registered; import isaaclab_contrib.tasks first.")
    entry = gym.registry[task].kwargs.get("env_cfg_entry_point")
    if entry is None:
        raise KeyError(f"Task {task!r} has no env_cfg_entry_point.")
    return string_to_callable(entry)()
