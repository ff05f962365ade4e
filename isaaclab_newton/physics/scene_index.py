"""Which model entities belong to which prim in which world: the scene index owned by :class:`NewtonManager`.

The index answers one question for assets, sensors and couplers: "the bodies (joints, DOFs, shapes, ...) of this
prim, one row per instance". It is built once when the model is finalized (:meth:`NewtonManager.start_simulation`)
and released with the model. Two sources feed it:

* prims *declared* by whoever built the builder with exact per-world index ranges (the Newton clone context
  declares every spawned asset, see :meth:`NewtonManager.set_builder`), and
* for scenes nobody declared (a builder the user filled, a USD stage), the model's prim-path labels, read once
  at finalize; an expression is resolved against them on first use and cached.

Every consumer reads the same rows in the same order, so an asset and a sensor on one prim agree on bodies.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import newton
import numpy as np

ENTITY_KINDS: dict[str, str] = {
    "body": "body_count",
    "joint": "joint_count",
    "joint_dof": "joint_dof_count",
    "joint_coord": "joint_coord_count",
    "shape": "shape_count",
    "articulation": "articulation_count",
    "particle": "particle_count",
    "triangle": "tri_count",
    "tet": "tet_count",
}
"""Entity kinds of the index, each mapped to the :class:`newton.ModelBuilder` property counting it.

Adding a kind is one line here; declared prims then carry its ranges (label resolution covers the labelled kinds
``body``, ``joint``, ``shape``, ``articulation`` and derives ``joint_dof``/``joint_coord`` from the joints).
"""

_LABELLED = {"body": "body_label", "joint": "joint_label", "shape": "shape_label", "articulation": "articulation_label"}
_REGEX_CHARS = frozenset(".*+?[](){}|^$\\")


def builder_counts(builder: newton.ModelBuilder) -> dict[str, int]:
    """Return the builder's entity count of every kind in :data:`ENTITY_KINDS`."""
    return {kind: int(getattr(builder, attr)) for kind, attr in ENTITY_KINDS.items()}


@dataclass(frozen=True)
class PrimEntities:
    """Model entities of one prim in every instance (world or environment) that holds it.

    Attributes:
        prim_path: The prim path the entry was declared or resolved under (a regular expression over
            environments, e.g. ``/World/envs/env_.*/Robot``).
        instance_paths: Concrete prim path of each instance, e.g. ``/World/envs/env_3/Robot``.
        world_ids: Newton world of each instance (``-1`` for the shared world), shape (num_instances,).
    """

    prim_path: str
    instance_paths: tuple[str, ...]
    world_ids: np.ndarray
    _indices: Mapping[str, np.ndarray] = field(repr=False)

    @classmethod
    def from_ranges(
        cls,
        prim_path: str,
        instance_paths: Sequence[str],
        world_ids: Sequence[int] | np.ndarray,
        starts: Mapping[str, Sequence[int] | np.ndarray],
        counts: Mapping[str, int],
    ) -> PrimEntities:
        """Build an entry whose entities are contiguous per instance.

        Args:
            prim_path: Declared prim path.
            instance_paths: Concrete prim path per instance.
            world_ids: World per instance.
            starts: Per kind, the first model index in each instance; kinds left out hold no entities.
            counts: Per kind, the number of entities per instance (the same in every instance).
        """
        n = len(instance_paths)
        indices = {}
        for kind in ENTITY_KINDS:
            count = int(counts.get(kind, 0))
            first = np.asarray(starts.get(kind, np.zeros(n)), dtype=np.int64).reshape(n, 1)
            indices[kind] = (first + np.arange(count)[None, :]).astype(np.int32)
        return cls(prim_path, tuple(instance_paths), np.asarray(world_ids, dtype=np.int32), indices)

    @property
    def num_instances(self) -> int:
        """Number of instances (rows)."""
        return len(self.instance_paths)

    def indices(self, kind: str) -> np.ndarray:
        """Model indices of entity ``kind``, shape (num_instances, count per instance), int32.

        Raises:
            KeyError: If ``kind`` is not in :data:`ENTITY_KINDS`.
        """
        if kind not in self._indices:
            raise KeyError(f"Unknown entity kind {kind!r}; the scene index holds {sorted(ENTITY_KINDS)}.")
        return self._indices[kind]

    def count(self, kind: str) -> int:
        """Number of entities of ``kind`` per instance."""
        return int(self.indices(kind).shape[1])


