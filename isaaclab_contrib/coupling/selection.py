"""Resolve coupler entry selectors into disjoint body, joint, shape and particle ids of the shared model."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import newton
import numpy as np

from isaaclab_newton.assets.deformable_object.particle_index import deformable_particle_indices

from .coupler_cfg import CouplerEntryCfg


@dataclass
class EntryOwnership:
    """Model ids one entry owns (sorted, unique)."""

    bodies: list[int] = field(default_factory=list)
    joints: list[int] = field(default_factory=list)
    shapes: list[int] = field(default_factory=list)
    particles: list[int] = field(default_factory=list)


def match_labels(labels: list[str], pattern: str) -> list[int]:
    """Indices of ``labels`` that the regular expression ``pattern`` matches from their start (:func:`re.match`)."""
    regex = re.compile(pattern)
    return [i for i, label in enumerate(labels) if regex.match(label)]


def deformable_particles(prim_path: str) -> list[int]:
    """Particles of the deformable declared at ``prim_path``, in every world."""
    _, indices = deformable_particle_indices(prim_path)
    return sorted(int(i) for i in indices.reshape(-1))


def resolve_entries(model: newton.Model, entries: tuple[CouplerEntryCfg, ...]) -> dict[str, EntryOwnership]:
    """Resolve every entry's selectors and check that ownership is disjoint.

    Args:
        model: The finalized shared model.
        entries: The coupler's entries.

    Returns:
        Ownership per entry name, in entry order.

    Raises:
        ValueError: On duplicate names, an entry without selectors, a selector that matches nothing, or a body,
            shape or particle selected by two entries (the error names the selector and both entries). Joints
            follow their child body, so they are disjoint whenever bodies are.
    """
    if not entries:
        raise ValueError("The coupler has no entries: add CouplerEntryCfg(name=..., solver_cfg=..., ...) items.")
    body_labels, shape_labels = list(model.body_label), list(model.shape_label)
    joint_child = model.joint_child.numpy() if model.joint_count else np.zeros(0, dtype=np.int32)
    shape_body = model.shape_body.numpy() if model.shape_count else np.zeros(0, dtype=np.int32)
    owners: dict[tuple[str, int], tuple[str, str]] = {}
    result: dict[str, EntryOwnership] = {}

    def claim(kind: str, ids: list[int], entry: str, selector: str) -> list[int]:
        if not ids:
            raise ValueError(f"Coupler entry {entry!r}: selector {selector} matches no {kind}.")
        for i in ids:
            previous = owners.get((kind, i))
            if previous is not None and previous[0] != entry:
                raise ValueError(
                    f"Coupler entries {previous[0]!r} ({previous[1]}) and {entry!r} ({selector}) both select {kind}"
                    f" {i}; entry ownership must be disjoint. Narrow one of the selectors."
                )
            owners[(kind, i)] = (entry, selector)
        return ids

    for entry in entries:
        if entry.name in result:
            raise ValueError(f"Two coupler entries are named {entry.name!r}; entry names must be unique.")
        selectors = (entry.bodies, entry.shape_label_patterns, entry.deformables, entry.all_particles)
        if not any(selectors) and not entry.include_static_shapes:
            raise ValueError(
                f"Coupler entry {entry.name!r} selects nothing: set bodies, shape_label_patterns, deformables,"
                " all_particles or include_static_shapes."
            )
        bodies: set[int] = set()
        shapes: set[int] = set()
        particles: set[int] = set()
        for pattern in entry.bodies:
            selector = f"bodies {pattern!r}"
            found = claim("body", match_labels(body_labels, pattern), entry.name, selector)
            bodies |= set(found)
            attached = [int(s) for s in np.flatnonzero(np.isin(shape_body, found))]
            if entry.include_body_shapes and attached:
                shapes |= set(claim("shape", attached, entry.name, selector))
        for pattern in entry.shape_label_patterns:
            found = match_labels(shape_labels, pattern)
            shapes |= set(claim("shape", found, entry.name, f"shape_label_patterns {pattern!r}"))
        if entry.include_static_shapes:
            static = [int(s) for s in np.flatnonzero(shape_body == -1)]
            shapes |= set(claim("shape", static, entry.name, "include_static_shapes=True"))
        for prim_path in entry.deformables:
            found = deformable_particles(prim_path)
            particles |= set(claim("particle", found, entry.name, f"deformables {prim_path!r}"))
        if entry.all_particles:
            every = list(range(model.particle_count))
            particles |= set(claim("particle", every, entry.name, "all_particles=True"))
        own = EntryOwnership(bodies=sorted(bodies), shapes=sorted(shapes), particles=sorted(particles))
        if entry.include_child_joints:
            own.joints = [int(j) for j in np.flatnonzero(np.isin(joint_child, own.bodies))]
        result[entry.name] = own
    return result
