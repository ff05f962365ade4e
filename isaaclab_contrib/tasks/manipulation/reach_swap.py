"""Upstream's own Franka reach config (``isaaclab_tasks.core.reach``) on the offline Panda.

:func:`upstream_reach_module` loads upstream's ``FrankaReachEnvCfg`` by its file (without registering upstream's
ids), :func:`resolve_reach_presets` resolves its presets on the ``newton_mjwarp`` physics; :func:`swap_reach_robot`
changes only ``scene.robot`` (to :data:`~isaaclab_contrib.tasks.manipulation.panda_cfg.PANDA_CFG`), the ground
(core's is an asset-server USD) and the joint and body names upstream's terms use. Command ranges, observations,
rewards, terminations, events, curriculum and the MuJoCo Warp solver settings stay upstream's; its contact
capacity grows (below).

Upstream's terms track ``panda_hand``; the offline model carries the hand on ``panda0_link7``, whose frame has the
same z axis 0.107 m closer to the wrist. The commands and rewards track ``panda0_link7``; the IK preset's frame
offset along z grows by those 0.107 m, so it still solves for the point between the fingers.

The MuJoCo Warp contact capacity changes with the robot: upstream's 20 contacts and 100 constraint rows per world
are sized for its Franka; the offline Panda's 26 capsule and mesh geoms swinging into the table make more, and a
policy exploring early in training overflowed them (MuJoCo Warp then drops contacts and links pass through the
table).
:data:`REACH_NCONMAX` and :data:`REACH_NJMAX` hold the raised capacities. Measured on CPU (64 envs, 300 steps, each
env holding a saturated action, N(0, 3^2) or N(0, 10^2) per joint, redrawn every 60 steps, so that arms press into
the table): at most 21.4 contacts per world on average over all worlds (MuJoCo Warp pools ``nconmax`` over the
worlds), 57 contacts and 133 constraint rows in the busiest world; with uniform random actions in [-1, 1] it is one
contact per world.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from isaaclab.managers import SceneEntityCfg
from isaaclab.utils import replace

from isaaclab_newton.envs.mdp.actions import NewtonInverseKinematicsActionCfg
from isaaclab_newton.physics import MJWarpSolverCfg
from isaaclab_newton.sim import GroundPlaneCfg

from ...envs.robot_swap import RobotSwap, rename_entity, rename_pattern
from ...upstream.modules import import_isaaclab_tasks_submodule, load_isaaclab_tasks_module
from .panda_cfg import PANDA_ARM_JOINTS, PANDA_CFG, PANDA_FINGER_JOINTS, PANDA_HAND_BODY

PANDA_REACH_SWAP = RobotSwap(
    robot=PANDA_CFG,
    names={
        "panda_joint.*": PANDA_ARM_JOINTS,
        "panda_finger_joint.*": PANDA_FINGER_JOINTS,
        "panda_hand": PANDA_HAND_BODY,
    },
)
"""Upstream's Franka names -> the offline Panda's: arm and finger joints, the hand body."""

REACH_NCONMAX = 64
"""Contacts per world for the offline Panda in the reach scene (upstream's Franka: 20)."""

REACH_NJMAX = 300
"""Constraint rows per world for the offline Panda in the reach scene (upstream's Franka: 100)."""

HAND_TO_LINK7 = 0.107
"""Distance from ``panda0_link7`` to upstream's ``panda_hand`` frame along their shared z axis [m]."""


def upstream_reach_module() -> ModuleType:
    """Upstream's ``franka_reach_env_cfg`` module, loaded by its file (upstream's ids stay unregistered)."""
    import_isaaclab_tasks_submodule("core.reach.reach_env_cfg")  # the package the config imports from
    name = "isaaclab_tasks.core.reach.config.franka.franka_reach_env_cfg"
    return load_isaaclab_tasks_module("core/reach/config/franka/franka_reach_env_cfg.py", name)


def resolve_reach_presets(cfg: Any, presets: tuple[str, ...] = ()) -> None:
    """Resolve the presets of an upstream reach config in place: ``newton_mjwarp`` physics, then ``presets``.

    Args:
        cfg: An upstream ``FrankaReachEnvCfg`` instance.
        presets: Further upstream presets (``("newton_ik",)`` for the Newton IK arm action).
    """
    import_isaaclab_tasks_submodule("utils.hydra").resolve_presets(cfg, ("newton_mjwarp", *presets))


def swap_reach_robot(cfg: Any, swap: RobotSwap = PANDA_REACH_SWAP) -> Any:
    """Put ``swap.robot`` into an upstream reach config and rename the names its terms use; in place.

    The MuJoCo Warp capacities rise to at least :data:`REACH_NCONMAX` contacts and :data:`REACH_NJMAX` rows.
    Renamed: the command's body, the arm action's joints (and an IK action's body, its frame offset moved by
    :data:`HAND_TO_LINK7`), and the ``SceneEntityCfg`` patterns of the reward, termination, event, curriculum and
    observation terms.

    Args:
        cfg: A resolved upstream ``FrankaReachEnvCfg`` (see :func:`resolve_reach_presets`).
        swap: The robot and its name map.

    Returns:
        ``cfg``.
    """
    cfg.scene.robot = replace(swap.robot, prim_path=cfg.scene.robot.prim_path)
    cfg.scene.ground.spawn = GroundPlaneCfg()
    solver_cfg = cfg.sim.physics.solver_cfg
    if isinstance(solver_cfg, MJWarpSolverCfg):
        solver_cfg.nconmax = max(solver_cfg.nconmax or 0, REACH_NCONMAX)
        solver_cfg.njmax = max(solver_cfg.njmax or 0, REACH_NJMAX)
    cfg.commands.ee_pose.body_name = rename_pattern(cfg.commands.ee_pose.body_name, swap.names)
    arm = cfg.actions.arm_action
    arm.joint_names = [rename_pattern(name, swap.names) for name in arm.joint_names]
    if isinstance(arm, NewtonInverseKinematicsActionCfg):
        for objective in arm.objectives:
            if hasattr(objective, "body_name"):
                objective.body_name = rename_pattern(objective.body_name, swap.names)
                x, y, z = objective.body_offset_pos
                objective.body_offset_pos = (x, y, z + HAND_TO_LINK7)
    groups = [cfg.rewards, cfg.terminations, cfg.events, cfg.curriculum]
    groups += [group for group in vars(cfg.observations).values() if group is not None]
    for group in groups:
        for term in vars(group).values():
            params = getattr(term, "params", None)
            if isinstance(params, dict):
                for value in params.values():
                    if isinstance(value, SceneEntityCfg):
                        rename_entity(value, swap.names)
    return cfg
