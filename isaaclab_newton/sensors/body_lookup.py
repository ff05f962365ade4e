"""Resolve a sensor's prim-path expression to one Newton body per environment."""

from __future__ import annotations

import re

import newton
import numpy as np


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
    parts = prim_path_expr.rstrip("/").split("/")
    for cut in range(len(parts), 1, -1):
        pattern = re.compile("/".join(parts[:cut]))
        matches = [i for i, label in enumerate(labels) if pattern.fullmatch(label)]
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
