"""Upstream's own velocity configs (``isaaclab_tasks.core.velocity.config``) on the offline Unitree robots.

:func:`swap_robot` takes one of those configs and changes only ``scene.robot`` and the body- and joint-name patterns
its terms use (and the body the height scanner hangs from); terrain, height scanner, contact sensor, commands,
rewards, events and curriculum stay upstream's. :func:`load_upstream_velocity_cfg` loads a config class by its file
without registering upstream's task ids (gymnasium refuses them next to this package's ``-v0`` ids).

Build the result with any of this package's velocity ids, whose entry point takes the config::

    cfg = swap_robot(load_upstream_velocity_cfg("go2", "UnitreeGo2RoughEnvCfg"), GO1_SWAP)
    env = make_env("Isaac-Velocity-Rough-Unitree-Go1-v0", cfg=cfg, num_envs=16)
"""

from __future__ import annotations

from typing import Any

from isaaclab.managers import SceneEntityCfg
from isaaclab.utils import replace

from isaaclab_newton.terrains import NewtonTerrainImporter

from ..envs.robot_swap import RobotSwap, rename_entity, rename_pattern
from ..tasks.velocity.robot_cfg import G1_CFG, GO1_CFG
from .modules import import_isaaclab_tasks_submodule, load_isaaclab_tasks_module

GO1_SWAP = RobotSwap(robot=GO1_CFG, names={"base": "trunk", ".*_foot": ".*_calf"})
"""Upstream's Go2 (or another Unitree quadruped) config on the ``mjlab`` Go1: base ``trunk``, sphere feet at the end of
the ``*_calf`` bodies; joint names agree."""

G1_SWAP = RobotSwap(
    robot=G1_CFG,
    names={
        ".*_elbow_pitch_joint": ".*_elbow_joint",
        ".*_elbow_roll_joint": ".*_wrist_.*",
        "torso_joint": "waist_.*",
        **dict.fromkeys(
            [f".*_{finger}_joint" for finger in ("zero", "one", "two", "three", "four", "five", "six")], None
        ),
    },
)
"""Upstream's G1 (37 joints, hands) config on the ``mjlab`` G1 (29 joints, no fingers): the forearm roll becomes the
three wrist joints, the torso joint the three waist joints; finger terms are dropped. Body names agree."""


def load_upstream_velocity_cfg(robot: str, cfg_class: str) -> Any:
    """Instantiate ``cfg_class`` of ``isaaclab_tasks/core/velocity/config/<robot>/``, without registering its ids.

    Args:
        robot: The config folder (``"go2"``, ``"g1"``, ``"h1"``, ``"anymal_d"``, ``"cassie"``).
        cfg_class: A class of its ``rough_env_cfg.py`` or ``flat_env_cfg.py`` (``"G1RoughEnvCfg"``).

    Raises:
        ValueError: If neither file defines ``cfg_class``.
    """
    import_isaaclab_tasks_submodule("core.velocity.velocity_env_cfg")  # the package the configs import from
    package = f"isaaclab_tasks.core.velocity.config.{robot}"
    for stem in ("rough_env_cfg", "flat_env_cfg"):  # flat imports rough by its dotted name
        module = load_isaaclab_tasks_module(f"core/velocity/config/{robot}/{stem}.py", f"{package}.{stem}")
        if hasattr(module, cfg_class):
            return getattr(module, cfg_class)()
    raise ValueError(f"core/velocity/config/{robot}/ of isaaclab_tasks defines no {cfg_class!r}.")


def swap_robot(cfg: Any, swap: RobotSwap) -> Any:
    """Put ``swap.robot`` into an upstream velocity config and rename the patterns its terms use; in place.

    A plane terrain (upstream's flat configs) is imported by
    :class:`~isaaclab_newton.terrains.NewtonTerrainImporter`, which needs no asset server.

    Every ``SceneEntityCfg`` in the params of the reward, termination, event, curriculum and observation terms has
    its ``body_names`` and ``joint_names`` rewritten through ``swap.names``; the height scanner moves to the renamed
    base body. A term left with no pattern (all its parts absent on the robot) is removed (set to ``None``).

    Args:
        cfg: An upstream ``LocomotionVelocityRoughEnvCfg`` (or subclass) instance.
        swap: The robot and its name map (:data:`GO1_SWAP`, :data:`G1_SWAP`).

    Returns:
        ``cfg``.
    """
    cfg.scene.robot = replace(swap.robot, prim_path=cfg.scene.robot.prim_path)
    if cfg.scene.terrain.terrain_type == "plane":  # upstream's flat configs; core's plane is an asset-server USD
        cfg.scene.terrain.class_type = NewtonTerrainImporter
    scanner = getattr(cfg.scene, "height_scanner", None)
    if scanner is not None:
        root, body = scanner.prim_path.rsplit("/", 1)
        scanner.prim_path = f"{root}/{rename_pattern(body, swap.names) or body}"
    groups = [cfg.rewards, cfg.terminations, cfg.events, cfg.curriculum]
    groups += [group for group in vars(cfg.observations).values() if group is not None]
    for group in groups:
        for name, term in list(vars(group).items()):
            params = getattr(term, "params", None)
            if not isinstance(params, dict):
                continue
            entities = [value for value in params.values() if isinstance(value, SceneEntityCfg)]
            if not all(rename_entity(entity, swap.names) for entity in entities):
                setattr(group, name, None)
    return cfg
