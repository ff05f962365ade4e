"""Which task ids exist and whose they are: one rule for every script, tool and test.

A task is ours if :mod:`isaaclab_contrib.tasks` registers it (ids with a version, ``Isaac-Ant-Direct-v0``), upstream
if ``isaaclab_tasks`` registers it (read from its sources, :func:`~isaaclab_contrib.upstream.ids.upstream_task_ids`),
and unknown otherwise. Only the standard library and gymnasium's registry are imported here.
"""

from __future__ import annotations

import difflib

import gymnasium as gym

from ..upstream.ids import upstream_task_ids


class UnknownTaskError(ValueError):
    """A task id neither :mod:`isaaclab_contrib.tasks` nor ``isaaclab_tasks`` registers."""


def our_task_ids() -> tuple[str, ...]:
    """Sorted ids :mod:`isaaclab_contrib.tasks` registers (importing it loads no env code)."""
    import isaaclab_contrib.tasks  # noqa: F401  (registers the tasks)

    return tuple(sorted(name for name, spec in gym.registry.items() if _is_ours(spec)))


def is_upstream(task: str) -> bool:
    """Whether ``task`` is one of ``isaaclab_tasks``' ids (``False`` for ours).

    Raises:
        UnknownTaskError: If neither registry has ``task``; names the closest ids.
    """
    if task in upstream_task_ids():
        return True  # answered before our registry is imported: gymnasium refuses both registries in one process
    if task in our_task_ids():
        return False
    close = difflib.get_close_matches(task, [*our_task_ids(), *upstream_task_ids()], n=3, cutoff=0.6)
    hint = f"; did you mean {' or '.join(repr(name) for name in close)}?" if close else "."
    raise UnknownTaskError(
        f"Unknown task {task!r}{hint} scripts/environments/list_envs.py lists every id (ours end in -v0,"
        " isaaclab_tasks' have no version)."
    )


def registration_kwargs(task: str) -> dict:
    """The keywords our task ``task`` registers (``env_cfg_entry_point``, ...).

    Raises:
        UnknownTaskError: If ``task`` is not one of ours.
    """
    if is_upstream(task):
        raise UnknownTaskError(f"{task!r} is an isaaclab_tasks id; its registration is isaaclab_tasks' own.")
    return dict(gym.registry[task].kwargs)


def _is_ours(spec) -> bool:
    return str(spec.entry_point).startswith("isaaclab_contrib.tasks")
