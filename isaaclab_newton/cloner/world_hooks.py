"""Hooks into the Newton scene build: per-world builder callbacks and copies of a clone source.

Tasks that add solver-specific entities to every world (extra colliders, kinematic proxies, contact materials) do
so from a callback that runs while the cloner builds that world, and tasks that solve a side problem on one robot
(inverse kinematics seeds, reachability) build a small model from a copy of the robot's clone source.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

import newton
import warp as wp

from .replicate_context import NewtonReplicateContext, _env_root_of
from .source_builder import add_asset_prototype, world_to_env_transform

WorldHook = Callable[[newton.ModelBuilder, int, wp.vec3, wp.quat], None]
"""``hook(builder, env_id, position, quaternion)``: called inside env ``env_id``'s world context, after the world's
prototype was added, with the env origin [m] and orientation the world was placed at. Entities the hook adds are
posed in the scene frame: offset them by ``position`` to place them in the env."""


@contextmanager
def newton_builder_world_hook(hook: WorldHook) -> Iterator[None]:
    """Call ``hook`` in every env's world while a Newton scene is cloned inside this context.

    The hook runs once per env, in env order, with the builder in that env's world context (entities it adds
    belong to the env's world) right after the env's prototype was added. Entities it adds are not part of any
    declared asset. Hooks nest: the innermost runs last.

    Args:
        hook: The callback, ``hook(builder, env_id, position, quaternion)``.

    Example::

        with newton_builder_world_hook(add_markers):
            env = gym.make(task, cfg=cfg)
    """
    if not callable(hook):
        raise TypeError(
            f"newton_builder_world_hook expects a callable hook(builder, env_id, position, quaternion), got {hook!r}."
        )
    previous = NewtonReplicateContext.world_hooks
    NewtonReplicateContext.world_hooks = (*previous, hook)
    try:
        yield
    finally:
        NewtonReplicateContext.world_hooks = previous


def copy_newton_clone_source(source_path: str, *, xform: wp.transform | None = None) -> newton.ModelBuilder:
    """A new builder holding one asset's clone source, posed as authored on the stage, then moved by ``xform``.

    The asset is imported the way the cloner imports it (same importer and settings) into a fresh builder from
    the active manager's :meth:`~isaaclab_newton.physics.NewtonManager.create_builder`, placed at its pose in the
    stage's world frame (its env root's pose applied) and then transformed by ``xform``. The scene's own model is
    not touched.

    Args:
        source_path: Prim path of the asset's clone source, as listed by the clone plan
            (``isaaclab.cloner.path.get_asset_prototype_paths``), e.g. ``"/World/envs/env_0/Robot"``.
        xform: Transform applied on top of the authored world pose (default identity).

    Returns:
        The builder (not finalized).

    Raises:
        RuntimeError: Without a simulation context or a clone plan (build the scene first).
        ValueError: If ``source_path`` is not the clone source of any asset, or nothing physical is there.
    """
    from isaaclab.cloner.clone_plan import path as cloner_path
    from isaaclab.sim import SimulationContext

    sim = SimulationContext.instance()
    plan = None if sim is None else sim.get_clone_plan()
    if plan is None:
        raise RuntimeError("copy_newton_clone_source() needs a cloned scene: build the env or InteractiveScene first.")
    sources = list(cloner_path.get_asset_prototype_paths(plan))
    if source_path not in sources:
        known = sorted(p for p in sources if p is not None)
        raise ValueError(f"{source_path!r} is not the clone source of any asset; clone sources are {known}.")
    cfg = plan.asset_cfgs[sources.index(source_path)]
    stage = getattr(sim, "stage", None)
    env_root = _env_root_of(source_path, plan, plan.env_template.format(0))
    manager = sim.physics_manager
    local = manager.create_builder()
    visuals = manager.load_visual_shapes()
    if add_asset_prototype(local, cfg, source_path, stage, env_root=env_root, load_visual_shapes=visuals) is None:
        raise ValueError(f"The clone source {source_path!r} holds nothing physical to copy.")
    env_pose = (
        wp.transform_identity() if stage is None else wp.transform_inverse(world_to_env_transform(stage, env_root))
    )
    pose = env_pose if xform is None else wp.transform_multiply(wp.transform(*xform), env_pose)
    builder = manager.create_builder()
    builder.add_builder(local, xform=pose)
    return builder
