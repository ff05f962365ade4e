"""Resolve a sensor's prim-path expressions to Newton bodies through the manager's scene index.

Sensors read the same rows (instances in world order) and body columns as the asset on the same prim, because
both come from :class:`~isaaclab_newton.physics.scene_index.SceneIndex`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import warp as wp

from ..physics.newton_manager import NewtonManager
from ..physics.scene_index import BodySelection


def select_env_bodies(prim_path_expr: str, num_envs: int, *, mode: str, what: str) -> BodySelection:
    """Select the bodies ``prim_path_expr`` names, one row per environment.

    Args:
        prim_path_expr: Regular expression of the prim path (``{ENV_REGEX_NS}`` already expanded).
        num_envs: Number of environments the sensor spans.
        mode: See :meth:`SceneIndex.select_bodies` (``"exact"``, ``"ancestor"`` or ``"subtree"``).
        what: Name of the configuration field, used in error messages.

    Raises:
        ValueError: If the expression names no body or its prim does not have one instance per environment.
    """
    try:
        selection = NewtonManager.get_scene_index().select_bodies(prim_path_expr, mode=mode)
    except ValueError as exc:
        raise ValueError(f"{what}: {exc}") from exc
    rows = selection.owner.num_instances
    if rows != num_envs:
        raise ValueError(
            f"{what} {prim_path_expr!r} resolves to a prim with {rows} instances ({selection.owner.prim_path!r}) but"
            f" the scene has {num_envs} environments; the expression must select bodies in every environment."
        )
    return selection


def select_env_body_union(prim_path_exprs: Sequence[str], num_envs: int, *, what: str) -> tuple[np.ndarray, list[str]]:
    """Bodies named by any of ``prim_path_exprs`` (each exact), per environment, ordered by expression.

    Returns:
        Body indices of shape (num_envs, bodies_per_env) and the body names, without repeats.
    """
    columns: list[np.ndarray] = []
    names: list[str] = []
    seen: set[int] = set()
    for expr in prim_path_exprs:
        selection = select_env_bodies(expr, num_envs, mode="exact", what=what)
        indices = selection.body_indices
        for c, name in enumerate(selection.names):
            if int(indices[0, c]) not in seen:
                seen.add(int(indices[0, c]))
                columns.append(indices[:, c])
                names.append(name)
    return np.stack(columns, axis=1).astype(np.int32), names


def resolve_frame_sensor(cfg, num_envs: int, device: str, *, what: str) -> tuple[wp.array, wp.transform]:
    """Body (one per env, closest body ancestor of the prim) and offset frame of a body-frame sensor (IMU, Pva).

    Args:
        cfg: The sensor cfg (``prim_path`` and ``offset.pos`` [m] / ``offset.rot`` (w, x, y, z)).
        num_envs: Number of environments the sensor spans.
        device: Device of the returned body index array.
        what: Name of the sensor cfg class, used in error messages.

    Raises:
        RuntimeError: Before the model is finalized.
        ValueError: If the prim path does not select one body per environment.
    """
    if NewtonManager.get_model() is None:
        raise RuntimeError(f"{what} initialization needs a finalized Newton model (PHYSICS_READY).")
    selection = select_env_bodies(cfg.prim_path, num_envs, mode="ancestor", what=f"{what}.prim_path")
    bodies = wp.array(selection.body_indices[:, 0], dtype=wp.int32, device=device)
    return bodies, wp.transform(wp.vec3(*cfg.offset.pos), wp.quat(*cfg.offset.rot))


def require_body_qdd(sensor: str, solvers: str = "") -> wp.array:
    """The manager's ``body_qdd`` observable array, or an error telling how to get it requested.

    Raises:
        RuntimeError: If the manager allocated no ``body_qdd`` observable.
    """
    observables = NewtonManager.get_observables()
    if observables is None or observables.body_qdd is None:
        raise RuntimeError(
            f"The {sensor} needs the 'body_qdd' observable but the manager allocated none; create the sensor before"
            f" sim.reset() so its request reaches the solver{solvers}."
        )
    return observables.body_qdd
