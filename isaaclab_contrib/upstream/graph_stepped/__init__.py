"""Graph-stepped forms of ``isaaclab_tasks``' own env classes, for runs on upstream task ids.

``gym.make("Isaac-Cartpole-Camera-Direct", ...)`` builds upstream's class, whose steps run eagerly (core's
``DirectRLEnv``). :func:`graph_stepped_spec` gives the registered spec with its entry point swapped for a subclass
that adds the mask reset (:class:`~isaaclab_contrib.envs.mask_reset.MaskResetMixin`) and whole env steps replayed
from one CUDA graph (:class:`~isaaclab_contrib.envs.graph_step.GraphStepMixin`); upstream's task code, terms and
cfgs are used unchanged. Tasks without such a form keep their spec.

Import this package in a process that uses ``isaaclab_tasks``' registry (not :mod:`isaaclab_contrib.tasks`'):
the subclasses in :mod:`.cartpole` import upstream's task modules.
"""

from __future__ import annotations

import dataclasses

import gymnasium as gym

GRAPH_STEPPED_ENTRY_POINTS = {
    "isaaclab_tasks.core.cartpole.cartpole_direct_env:CartpoleEnv": f"{__name__}.cartpole:CartpoleGraphStepEnv",
    "isaaclab_tasks.core.cartpole.cartpole_direct_camera_env:CartpoleCameraEnv": (
        f"{__name__}.cartpole:CartpoleCameraGraphStepEnv"
    ),
}
"""Upstream entry points (``module:Class``) and the graph-stepped subclasses that replace them."""


def graph_stepped_spec(task: str) -> gym.envs.registration.EnvSpec:
    """The registered spec of ``task`` with a graph-stepped entry point where one exists, else the spec itself.

    Raises:
        KeyError: If ``task`` is not registered (import ``isaaclab_tasks`` first).
    """
    if task not in gym.registry:
        raise KeyError(f"Task {task!r} is not registered; import isaaclab_tasks first.")
    spec = gym.registry[task]
    entry_point = GRAPH_STEPPED_ENTRY_POINTS.get(spec.entry_point) if isinstance(spec.entry_point, str) else None
    return spec if entry_point is None else dataclasses.replace(spec, entry_point=entry_point)
