"""Clone context that builds Newton's model from Isaac Lab's clone plan."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import newton
import numpy as np
import warp as wp
from isaaclab.cloner.clone_plan import path as cloner_path

from .layout import AssetLayout, SceneLayout, builder_counts, set_scene_layout
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
    handed to :meth:`NewtonManager.set_builder`; :func:`get_scene_layout` tells assets where they landed.
    """

    replicate_priority: int = 0
    """Order among clone contexts (USD authoring contexts run first)."""

    def __init__(self, sim: SimulationContext):
        self._sim = sim

    def replicate(self, plan: ClonePlan, asset_prototype_ids: tuple[int, ...]) -> SceneLayout:
        """Build and publish the replicated builder.

        Args:
            plan: The simulation's clone plan.
            asset_prototype_ids: Asset prototypes routed to physics (shared and per-world).

        Returns:
            The index layout of every cloned asset (also published through :func:`get_scene_layout`).
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

        builder = manager.create_builder()
        scene = SceneLayout(builder=builder, num_worlds=num_worlds)

        # shared world -1: ground and other global assets
        for asset in members[starts[0] : starts[1]]:
            if int(asset) not in routed:
                continue
            before = builder_counts(builder)
            cfg = plan.asset_cfgs[asset]
            if add_asset_prototype(builder, cfg, source_paths[asset], stage, env_root=None):
                scene.assets[cfg.prim_path] = _layout(cfg.prim_path, np.array([-1]), [before], builder_counts(builder))

        # one source builder per world prototype, recording each asset's local ranges
        prototypes: dict[int, tuple[newton.ModelBuilder, list[tuple[Any, dict, dict]]]] = {}
        for proto_id in np.unique(layout_ids):
            proto = manager.create_builder()
            ranges = []
            for asset in members[starts[proto_id + 1] : starts[proto_id + 2]]:
                if int(asset) not in routed:
                    continue
                cfg = plan.asset_cfgs[asset]
                before = builder_counts(proto)
                source = source_paths[asset]
                if add_asset_prototype(proto, cfg, source, stage, env_root=_env_root_of(source, plan, env_root)):
                    ranges.append((cfg, before, builder_counts(proto)))
            prototypes[int(proto_id)] = (proto, ranges)

        positions = np.zeros((num_worlds, 3)) if plan.positions is None else np.asarray(plan.positions, dtype=float)
        xforms = [wp.transform(tuple(float(v) for v in p), wp.quat_identity()) for p in positions]
        labels = [plan.env_template.format(w) for w in range(num_worlds)]

        world_offsets: list[dict[str, int]] = []
        if len(prototypes) == 1:
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
            worlds = np.flatnonzero(layout_ids == proto_id)
            for cfg, before, after in ranges:
                shifted = [{k: world_offsets[w][k] + before[k] for k in before} for w in worlds]
                layout = _layout(cfg.prim_path, worlds, shifted, after, local_before=before)
                scene.assets[cfg.prim_path] = _merge(scene.assets.get(cfg.prim_path), layout)

        manager.set_builder(builder)
        set_scene_layout(scene)
        return scene


def _layout(
    prim_path: str,
    worlds: np.ndarray,
    world_starts: list[dict[str, int]],
    after: dict[str, int],
    *,
    local_before: dict[str, int] | None = None,
) -> AssetLayout:
    """Build an :class:`AssetLayout` from per-world start counts and the counts after the asset was added."""
    first = local_before if local_before is not None else world_starts[0]
    counts = {k: after[k] - first[k] for k in after}
    starts = {k: np.array([s[k] for s in world_starts], dtype=np.int64) for k in after}
    return AssetLayout(prim_path=prim_path, world_ids=np.asarray(worlds, dtype=np.int64), starts=starts, counts=counts)


def _merge(existing: AssetLayout | None, new: AssetLayout) -> AssetLayout:
    """Combine the layouts of one declared asset's spawn variants (world prototypes) into one, by world id.

    Raises:
        ValueError: If the variants differ in entity counts (one asset needs the same layout in every world).
    """
    if existing is None:
        return new
    if existing.counts != new.counts:
        raise ValueError(
            f"The spawn variants of {new.prim_path!r} differ in their entity counts ({existing.counts} vs"
            f" {new.counts}); every variant of one asset needs the same numbers of bodies, joints and shapes."
        )
    worlds = np.concatenate((existing.world_ids, new.world_ids))
    order = np.argsort(worlds, kind="stable")
    starts = {k: np.concatenate((existing.starts[k], new.starts[k]))[order] for k in existing.starts}
    return AssetLayout(prim_path=new.prim_path, world_ids=worlds[order], starts=starts, counts=dict(new.counts))


def _env_root_of(source_path: str, plan: ClonePlan, default: str) -> str:
    """The env root prim a prototype was authored under (variants may live under another env than env 0)."""
    matched = cloner_path.match(source_path, plan.env_template)
    if matched is None or not matched.instance.isdigit():
        return default
    return plan.env_template.format(int(matched.instance))
