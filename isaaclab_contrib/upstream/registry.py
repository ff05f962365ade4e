"""Load a registered task's configurations from its gymnasium entry points."""

from __future__ import annotations

import gymnasium as gym
from isaaclab.utils.string import string_to_callable


def _load_entry_point(task: str, key: str):
    """Instantiate the configuration registered for ``task`` under the keyword ``key``."""
    if task not in gym.registry:
        raise KeyError(f"Task {task!r} is not registered; import isaaclab_contrib.tasks first.")
    entry = gym.registry[task].kwargs.get(key)
    if entry is None:
        known = sorted(k for k in gym.registry[task].kwargs if k.endswith("_entry_point"))
        raise KeyError(f"Task {task!r} has no {key}; it registers {known}.")
    return string_to_callable(entry)()


def load_env_cfg(task: str):
    """Instantiate the environment configuration registered for ``task``.

    Raises:
        KeyError: If the task is not registered or has no ``env_cfg_entry_point``.
    """
    return _load_entry_point(task, "env_cfg_entry_point")


def load_agent_cfg(task: str, library: str = "rsl_rl"):
    """Instantiate the agent configuration ``task`` registers for the RL ``library`` (``<library>_cfg_entry_point``).

    Raises:
        KeyError: If the task is not registered or has no agent configuration for ``library``.
    """
    return _load_entry_point(task, f"{library}_cfg_entry_point")


def register_isaaclab_tasks() -> None:
    """Register Isaac Lab's own tasks (``isaaclab_tasks``), dropping ours from this process's registry first.

    Our ids (``Isaac-Cartpole-Direct-v0``, ...) are versions of upstream's unversioned ids (``Isaac-Cartpole-Direct``),
    which gymnasium refuses to register next to them; the argument checks register ours before the scripts know
    which registry a task comes from.
    """
    for task in [t for t, spec in gym.registry.items() if str(spec.entry_point).startswith("isaaclab_contrib.tasks")]:
        del gym.registry[task]
    import isaaclab_tasks  # noqa: F401  (registers the tasks)


def load_isaaclab_task_cfgs(task: str, presets: tuple[str, ...], library: str = "rsl_rl") -> tuple[object, object]:
    """Env and ``library`` agent cfgs of an ``isaaclab_tasks`` task, with ``presets`` resolved.

    Registers ``isaaclab_tasks`` first (:func:`register_isaaclab_tasks`).

    Raises:
        KeyError: If ``isaaclab_tasks`` does not register ``task``.
        ValueError: If the task has no such cfg entry point.
    """
    register_isaaclab_tasks()  # before anything of isaaclab_tasks is imported: its package registers its tasks
    from isaaclab_tasks.utils.hydra import resolve_presets
    from isaaclab_tasks.utils.parse_cfg import load_cfg_from_registry

    if task not in gym.registry:
        raise KeyError(f"Unknown task {task!r}; isaaclab_tasks registers e.g. Isaac-Cartpole-Camera-Direct.")
    env_cfg = load_cfg_from_registry(task, "env_cfg_entry_point")
    agent_cfg = load_cfg_from_registry(task, f"{library}_cfg_entry_point")
    return resolve_presets(env_cfg, presets), resolve_presets(agent_cfg, presets)
