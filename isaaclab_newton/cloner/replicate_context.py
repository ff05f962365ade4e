"""Clone context that builds Newton's model from Isaac Lab's clone plan."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

import newton
import numpy as np
import warp as wp
from isaaclab.cloner.clone_plan import path as cloner_path

from ..physics.scene_index import PrimEntities, builder_counts
from .source_builder import add_asset_prototype

if TYPE_CHECKING:
    from isaaclab.cloner.clone_plan import ClonePlan
    from isaaclab.sim import SimulationContext


class NewtonReplicateContext:
    """Build the Newton scene for a :class:`~isaaclab.cloner.ClonePlan`.

    Without Kit only the env-0 prototypes exist on the USD stage, so this context imports each world
    prototype once into a source builder (Newton's URDF/MJCF/USD importers for
    :mod:`isaaclab_newton.sim.spawners` configurations, ``add_usd`` on the stage for assets that core's
    spawners authored) and replicates it into one Newton world per environment, placed at the plan's
    environment origins. Shared assets (the ground) go to the shared world ``-1``. The finished builder is
    handed to :meth:`NewtonManager.set_builder` together with every asset's per-world index ranges, which become
    the manager's :class:`~isaaclab_newton.physics.scene_index.SceneIndex` when the model is finalized.
    """

    replicate_priority: int = 0
    """Order among clone contexts (USD authoring contexts run first)."""

    world_hooks: ClassVar[tuple[Any, ...]] = ()
    """Per-world builder callbacks, set by :func:`~isaaclab_newton.cloner.newton_builder_world_hook` only."""

    def __init__(self, sim: SimulationContext):
        self._sim = sim

    def replicate(self, plan: ClonePlan, asset_prototype_ids: tuple[int, ...]) -> dict[str, PrimEntities]:
        """Build the replicated builder and hand it to the manager with its declared prims.

        Args:
            plan: The simulation's clone plan.
            asset_prototype_ids: Asset prototypes routed to physics (shared and per-world).

        Returns:
            The entities of every cloned asset, keyed by the asset configuration's prim path.
        """
        manager = self._sim.physics_manager
        stage = getattr(self._sim, "stage", None)
        topology = plan.topology
        routed = set(int(i) for i in asset_prototype_ids)
        starts = np.asarray(topology.world_prototype_starts)
        members = np.asarray(topology.world_prototypes)
        layout_ids = np.asarray(topology.world_prototype_layout)
        num_worlds = int(layout_ids.shape[0])
        source_paths = cloner_path.get_asset_prototype_paths(plan)
        env_root = plan.env_template.format(0)
        labels = [plan.env_template.format(w) for w in range(num_worlds)]

        builder = manager.create_builder()
        visuals = manager.load_visual_shapes()
        records: dict[str, list[_Record]] = {}

        # shared world -1: ground and other global assets
        for asset in members[starts[0] : starts[1]]:
            if int(asset) not in routed:
                continue
            before = builder_counts(builder)
            cfg = plan.asset_cfgs[asset]
            prefix = add_asset_prototype(
                builder, cfg, source_paths[asset], stage, env_root=None, load_visual_shapes=visuals
            )
            if prefix is not None:
                after = builder_counts(builder)
                counts = {k: after[k] - before[k] for k in after}
                records.setdefault(cfg.prim_path, []).append(_Record(-1, prefix, before, counts))

        # one source builder per world prototype, recording each asset's local ranges
        prototypes: dict[int, tuple[newton.ModelBuilder, list[tuple[Any, str, dict, dict]]]] = {}
        for proto_id in np.unique(layout_ids):
            proto = manager.create_builder()
            ranges = []
            for asset in members[starts[proto_id + 1] : starts[proto_id + 2]]:
                if int(asset) not in routed:
                    continue
                cfg = plan.asset_cfgs[asset]
                before = builder_counts(proto)
                source = source_paths[asset]
                prefix = add_asset_prototype(
                    proto, cfg, source, stage, env_root=_env_root_of(source, plan, env_root), load_visual_shapes=visuals
                )
                if prefix is not None:
                    after = builder_counts(proto)
                    ranges.append((cfg, prefix, before, {k: after[k] - before[k] for k in after}))
            prototypes[int(proto_id)] = (proto, ranges)

        positions = np.zeros((num_worlds, 3)) if plan.positions is None else np.asarray(plan.positions, dtype=float)
        xforms = [wp.transform(tuple(float(v) for v in p), wp.quat_identity()) for p in positions]

        world_offsets: list[dict[str, int]] = []
        hooks = NewtonReplicateContext.world_hooks
        if hooks:
            for w in range(num_worlds):
                world_offsets.append(builder_counts(builder))
                builder.begin_world()
                builder.add_builder(prototypes[int(layout_ids[w])][0], xform=xforms[w], label_prefix=labels[w])
                for hook in hooks:
                    hook(builder, w, wp.vec3(*positions[w]), wp.quat_identity())
                builder.end_world()
        elif len(prototypes) == 1:
            proto, _ = prototypes[int(layout_ids[0])] if num_worlds else (None, [])
            base = builder_counts(builder)
            step = builder_counts(proto) if proto is not None else {}
            if num_worlds:
                builder.replicate(proto, num_worlds, xforms=xforms, label_prefixes=labels)
            world_offsets = [{k: base[k] + w * step[k] for k in base} for w in range(num_worlds)]
        else:
            for w in range(num_worlds):
                world_offsets.append(builder_counts(builder))
                builder.add_world(prototypes[int(layout_ids[w])][0], xform=xforms[w], label_prefix=labels[w])

        for proto_id, (_, ranges) in prototypes.items():
            for w in np.flatnonzero(layout_ids == proto_id):
                for cfg, prefix, before, counts in ranges:
                    first = {k: world_offsets[w][k] + before[k] for k in before}
                    path = f"{labels[w]}/{prefix}" if prefix else labels[w]
                    records.setdefault(cfg.prim_path, []).append(_Record(int(w), path, first, counts))

        prims = {path: _declare(path, recs) for path, recs in records.items()}
        manager.set_builder(builder, prims=prims)
        return prims


@dataclass(frozen=True)
class _Record:
    """One instance of a cloned asset: its world, concrete prim path, first model indices and counts."""

    world: int
    path: str
    starts: dict[str, int]
    counts: dict[str, int]


def _declare(prim_path: str, records: list[_Record]) -> PrimEntities:
    """Combine an asset's instances (over worlds and spawn variants) into one entry ordered by world.

    Raises:
        ValueError: If the variants differ in entity counts (one asset needs the same layout in every world).
    """
    counts = records[0].counts
    for rec in records:
        if rec.counts != counts:
            raise ValueError(
                f"The spawn variants of {prim_path!r} differ in their entity counts ({counts} vs {rec.counts}); every"
                " variant of one asset needs the same numbers of bodies, joints and shapes."
            )
    records = sorted(records, key=lambda r: r.world)
    starts = {k: [r.starts[k] for r in records] for k in counts}
    return PrimEntities.from_ranges(
        prim_path, [r.path for r in records], [r.world for r in records], starts=starts, counts=counts
    )


def _env_root_of(source_path: str, plan: ClonePlan, default: str) -> str:
    """The env root prim a prototype was authored under (variants may live under another env than env 0)."""
    matched = cloner_path.match(source_path, plan.env_template)
    if matched is None or not matched.instance.isdigit():
        return default
    return plan.env_template.format(int(matched.instance))
