"""Mask forms of curriculum terms: the terrain-level curriculum of the velocity tasks, by a bool env mask, and core's
step-scheduled reward weights (``modify_reward_weight``), applied on the host.

Core's curriculum manager runs its terms on the indices of the envs being reset (a host sync on CUDA to get them).
A mask form takes the reset mask instead and returns its logged state as a 0-d device tensor. Isaac Lab's
velocity tasks use ``terrain_levels_vel`` (``isaaclab_tasks.core.velocity.mdp``): envs whose robot walked farther
than half a sub-terrain move one level up, those that walked less than half of what their command asked for move
one down, and :func:`update_env_origins_mask` (the mask form of
:meth:`~isaaclab.terrains.TerrainImporter.update_env_origins`) moves their origins to the new level.

:func:`curriculum_mask_form` finds a term's form: the function's own ``mask_form`` attribute, or this module's
form of an Isaac Lab term, matched by module and name (``isaaclab_tasks`` is not imported here: a term of it is
only found once the task configuration has imported it).
"""

from __future__ import annotations

from collections.abc import Callable
from types import MappingProxyType
from typing import Any

import isaaclab.envs.mdp as mdp
import torch
from isaaclab.managers import ManagerTermBase, SceneEntityCfg


def update_env_origins_mask(
    terrain: Any, env_mask: torch.Tensor, move_up: torch.Tensor, move_down: torch.Tensor
) -> None:
    """Move the terrain levels and env origins of the envs set in ``env_mask`` one level up or down.

    As core's :meth:`~isaaclab.terrains.TerrainImporter.update_env_origins`: levels stay at or above 0, an env that
    moves past the last level goes to a random one, and the origin becomes that of the env's level and terrain type.
    A terrain without sub-terrain origins (a plane, a grid of envs) is left as it is.

    Args:
        terrain: The scene's terrain importer.
        env_mask: Envs whose level may change, bool of shape (num_envs,).
        move_up: Envs that move one level up, bool of shape (num_envs,).
        move_down: Envs that move one level down, bool of shape (num_envs,).
    """
    if terrain.terrain_origins is None:
        return
    levels = terrain.terrain_levels + move_up.long() - move_down.long()
    top = terrain.max_terrain_level
    levels = torch.where(levels >= top, torch.randint_like(levels, top), levels.clamp_min(0))
    terrain.terrain_levels.copy_(torch.where(env_mask, levels, terrain.terrain_levels))
    origins = terrain.terrain_origins[terrain.terrain_levels, terrain.terrain_types]
    terrain.env_origins.copy_(torch.where(env_mask[:, None], origins, terrain.env_origins))


def terrain_levels_vel_mask(env: Any, env_mask: torch.Tensor, asset_cfg: SceneEntityCfg | None = None) -> torch.Tensor:
    """Mask form of ``isaaclab_tasks``' ``terrain_levels_vel``: levels moved by the distance walked.

    An env moves up when its robot's root is farther than half a sub-terrain's length from its origin (in the
    ground plane), and down when it is nearer than half the distance its ``base_velocity`` command asks for over an
    episode (and it does not move up).

    Args:
        env: The manager-based environment (a generated terrain, a ``base_velocity`` command).
        env_mask: Envs being reset, bool of shape (num_envs,).
        asset_cfg: The robot (default: the entity ``"robot"``, as upstream).

    Returns:
        The mean terrain level over all envs (0-d).
    """
    asset = env.scene["robot" if asset_cfg is None else asset_cfg.name]
    terrain = env.scene.terrain
    command = env.command_manager.get_command("base_velocity")
    distance = torch.linalg.norm(asset.data.root_pos_w.torch[:, :2] - env.scene.env_origins[:, :2], dim=1)
    move_up = distance > terrain.cfg.terrain_generator.size[0] / 2
    required = torch.linalg.norm(command[:, :2], dim=1) * env.max_episode_length_s
    move_down = (distance < required * 0.5) & ~move_up
    update_env_origins_mask(terrain, env_mask, move_up, move_down)
    return terrain.terrain_levels.float().mean()


