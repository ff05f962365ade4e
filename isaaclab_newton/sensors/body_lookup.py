"""Resolve a sensor's prim-path expression to one Newton body per environment."""

from __future__ import annotations

import re

import newton
import numpy as np


def label_matches(pattern: re.Pattern, label: str) -> bool:
    """Whether a body label matches a prim-path pattern, directly or as ``<ancestor path>/<body name>``.

    Importers nest bodies below intermediate prims (``Robot/ant/worldbody/torso/front_left_leg``), while Isaac Lab
    configurations name them below the asset root (``Robot/front_left_leg``): every path made of a prefix of the
    label followed by the body's own name is tried as well.
    """
    if pattern.fullmatch(label):
        return True
    parts = label.rstrip("/").split("/")
    return any(pattern.fullmatch("/".join([*parts[:k], parts[-1]])) for k in range(1, len(parts) - 1))


def resolve_env_bodies(model: newton.Model, prim_path_expr: str, num_envs: int) -> np.ndarray:
    """Return the body index each environment's sensor is attached to.

    Bodies are labelled with their prim paths (``/World/envs/env_3/Robot/torso``). A prim that is not a body
    resolves to its closest body ancestor, as Isaac Lab's sensors do.

    Args:
        model: The finalized model.
        prim_path_expr: Regular expression of the sensor prim path (``{ENV_REGEX_NS}`` already expanded).
        num_envs: Number of environments the sensor spans.

    Returns:
        Body indices, shape (num_envs,), ordered by world.

    Raises:
        ValueError: If the expression does not match exactly one body (or body ancestor) per environment.
    """
    labels = list(model.body_label)
    worlds = model.body_world.numpy()
    from isaaclab.sim import split_path_expr

    parts = split_path_expr(prim_path_expr.rstrip("/"))
    for cut in range(len(parts), 1, -1):
        pattern = re.compile("/".join(parts[:cut]))
        matches = [i for i, label in enumerate(labels) if label_matches(pattern, label)]
        if matches:
            break
    else:
        raise ValueError(
            f"No Newton body matches sensor prim path '{prim_path_expr}' or any of its ancestors. Attach the sensor"
            f" to a rigid body of the scene (bodies: {labels[:8]}{' ...' if len(labels) > 8 else ''})."
        )
    if len(matches) != num_envs:
        raise ValueError(
            f"Sensor prim path '{prim_path_expr}' resolves to {len(matches)} bodies ({[labels[i] for i in matches][:4]}"
            f" ...) but the scene has {num_envs} environments; the expression must select one body per environment."
        )
    return np.asarray(sorted(matches, key=lambda i: (int(worlds[i]), i)), dtype=np.int32)


def resolve_env_subtree_bodies(model: newton.Model, prim_path_expr: str, num_envs: int) -> tuple[np.ndarray, list[str]]:
    """Return the bodies at or below ``prim_path_expr`` in every environment, e.g. all links of an articulation.

    Args:
        model: The finalized model.
        prim_path_expr: Regular expression of the asset prim path (``{ENV_REGEX_NS}`` already expanded).
        num_envs: Number of environments.

    Returns:
        Body indices of shape (num_envs, bodies_per_env), ordered by world then model index, and the body names
        (last path component) of the first environment.

    Raises:
        ValueError: If no body matches, or environments hold different numbers of matching bodies.
    """
    pattern = re.compile(prim_path_expr.rstrip("/") + "(/.*)?")
    labels = list(model.body_label)
    worlds = model.body_world.numpy()
    matches = [i for i, label in enumerate(labels) if pattern.fullmatch(label)]
    if not matches:
        raise ValueError(f"No Newton body at or below '{prim_path_expr}'; point the sensor at an articulation or body.")
    per_world: dict[int, list[int]] = {}
    for i in matches:
        per_world.setdefault(int(worlds[i]), []).append(i)
    counts = {len(v) for v in per_world.values()}
    if len(per_world) != num_envs or len(counts) != 1:
        raise ValueError(
            f"'{prim_path_expr}' selects bodies in {len(per_world)} worlds with counts {sorted(counts)}; the sensor"
            f" needs the same bodies in each of the {num_envs} environments."
        )
    ordered = np.asarray([sorted(per_world[w]) for w in sorted(per_world)], dtype=np.int32)
    names = [labels[i].rstrip("/").rsplit("/", 1)[-1] for i in ordered[0]]
    return ordered, names


def body_env_ids(model: newton.Model, num_envs: int) -> np.ndarray:
    """Return the environment of every body (-1 for shared bodies).

    A replicated scene has one Newton world per environment. A scene imported from a single USD stage holds every
    environment in one world; there the environment comes from the ``env_<i>`` component of the body's prim path.
    """
    if model.world_count == num_envs:
        return model.body_world.numpy().astype(np.int32)
    env_ids = np.full(model.body_count, -1, dtype=np.int32)
    for i, label in enumerate(model.body_label):
        match = _ENV_RE.search(label)
        if match is not None and int(match.group(1)) < num_envs:
            env_ids[i] = int(match.group(1))
    return env_ids


_ENV_RE = re.compile(r"/env_(\d+)(/|$)")


def resolve_env_matching_bodies(
    model: newton.Model, prim_path_exprs: list[str], num_envs: int, *, what: str
) -> tuple[np.ndarray, list[str]]:
    """Return the bodies whose prim paths fully match any of ``prim_path_exprs``, per environment.

    Args:
        model: The finalized model.
        prim_path_exprs: Regular expressions of body prim paths (``{ENV_REGEX_NS}`` already expanded).
        num_envs: Number of environments.
        what: Name of the configuration field, used in error messages.

    Returns:
        Body indices of shape (num_envs, bodies_per_env) ordered by expression then model index, and the body names
        (last path component) of the first environment.

    Raises:
        ValueError: If nothing matches or environments hold different numbers of matching bodies.
    """
    labels = list(model.body_label)
    worlds = body_env_ids(model, num_envs)
    per_world: dict[int, list[int]] = {w: [] for w in range(num_envs)}
    for expr in prim_path_exprs:
        pattern = re.compile(expr)
        for i, label in enumerate(labels):
            if label_matches(pattern, label) and 0 <= int(worlds[i]) < num_envs and i not in per_world[int(worlds[i])]:
                per_world[int(worlds[i])].append(i)
    counts = {len(v) for v in per_world.values()}
    if counts == {0}:
        raise ValueError(f"{what} {prim_path_exprs} matches no Newton body; expressions must name rigid bodies.")
    if len(counts) != 1:
        raise ValueError(
            f"{what} {prim_path_exprs} matches different numbers of bodies per environment: {sorted(counts)}."
        )
    ordered = np.asarray([per_world[w] for w in range(num_envs)], dtype=np.int32)
    names = [labels[i].rstrip("/").rsplit("/", 1)[-1] for i in ordered[0]]
    return ordered, names