@dataclass(frozen=True)
class BodySelection:
    """Bodies of one prim selected by a sensor expression.

    Attributes:
        owner: The prim entry the bodies belong to (its rows are the selection's rows).
        columns: Positions of the selected bodies in ``owner.indices("body")``.
        names: Body names (path below the owner's prim, last component), one per column.
    """

    owner: PrimEntities
    columns: np.ndarray
    names: list[str]

    @property
    def body_indices(self) -> np.ndarray:
        """Model body indices, shape (num_instances, len(columns)), int32."""
        return self.owner.indices("body")[:, self.columns]


class SceneIndex:
    """Per-prim, per-instance model entities of one finalized model (see the module docstring).

    Args:
        model: The finalized model.
        declared: Prims declared with exact ranges, keyed by prim path (the asset configurations' paths).
    """

    def __init__(self, model: newton.Model, declared: Mapping[str, PrimEntities] | None = None):
        self._declared: dict[str, PrimEntities] = dict(declared or {})
        self._resolved: dict[str, PrimEntities] = {}
        self.num_worlds = int(model.world_count)
        self._labels = {kind: list(getattr(model, attr) or []) for kind, attr in _LABELLED.items()}
        self._body_labels = self._labels["body"]
        self._worlds = {kind: _numpy(getattr(model, f"{kind}_world", None)) for kind in _LABELLED}
        self._q_start = _numpy(model.joint_q_start)
        self._qd_start = _numpy(model.joint_qd_start)
        for entry in self._declared.values():
            for kind in ENTITY_KINDS:
                idx = entry.indices(kind)
                total = int(getattr(model, f"{kind}_count", 0) or 0) if kind in _LABELLED else None
                if total is not None and idx.size and int(idx.max()) >= total:
                    raise ValueError(
                        f"Declared prim {entry.prim_path!r} names {kind} {int(idx.max())} but the model has {total};"
                        " declare ranges of the builder that is finalized."
                    )

    @property
    def prim_paths(self) -> tuple[str, ...]:
        """Declared prim paths, in declaration order."""
        return tuple(self._declared)

    def find(self, prim_path: str) -> PrimEntities:
        """Return the entities of the prim at ``prim_path`` (an asset configuration's path).

        A declared prim is found by its path (or by a declared path the expression fully matches); otherwise the
        expression is resolved once against the model's labels: every labelled entity at or below a prim whose
        path fully matches ``prim_path`` belongs to that prim's instance.

        Raises:
            ValueError: If nothing matches, or several declared prims do.
        """
        if prim_path in self._declared:
            return self._declared[prim_path]
        pattern = re.compile(prim_path)
        matches = [e for path, e in self._declared.items() if pattern.fullmatch(path)]
        if len(matches) == 1:
            return matches[0]
        if len(matches) > 1:
            raise ValueError(
                f"{prim_path!r} matches several declared prims {[e.prim_path for e in matches]}; use one prim path."
            )
        entry = self._declared_owner(prim_path, full=True) or self._resolve_labels(prim_path)
        if entry is None:
            raise ValueError(
                f"No prim of the Newton scene matches {prim_path!r} (declared: {sorted(self._declared)}; bodies:"
                f" {self._body_labels[:4]}{' ...' if len(self._body_labels) > 4 else ''}). Spawn the asset through"
                " an InteractiveScene or label the builder's entities with their prim paths."
            )
        return entry

    def select_bodies(self, prim_path_expr: str, *, mode: str = "exact") -> BodySelection:
        """Select the bodies a sensor expression names, within the prim that owns them.

        The owner is the declared prim (or label-resolved prim) at the longest leading part of the expression;
        the rest of the expression is matched against the owner's body paths. A body nested below intermediate
        prims by an importer (``Robot/ant/worldbody/torso``) also answers to ``Robot/torso``.

        Args:
            prim_path_expr: Regular expression of the prim path (``{ENV_REGEX_NS}`` already expanded).
            mode: ``"exact"``: bodies whose paths match the rest of the expression (all bodies when nothing is
                left); ``"ancestor"``: one body, the one at the prim or its closest body ancestor;
                ``"subtree"``: bodies at or below the prim.

        Raises:
            ValueError: If nothing matches, or ``mode="ancestor"`` finds more than one body.
        """
        if mode not in ("exact", "ancestor", "subtree"):
            raise ValueError(f"mode must be 'exact', 'ancestor' or 'subtree', got {mode!r}.")
        from isaaclab.sim import split_path_expr

        parts = split_path_expr(prim_path_expr.rstrip("/"))
        owner, rest = self._owner_of(parts)
        if owner is None:
            raise ValueError(
                f"No prim of the Newton scene owns {prim_path_expr!r} (declared: {sorted(self._declared)}); attach"
                " the sensor to a rigid body of the scene."
            )
        rel = self._relative_body_paths(owner)
        cuts = range(len(rest), -1, -1) if mode == "ancestor" else (len(rest),)
        for cut in cuts:
            columns = _match_columns(rel, rest[:cut], subtree=mode == "subtree")
            if columns:
                break
        if not columns:
            raise ValueError(
                f"{prim_path_expr!r} names no body of {owner.prim_path!r} (bodies: {rel[:8]}); expressions must name"
                " rigid bodies."
            )
        if mode == "ancestor" and len(columns) != 1:
            raise ValueError(
                f"{prim_path_expr!r} resolves to {len(columns)} bodies per instance ({[rel[c] for c in columns][:4]});"
                " the sensor needs one body per environment."
            )
        names = [(rel[c] or owner.instance_paths[0]).rsplit("/", 1)[-1] for c in columns]
        return BodySelection(owner=owner, columns=np.asarray(columns, dtype=np.int64), names=names)

    # -- internals ---------------------------------------------------------------------------------

    def _owner_of(self, parts: list[str]) -> tuple[PrimEntities | None, list[str]]:
        """The entry owning the longest leading part of ``parts``, and the remaining path components."""
        for cut in range(len(parts), 1, -1):
            head = "/".join(parts[:cut])
            entry = self._declared_owner(head, full=False)
            if entry is not None:
                return entry, parts[cut:]
        if self._declared and not self._undeclared_bodies():
            return None, parts
        # label resolution: the instance prim is the path up to the first regular-expression component and the
        # literal components after it (``/World/envs/env_.*/Robot`` for ``/World/envs/env_.*/Robot/.*_foot``)
        first = next((i for i, p in enumerate(parts) if _is_regex(p)), len(parts) - 1)
        last = first + 1
        while last < len(parts) and not _is_regex(parts[last]):
            last += 1
        for cut in range(last, 1, -1):
            entry = self._resolve_labels("/".join(parts[:cut]))
            if entry is not None:
                return entry, parts[cut:]
        return None, parts

    def _declared_owner(self, head: str, *, full: bool) -> PrimEntities | None:
        if head in self._declared:
            return self._declared[head]
        pattern = re.compile(head)
        owners = [e for e in self._declared.values() if all(pattern.fullmatch(p) for p in e.instance_paths)]
        if not owners and not full:
            owners = [e for e in self._declared.values() if any(pattern.fullmatch(p) for p in e.instance_paths)]
        return owners[0] if len(owners) == 1 else None

    def _undeclared_bodies(self) -> bool:
        declared = sum(e.indices("body").size for e in self._declared.values())
        return declared < len(self._body_labels)

    def _resolve_labels(self, prim_path: str) -> PrimEntities | None:
        """Group labelled entities at or below prims matching ``prim_path`` into instances (cached)."""
        if prim_path in self._resolved:
            return self._resolved[prim_path]
        pattern = re.compile(f"({prim_path})(/.*)?")
        groups: dict[str, dict[str, list[int]]] = {}
        for kind, labels in self._labels.items():
            for i, label in enumerate(labels):
                match = pattern.fullmatch(label)
                if match is not None:
                    groups.setdefault(match.group(1), {k: [] for k in _LABELLED})[kind].append(i)
        if not groups:
            return None
        order = sorted(groups, key=lambda p: self._instance_key(groups[p]))
        counts = {kind: {len(groups[p][kind]) for p in order} for kind in _LABELLED}
        uneven = {kind: sorted(c) for kind, c in counts.items() if len(c) > 1}
        if uneven:
            raise ValueError(
                f"The instances of {prim_path!r} ({order[:3]} ...) hold different numbers of entities {uneven}; every"
                " instance of one prim needs the same bodies, joints and shapes."
            )
        indices = {kind: np.zeros((len(order), 0), dtype=np.int32) for kind in ENTITY_KINDS}
        for kind in _LABELLED:
            indices[kind] = np.asarray([groups[p][kind] for p in order], dtype=np.int32).reshape(len(order), -1)
        joints = indices["joint"]
        for kind, starts in (("joint_dof", self._qd_start), ("joint_coord", self._q_start)):
            rows = [np.concatenate([np.arange(starts[j], starts[j + 1]) for j in row] or [[]]) for row in joints]
            indices[kind] = np.asarray(rows, dtype=np.int32).reshape(len(order), -1)
        worlds = np.asarray([self._instance_key(groups[p])[0] for p in order], dtype=np.int32)
        entry = PrimEntities(prim_path, tuple(order), worlds, indices)
        self._resolved[prim_path] = entry
        return entry

    def _instance_key(self, group: dict[str, list[int]]) -> tuple[int, int, int]:
        """Sort key of an instance: (world, kind, first index) of its first labelled entity."""
        for rank, kind in enumerate(_LABELLED):
            if group[kind]:
                worlds = self._worlds[kind]
                first = group[kind][0]
                return (int(worlds[first]) if worlds is not None else 0, rank, first)
        return (0, len(_LABELLED), 0)

    def _relative_body_paths(self, owner: PrimEntities) -> list[str]:
        """Paths of the owner's bodies below its first instance's prim ("" for the prim itself)."""
        root = owner.instance_paths[0].rstrip("/") if owner.instance_paths else ""
        rel = []
        for b in owner.indices("body")[0] if owner.num_instances else ():
            label = self._body_labels[int(b)].rstrip("/")
            if label == root:
                rel.append("")
            elif root and label.startswith(root + "/"):
                rel.append(label[len(root) + 1 :])
            else:
                rel.append(label.strip("/"))
        return rel


def _match_columns(rel: list[str], parts: list[str], *, subtree: bool) -> list[int]:
    """Columns whose relative body path matches ``parts`` (directly, or as ``<ancestor prefix>/<leaf>``)."""
    if not parts:
        return list(range(len(rel)))
    pattern = re.compile("/".join(parts) + ("(/.*)?" if subtree else ""))
    out = []
    for c, path in enumerate(rel):
        if pattern.fullmatch(path):
            out.append(c)
            continue
        comps = path.split("/")
        if any(pattern.fullmatch("/".join([*comps[:k], comps[-1]])) for k in range(0, len(comps) - 1)):
            out.append(c)
    return out


def _is_regex(component: str) -> bool:
    return any(ch in _REGEX_CHARS for ch in component)


def _numpy(array) -> np.ndarray | None:
    return None if array is None else array.numpy()