def modify_reward_weight_mask(env: Any, env_mask: torch.Tensor, term_name: str, weight: float, num_steps: int):
    """Mask form of core's ``modify_reward_weight``: the reward term's current weight, as its log.

    The weight itself changes on the host, before a step (:func:`apply_host_scheduled_curriculum`): the switch
    depends only on the step counter, which the host keeps, and a recorded step reads the weight as a constant.

    Args:
        env: The manager-based environment.
        env_mask: Envs being reset (unused: the weight is shared by every env).
        term_name: The reward term.
        weight: Its weight after ``num_steps``.
        num_steps: Env steps (``common_step_counter``) after which the weight applies.

    Returns:
        The term's weight (0-d).
    """
    return torch.full((), env.reward_manager.get_term_cfg(term_name).weight, device=env.device)


def apply_host_scheduled_curriculum(env: Any) -> bool:
    """Apply core's ``modify_reward_weight`` terms whose step count has passed; ``True`` where a weight changed.

    Core applies them when envs reset after ``num_steps`` env steps; here they apply on the host before the first
    step after it (resets happen every step in training, so the schedule is the same). A changed weight is a Python
    value a recorded step holds as a constant: the caller records the step again.

    Args:
        env: The manager-based environment.
    """
    changed = False
    for term_cfg in env.curriculum_manager._term_cfgs:
        if not isinstance(term_cfg.func, mdp.modify_reward_weight):
            continue
        params = term_cfg.params
        if env.common_step_counter <= params["num_steps"]:
            continue
        reward_cfg = env.reward_manager.get_term_cfg(params["term_name"])
        if reward_cfg.weight != params["weight"]:
            reward_cfg.weight = params["weight"]
            env.reward_manager.set_term_cfg(params["term_name"], reward_cfg)
            changed = True
    return changed


_FORMS: MappingProxyType[tuple[str, str], Callable] = MappingProxyType(
    {("isaaclab_tasks.core.velocity.mdp.curriculums", "terrain_levels_vel"): terrain_levels_vel_mask}
)
"""Isaac Lab's curriculum functions with a mask form here, by module and name."""


def curriculum_mask_form(func: Callable) -> Callable | None:
    """The mask form of the curriculum function ``func``, or ``None`` where there is none.

    A function of your own declares its form as its ``mask_form`` attribute: a function taking
    ``(env, env_mask, **params)`` and returning the term's logged state (a 0-d tensor).
    """
    if isinstance(func, mdp.modify_reward_weight):
        return modify_reward_weight_mask
    form = getattr(func, "mask_form", None)
    if form is None:
        form = _FORMS.get((getattr(func, "__module__", None), getattr(func, "__qualname__", None)))
    return form


class MaskedCurriculum:
    """The curriculum manager's compute and logging by mask, each term through its mask form.

    Args:
        curriculum: The env's curriculum manager (every term a function with a mask form).
    """

    def __init__(self, curriculum: Any):
        self._terms = [
            (name, curriculum_mask_form(term_cfg.func), term_cfg.params)
            for name, term_cfg in zip(curriculum._term_names, curriculum._term_cfgs, strict=True)
        ]
        device = curriculum.device
        self.log: dict[str, torch.Tensor] = {
            f"Curriculum/{name}": torch.zeros((), dtype=torch.float32, device=device) for name, _, _ in self._terms
        }
        """The logged term states (``Curriculum/<term>``, 0-d device tensors updated in place)."""

    def compute(self, env, env_mask: torch.Tensor) -> None:
        """Run every term on the envs set in ``env_mask`` and log its state."""
        for name, form, params in self._terms:
            self.log[f"Curriculum/{name}"].copy_(form(env, env_mask, **params))


def curriculum_terms_mask_reason(curriculum: Any) -> str | None:
    """The first term of ``curriculum`` (a curriculum manager) without a mask form, as a sentence, or ``None``."""
    for name, term_cfg in zip(curriculum._term_names, curriculum._term_cfgs, strict=True):
        func = term_cfg.func
        if curriculum_mask_form(func) is None:
            if isinstance(func, ManagerTermBase):
                return f"curriculum term '{name}' is a class without a mask form (its reset takes env indices)"
            return f"curriculum term '{name}' ({func.__name__}) has no mask form (see mask_curriculum)"
    return None
