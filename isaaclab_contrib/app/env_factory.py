"""Making an environment: the one place every script, tool, benchmark and test builds one.

:func:`make_env` builds the env of a task id, ours (:mod:`isaaclab_contrib.tasks`) or upstream's
(``isaaclab_tasks``; :func:`~isaaclab_contrib.app.task_ids.is_upstream` decides), with the env count, device, seed
and solver applied to its config. Upstream ids get their ``newton_<solver>`` presets, a check that their USD assets
are on this machine and their graph-stepped env class where one exists
(:func:`~isaaclab_contrib.upstream.graph_stepped.graph_stepped_spec`).
"""

from __future__ import annotations

import importlib
from typing import Any

import gymnasium as gym

from .console import configure_output, held_prints
from .devices import default_device
from .task_ids import is_upstream, registration_kwargs

DEFAULT_SOLVER = "mjwarp"
"""The solver of upstream ids when none is given (their ``newton_mjwarp`` presets)."""


def load_env_cfg(task: str, *, solver: str | None = None, presets: tuple[str, ...] = ()) -> Any:
    """The env config of ``task`` on the physics of ``solver`` (``None``: the task's default).

    Args:
        task: A registered task id (``"Isaac-Ant-Direct-v0"``, or upstream's ``"Isaac-Cartpole-Camera-Direct"``).
        solver: A physics preset of ours (``"mjwarp"``, ``"featherstone"``, ...; the task's
            :class:`~isaaclab_contrib.tasks.physics_presets.PhysicsPresets`), or for upstream ids the ``<solver>``
            of their ``newton_<solver>`` presets (default ``"mjwarp"``).
        presets: Further presets of an upstream config (``("depth",)``); ours take none.

    Raises:
        UnknownTaskError: If no registry has ``task``; names the closest ids.
        ValueError: If the task does not offer ``solver``, or presets are given for one of ours.
    """
    if is_upstream(task):
        from ..upstream.registry import load_upstream_cfg

        with held_prints(verbose=False):  # isaaclab_tasks' "[INFO]: Parsing configuration" line (shown on error)
            return load_upstream_cfg(task, "env_cfg_entry_point", solver=solver or DEFAULT_SOLVER, presets=presets)
    if presets:
        raise ValueError(f"presets={','.join(presets)} apply to isaaclab_tasks ids (without -v0), not {task!r}.")
    kwargs = registration_kwargs(task)
    cfg = _load_entry_point(kwargs["env_cfg_entry_point"])
    if solver is not None:
        entry = kwargs.get("physics_presets_entry_point")
        if entry is None:
            raise ValueError(f"{task} has one physics configuration; drop --solver {solver}.")
        cfg.sim.physics = _load_entry_point(entry).physics(solver)
    return cfg


def load_agent_cfg(task: str, library: str = "rsl_rl", *, solver: str | None = None, presets: tuple[str, ...] = ()):
    """The ``library`` agent config ``task`` registers (``<library>_cfg_entry_point``).

    Raises:
        UnknownTaskError: If no registry has ``task``.
        KeyError: If ``task`` registers no agent config for ``library``; names the tasks that do.
    """
    key = f"{library}_cfg_entry_point"
    if is_upstream(task):
        from ..upstream.registry import load_upstream_cfg

        with held_prints(verbose=False):
            return load_upstream_cfg(task, key, solver=solver or DEFAULT_SOLVER, presets=presets)
    entry = registration_kwargs(task).get(key)
    if entry is None:
        raise KeyError(f"Task {task!r} registers no {library} agent cfg ({key}).")
    return _load_entry_point(entry)


def make_env(
    task: str,
    *,
    num_envs: int | None = None,
    device: str | None = None,
    seed: int | None = None,
    solver: str | None = None,
    presets: tuple[str, ...] = (),
    cfg: Any = None,
    viewer: Any = None,
    verbose: bool = False,
) -> gym.Env:
    """Build the env of ``task``.

    Output is quiet unless ``verbose`` (:func:`~isaaclab_contrib.app.console.configure_output`): Warp's module loads
    and Isaac Lab's setup prints are held back, warnings and errors show.

    Args:
        task: A registered task id, ours or upstream's.
        num_envs: Environments (default: the config's).
        device: ``"cpu"`` or ``"cuda:<index>"`` (default: ``cuda:0`` where the driver reports a GPU, else ``cpu``).
        seed: Environment seed (default: the config's).
        solver: Physics preset (see :func:`load_env_cfg`); not with ``cfg``.
        presets: Upstream presets (see :func:`load_env_cfg`); not with ``cfg``.
        cfg: A config of ``task`` from :func:`load_env_cfg` that the caller changed (default: a new one).
        viewer: A :class:`~isaaclab_contrib.viewer.LiveViewerCfg` that draws the env live (default: the config's
            ``viewer`` field where it is one; none otherwise). The env comes back wrapped in a
            :class:`~isaaclab_contrib.viewer.LiveViewer` unless its backend is ``none``.
        verbose: Print everything the libraries print.

    Raises:
        UnknownTaskError: If no registry has ``task``; names the closest ids.
        ValueError: For an env count below 1, ``solver``/``presets`` next to ``cfg``, or a solver the task does not
            offer.
        SystemExit: For an upstream task whose USD assets are not on this machine; names how to write them.
    """
    if num_envs is not None and (isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1):
        raise ValueError(f"num_envs must be an integer of at least 1, got {num_envs!r}.")
    if cfg is None:
        cfg = load_env_cfg(task, solver=solver, presets=presets)
    elif solver is not None or presets:
        raise ValueError("Pass the solver and presets to load_env_cfg(task, solver=..., presets=...) with cfg.")
    if num_envs is not None:
        cfg.scene.num_envs = num_envs
    cfg.sim.device = device or default_device()
    if seed is not None:
        cfg.seed = seed
    spec = task
    if is_upstream(task):
        from ..upstream.graph_stepped import graph_stepped_spec
        from ..upstream.offline_assets import check_offline_assets

        check_offline_assets(task, cfg)
        spec = graph_stepped_spec(task)
    configure_output(verbose=verbose)
    with held_prints(verbose=verbose):
        env = gym.make(spec, cfg=cfg)
    return _attach_viewer(env, viewer if viewer is not None else getattr(cfg, "viewer", None))


def _attach_viewer(env: gym.Env, viewer: Any) -> gym.Env:
    """``env`` wrapped in a live viewer where ``viewer`` is a :class:`LiveViewerCfg` with a backend."""
    if getattr(viewer, "backend", "none") == "none":
        return env  # core's ViewerCfg has no backend: the viewer package (viser and its dependencies) is not loaded
    from ..viewer import LiveViewer, LiveViewerCfg

    if not isinstance(viewer, LiveViewerCfg):
        return env
    try:
        return LiveViewer(env, viewer)
    except BaseException:
        env.close()
        raise


def _load_entry_point(entry: str) -> Any:
    """``"package.module:name"`` -> the object (a config class is instantiated)."""
    module, _, name = entry.partition(":")
    value = getattr(importlib.import_module(module), name)
    return value() if isinstance(value, type) else value
