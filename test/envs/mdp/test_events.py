"""Core's material and gravity randomization terms on Newton: the written envs' physics changes as predicted."""

from __future__ import annotations

import math
from types import SimpleNamespace

import pytest
import torch
from conftest import TEST_DEVICE, step_scene

G = 9.81  # [m/s^2]
SLOPE = math.atan(0.5)  # tan(slope) = 0.5


@pytest.fixture(scope="module")
def cubes(cube_scene_factory):
    """Three 1 kg cubes on a ground of friction 0.1 (MuJoCo takes the larger coefficient: the cube's decides)."""
    sim, scene = cube_scene_factory(num_envs=3, ground_friction=0.1)
    env = SimpleNamespace(scene=scene, sim=sim, num_envs=scene.num_envs, device=sim.device)
    return sim, scene, env


def _term(term_cls, env, **params):
    """Build core's event term ``term_cls`` for the cube with ``params``; returns the callable and its params."""
    from isaaclab.managers import EventTermCfg, SceneEntityCfg

    asset_cfg = SceneEntityCfg("cube")
    asset_cfg.resolve(env.scene)
    cfg = EventTermCfg(func=term_cls, mode="reset", params={"asset_cfg": asset_cfg, **params})
    if term_cls.__name__ == "randomize_physics_scene_gravity":
        del cfg.params["asset_cfg"]
    return term_cls(cfg, env), cfg.params


def _rest(scene, cube) -> None:
    pose = torch.tensor([0.0, 0.0, 0.1 + 1e-3, 0.0, 0.0, 0.0, 1.0], device=TEST_DEVICE).repeat(scene.num_envs, 1)
    pose[:, :3] += scene.env_origins
    cube.reset()
    cube.write_root_pose_to_sim_index(root_pose=pose)
    cube.write_root_velocity_to_sim_index(root_velocity=torch.zeros(scene.num_envs, 6, device=TEST_DEVICE))


def test_gravity_randomization_sets_each_env_fall(cubes):
    """Gravity written for env 1 only (abs, 5 m/s^2 down) makes it fall at 5 m/s^2; the others fall at g."""
    from isaaclab.envs.mdp import randomize_physics_scene_gravity

    sim, scene, env = cubes
    term, params = _term(
        randomize_physics_scene_gravity,
        env,
        gravity_distribution_params=([0.0, 0.0, -5.0], [0.0, 0.0, -5.0]),
        operation="abs",
    )
    cube = scene["cube"]
    term(env, torch.tensor([1], device=TEST_DEVICE), **params)
    _rest(scene, cube)
    pose = cube.data.root_link_pose_w.torch.clone()
    pose[:, 2] += 2.0
    cube.write_root_pose_to_sim_index(root_pose=pose)
    steps = 48
    step_scene(sim, scene, steps)
    acc = cube.data.root_com_lin_vel_w.torch[:, 2] / (steps * sim.get_physics_dt())
    assert acc.tolist() == pytest.approx([-G, -5.0, -G], rel=1e-3)
    term(env, None, gravity_distribution_params=([0.0] * 3, [0.0] * 3), operation="add")  # back to the default
    _rest(scene, cube)


def test_friction_randomization_decides_slide_on_slope(cubes):
    """On a slope (gravity tilted by atan 0.5) a cube slides at mu 0.3 with a = g (sin - mu cos), holds at mu 0.8."""
    from isaaclab.envs.mdp import randomize_physics_scene_gravity, randomize_rigid_body_material

    sim, scene, env = cubes
    cube = scene["cube"]
    material, mparams = _term(
        randomize_rigid_body_material,
        env,
        static_friction_range=(0.8, 0.8),
        dynamic_friction_range=(0.8, 0.8),
        restitution_range=(0.0, 0.0),
        num_buckets=1,
    )
    material(env, None, **mparams)
    material(env, torch.tensor([0], device=TEST_DEVICE), **{**mparams, "static_friction_range": (0.3, 0.3)})
    tilted = [G * math.sin(SLOPE), 0.0, -G * math.cos(SLOPE)]
    gravity, gparams = _term(
        randomize_physics_scene_gravity, env, gravity_distribution_params=(tilted, tilted), operation="abs"
    )
    gravity(env, None, **gparams)
    _rest(scene, cube)
    step_scene(sim, scene, 24)  # settle into contact
    x0 = cube.data.root_link_pos_w.torch[:, 0].clone()
    v0 = cube.data.root_com_lin_vel_w.torch[:, 0].clone()
    steps = 120
    step_scene(sim, scene, steps)
    t = steps * sim.get_physics_dt()
    acc = (cube.data.root_com_lin_vel_w.torch[:, 0] - v0) / t
    expected = G * (math.sin(SLOPE) - 0.3 * math.cos(SLOPE))
    assert acc[0].item() == pytest.approx(expected, rel=0.05)
    moved = cube.data.root_link_pos_w.torch[:, 0] - x0
    # MuJoCo's soft contact lets a held cube creep by millimetres; the sliding one travels 0.22 m
    assert torch.all(moved[1:].abs() < 0.01 * moved[0]), f"mu 0.8 > tan(slope) must hold: moved {moved.tolist()} m"
    gravity(env, None, gravity_distribution_params=([0.0, 0.0, -G],) * 2, operation="abs")
    _rest(scene, cube)


def test_collider_offsets_write_margin_and_gap(cubes):
    """Rest offset becomes the shape margin and contact offset margin + gap, for the selected env's shapes only."""
    import warp as wp
    from isaaclab.envs.mdp import randomize_rigid_body_collider_offsets

    from isaaclab_newton.physics import NewtonManager

    _, scene, env = cubes
    term, params = _term(
        randomize_rigid_body_collider_offsets,
        env,
        rest_offset_distribution_params=(0.002, 0.002),
        contact_offset_distribution_params=(0.01, 0.01),
    )
    model = NewtonManager.get_model()
    before_margin, before_gap = wp.to_torch(model.shape_margin).clone(), wp.to_torch(model.shape_gap).clone()
    term(env, torch.tensor([2], device=TEST_DEVICE), **params)
    shapes = term._impl._shapes.shapes  # private: the sampler's shapes under test
    margin, gap = wp.to_torch(model.shape_margin), wp.to_torch(model.shape_gap)
    assert margin[shapes[2]].tolist() == pytest.approx([0.002])
    assert gap[shapes[2]].tolist() == pytest.approx([0.008])
    torch.testing.assert_close(margin[shapes[:2]], before_margin[shapes[:2]])
    torch.testing.assert_close(gap[shapes[:2]], before_gap[shapes[:2]])
    margin[shapes[2]], gap[shapes[2]] = before_margin[shapes[2]], before_gap[shapes[2]]
