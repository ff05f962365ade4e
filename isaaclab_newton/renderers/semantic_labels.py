"""Semantic classes of Newton shapes from the prims' USD semantic labels (``UsdSemantics.LabelsAPI``).

A shape's labels are those of its prim or, where the prim has none, of its closest labelled ancestor (core's
spawners put ``semantic_tags`` on the asset's root prim). Cloned environments that exist in the model but not on
the stage read the labels of their scene-index source instance (the first one on the stage). Semantic ids follow
core's segmentation convention: ``0`` background (no hit), ``1`` unlabelled, ``2...`` one per distinct label set.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import warp as wp

BACKGROUND_ID = 0
UNLABELLED_ID = 1
RESERVED_LABELS = {BACKGROUND_ID: {"class": "BACKGROUND"}, UNLABELLED_ID: {"class": "UNLABELLED"}}


@wp.kernel
def semantic_from_shape_index(
    shape_index: wp.array3d(dtype=wp.uint32),
    shape_values: wp.array(dtype=wp.uint32),
    background: wp.uint32,
    out: wp.array3d(dtype=wp.uint32),
):
    """Write each pixel's semantic value (id or packed RGBA colour) from the shape it hit."""
    v, y, x = wp.tid()
    s = shape_index[v, y, x]
    if s < wp.uint32(shape_values.shape[0]):
        out[v, y, x] = shape_values[int(s)]
    else:
        out[v, y, x] = background


def prim_labels(prim) -> dict[str, str]:
    """Labels of ``prim`` or its closest labelled ancestor, as ``{type: "label,label"}`` (empty when none)."""
    from isaaclab.sim.utils.semantics import get_labels

    while prim and prim.IsValid():
        labels = get_labels(prim)
        if labels:
            return {kind: ",".join(values) for kind, values in sorted(labels.items())}
        prim = prim.GetParent()
    return {}


def shape_semantic_ids(model, stage, scene_index) -> tuple[np.ndarray, dict[int, dict[str, str]]]:
    """The semantic id of every shape of ``model`` and the labels of every id (reserved ids included).

    Args:
        model: The finalized Newton model (``shape_label`` holds each shape's prim path).
        stage: The USD stage the scene was spawned on.
        scene_index: The manager's :class:`~isaaclab_newton.physics.scene_index.SceneIndex`.
    """
    paths = list(model.shape_label)
    for prim_path in scene_index.prim_paths:
        entry = scene_index.find(prim_path)
        on_stage = [i for i, path in enumerate(entry.instance_paths) if stage.GetPrimAtPath(path).IsValid()]
        if not on_stage:
            continue
        source = entry.instance_paths[on_stage[0]]
        for path, shapes in zip(entry.instance_paths, entry.indices("shape"), strict=True):
            for shape in shapes:
                if paths[shape].startswith(path):
                    paths[shape] = source + paths[shape][len(path) :]
    ids = np.full(len(paths), UNLABELLED_ID, dtype=np.int64)
    labels_by_id: dict[int, dict[str, str]] = dict(RESERVED_LABELS)
    id_of: dict[tuple, int] = {}
    for shape, path in enumerate(paths):
        labels = prim_labels(stage.GetPrimAtPath(path)) if path else {}
        if not labels:
            continue
        key = tuple(labels.items())
        if key not in id_of:
            id_of[key] = len(labels_by_id)
            labels_by_id[id_of[key]] = labels
        ids[shape] = id_of[key]
    return ids, labels_by_id


def semantic_color(semantic_id: int) -> tuple[int, int, int, int]:
    """The RGBA colour of a semantic id: reserved ids black (background transparent), others a hashed colour."""
    if semantic_id == BACKGROUND_ID:
        return (0, 0, 0, 0)
    if semantic_id == UNLABELLED_ID:
        return (0, 0, 0, 255)
    h = (semantic_id * 2654435761) & 0xFFFFFFFF  # Knuth's multiplicative hash spreads neighbouring ids
    return (64 + (h & 0xBF), 64 + ((h >> 8) & 0xBF), 64 + ((h >> 16) & 0xBF), 255)


def pack_rgba(color: tuple[int, int, int, int]) -> int:
    """``(r, g, b, a)`` bytes as one little-endian ``uint32`` (the layout of a uint8 RGBA pixel)."""
    r, g, b, a = color
    return (a << 24) | (b << 16) | (g << 8) | r


def semantic_table(
    ids: np.ndarray, labels_by_id: dict[int, dict[str, str]], *, colorize: bool, device: Any
) -> tuple[wp.array, int, dict]:
    """Per-shape output values, the background value, and core's ``idToLabels`` info for the output.

    Colorized output keys ``idToLabels`` by ``(r, g, b, a)``; raw output by the integer id.
    """
    if colorize:
        values = np.array([pack_rgba(semantic_color(int(i))) for i in ids], dtype=np.uint32)
        background = pack_rgba(semantic_color(BACKGROUND_ID))
        info = {semantic_color(i): labels for i, labels in labels_by_id.items()}
    else:
        values = ids.astype(np.uint32)
        background = BACKGROUND_ID
        info = dict(labels_by_id)
    table = wp.array(values, dtype=wp.uint32, device=device)
    return table, background, {"idToLabels": info}
