"""Mask form of the velocity tasks' terrain curriculum against upstream's ``terrain_levels_vel`` on env indices."""

from __future__ import annotations

import types
from types import SimpleNamespace

import torch
from conftest import TEST_DEVICE

ROWS, COLS = 4, 2
EPISODE_S = 20.0
# per env: level, walked distance [m], commanded speed [m/s]; sub-terrains are 8 m long (up beyond 4 m walked)
LEVELS = [1, 1, 1, 0, 2, 1]
WALKED = [5.0, 1.0, 3.0, 0.0, 4.5, 5.0]
SPEED = [1.0, 1.0, 0.2, 1.0, 0.0, 1.0]
RESET = [True, True, True, True, True, False]
EXPECTED = [2, 0, 1, 0, 3, 1]  # up, down (1 m < 10 m / 2), stays (3 m > 2 m), down but not below 0, up; not reset


def _env():
    """A stand-in env: a 4 x 2 sub-terrain grid, robots walked ``WALKED`` along x from their origins."""
    from isaaclab.terrains import TerrainImporter

    rows = torch.arange(ROWS, dtype=torch.float32, device=TEST_DEVICE)[:, None].expand(ROWS, COLS)
    cols = torch.arange(COLS, dtype=torch.float32, device=TEST_DEVICE)[None, :].expand(ROWS, COLS)
    terrain_origins = torch.stack([8.0 * rows, 8.0 * cols, 0.1 * rows], dim=-1)
    levels = torch.tensor(LEVELS, device=TEST_DEVICE)
    types_ = torch.tensor([0, 0, 0, 1, 1, 1], device=TEST_DEVICE)
    terrain = SimpleNamespace(
        terrain_origins=terrain_origins,
        terrain_levels=levels,
        terrain_types=types_,
        env_origins=terrain_origins[levels, types_].clone(),
        max_terrain_level=ROWS,
        cfg=SimpleNamespace(terrain_generator=SimpleNamespace(size=(8.0, 8.0))),
    )
    terrain.update_env_origins = types.MethodType(TerrainImporter.update_env_origins, terrain)
    root_pos = terrain.env_origins.clone()
    root_pos[:, 0] += torch.tensor(WALKED, device=TEST_DEVICE)
    robot = SimpleNamespace(data=SimpleNamespace(root_pos_w=SimpleNamespace(torch=root_pos)))
    command = torch.zeros(len(LEVELS), 3, device=TEST_DEVICE)
    command[:, 1] = torch.tensor(SPEED, device=TEST_DEVICE)
    scene = type("Scene", (), {"__getitem__": lambda self, name: robot})()
    scene.terrain, scene.env_origins = terrain, terrain.env_origins
    return SimpleNamespace(
        scene=scene,
        command_manager=SimpleNamespace(get_command=lambda name: command),
        max_episode_length_s=EPISODE_S,
    )


def test_levels_move_by_distance_walked_as_upstream():
    """Envs move up, down or stay as upstream's term moves them; envs not reset keep their level and origin."""
    from isaaclab_contrib.envs.mask_curriculum import curriculum_mask_form
    from isaaclab_contrib.upstream.modules import import_isaaclab_tasks_submodule

    terrain_levels_vel = import_isaaclab_tasks_submodule("core.velocity.mdp").terrain_levels_vel
    form = curriculum_mask_form(terrain_levels_vel)
    assert form is not None
    core_env, mask_env = _env(), _env()
    mask = torch.tensor(RESET, device=TEST_DEVICE)
    core_mean = terrain_levels_vel(core_env, mask.nonzero().flatten())
    mask_mean = form(mask_env, mask)
    assert mask_env.scene.terrain.terrain_levels.tolist() == EXPECTED
    assert torch.equal(mask_env.scene.terrain.terrain_levels, core_env.scene.terrain.terrain_levels)
    assert torch.equal(mask_env.scene.env_origins, core_env.scene.env_origins)
    torch.testing.assert_close(mask_mean, core_mean)


def test_past_the_last_level_goes_to_a_random_level():
    """An env moving up from the last level lands on a level in [0, rows), its origin that level's."""
    from isaaclab_contrib.envs.mask_curriculum import update_env_origins_mask

    env = _env()
    terrain = env.scene.terrain
    terrain.terrain_levels[:] = ROWS - 1
    every = torch.ones(len(LEVELS), dtype=torch.bool, device=TEST_DEVICE)
    update_env_origins_mask(terrain, every, every, ~every)
    assert ((terrain.terrain_levels >= 0) & (terrain.terrain_levels < ROWS)).all()
    expected = terrain.terrain_origins[terrain.terrain_levels, terrain.terrain_types]
    assert torch.equal(terrain.env_origins, expected)
