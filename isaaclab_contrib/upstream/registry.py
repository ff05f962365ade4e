"""Isaac Lab's own tasks registered with gymnasium (``isaaclab_tasks``) and their configs on a Newton solver."""

from __future__ import annotations

import gymnasium as gym


def register_isaaclab_tasks() -> None:
    """Register ``isaaclab_tasks``' ids, dropping :mod:`isaaclab_contrib.tasks`' ids from this process first.

    Our ids (``Isaac-Cartpole-Direct-v0``, ...) are versions of upstream's unversioned ids (``Isaac-Cartpole-Direct``),
    which gymnasium refuses to register next to them; the argument checks register ours before a script knows which
    registry its task comes from.
    """
    for task in [t for t, spec in gym.registry.items() if str(spec.entry_point).startswith("isaaclab_contrib.tasks")]:
        del gym.registry[task]
    import isaaclab_tasks  # noqa: F401  (registers the tasks)


def load_upstream_cfg(task: str, entry_point: str, *, solver: str, presets: tuple[str, ...] = ()):
    """The cfg ``task`` registers under ``entry_point``, on the Newton solver ``solver``, ``presets`` resolved.

    Upstream names its Newton presets ``newton_<solver>`` (``newton_mjwarp``, ``newton_kamino``); that preset is
    selected before ``presets`` wherever a cfg offers it. Registers ``isaaclab_tasks`` first
    (:func:`register_isaaclab_tasks`).

    Args:
        task: An id ``isaaclab_tasks`` registers (``"Isaac-Cartpole-Camera-Direct"``).
        entry_point: The registration keyword of the cfg (``"env_cfg_entry_point"``, ``"rsl_rl_cfg_entry_point"``).
        solver: Solver name (``"mjwarp"``); an env cfg must offer ``newton_<solver>`` physics.
        presets: Further preset names (``("depth",)``).

    Raises:
        KeyError: If ``isaaclab_tasks`` does not register ``task``, or ``task`` has no ``entry_point``.
        ValueError: If the env cfg's physics offers no ``newton_<solver>`` preset; names the ones it offers.
    """
    register_isaaclab_tasks()  # before anything of isaaclab_tasks is imported: its package registers its tasks
    from isaaclab_tasks.utils.hydra import resolve_presets
    from isaaclab_tasks.utils.parse_cfg import load_cfg_from_registry

    if task not in gym.registry:
        raise KeyError(f"isaaclab_tasks registers no task {task!r}.")
    if entry_point not in gym.registry[task].kwargs:
        known = sorted(key for key in gym.registry[task].kwargs if key.endswith("_entry_point"))
        raise KeyError(f"Task {task!r} has no {entry_point}; it registers {known}.")
    cfg = load_cfg_from_registry(task, entry_point)
    preset = f"newton_{solver}"
    physics = getattr(getattr(cfg, "sim", None), "physics", None)
    offered = sorted(name for name in vars(physics) if name.startswith("newton_")) if physics is not None else []
    if physics is not None and hasattr(physics, "default") and preset not in offered:
        solvers = [name.removeprefix("newton_") for name in offered]
        raise ValueError(f"{task} offers no {preset} physics preset; --solver takes {solvers} for it.")
    return resolve_presets(cfg, (preset, *presets))
