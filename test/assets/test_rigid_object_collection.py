"""Newton RigidObjectCollection: free boxes fall with g and rest on the ground; writes address (env, object)."""

from __future__ import annotations

import pytest
import torch
from conftest import TEST_DEVICE, rigid_box_cfg, step_scene

G = 9.81
HALF = 0.1  # box half extent [m]
DROP = 2.0  # start height of the falling box [m]
DT = 1.0 / 240.0


@pytest.fixture(scope="module")
def boxes(scene_factory):
    """Per env (2 envs): box "falling" released at 2 m, box "resting" on the ground; MuJoCo Warp on CPU."""
    from isaaclab.assets import AssetBaseCfg, RigidObjectCollectionCfg
    from isaaclab.scene import InteractiveSceneCfg
    from isaaclab.utils import configclass

    from isaaclab_newton.sim import GroundPlaneCfg

    @configclass
    class SceneCfg(InteractiveSceneCfg):
        ground = AssetBaseCfg(prim_path="/World/ground", spawn=GroundPlaneCfg())
        boxes = RigidObjectCollectionCfg(
            rigid_objects={
                "falling": rigid_box_cfg("Falling", size=(2 * HALF,) * 3, pos=(0.0, 0.0, DROP)),
                "resting": rigid_box_cfg("Resting", size=(2 * HALF,) * 3, pos=(0.0, 0.0, HALF)),
            }
        )

    sim, scene = scene_factory(SceneCfg(num_envs=2, env_spacing=3.0), dt=DT, device=TEST_DEVICE)
    return sim, scene, scene["boxes"]


def test_collection_resolves_to_newton_backend(boxes):
    """Core's factory builds the Newton collection with one column per object."""
    _, _, collection = boxes
    assert type(collection).__module__.startswith("isaaclab_newton.assets.rigid_object_collection")
    assert collection.body_names == ["falling", "resting"]
    assert collection.data.body_link_pos_w.torch.shape == (2, 2, 3)


def test_free_box_falls_with_g_and_resting_box_stays(boxes):
    """After 0.3 s the falling box dropped g t^2 / 2 (to one step) and moves at g t; the resting box stays put."""
    sim, scene, collection = boxes
    collection.reset()
    steps = 72
    step_scene(sim, scene, steps)
    t = steps * DT
    pos = collection.data.body_link_pos_w.torch
    vel = collection.data.body_com_lin_vel_w.torch
    origins = scene.env_origins
    # semi-implicit Euler trails the analytic drop by g t dt / 2; allow one step's worth
    torch.testing.assert_close(
        pos[:, 0, 2], torch.full((2,), DROP - 0.5 * G * t * t, device=TEST_DEVICE), atol=G * t * DT, rtol=0
    )
    torch.testing.assert_close(vel[:, 0, 2], torch.full((2,), -G * t, device=TEST_DEVICE), atol=2e-3, rtol=0)
    torch.testing.assert_close(pos[:, 1, :2], origins[:, :2], atol=1e-3, rtol=0)
    torch.testing.assert_close(pos[:, 1, 2], torch.full((2,), HALF, device=TEST_DEVICE), atol=3e-3, rtol=0)
    assert float(vel[:, 1].abs().max()) < 1e-2


def test_pose_write_moves_one_object_in_one_env(boxes):
    """Writing the resting box of env 1 to 1 m leaves env 0 and the other object alone."""
    sim, scene, collection = boxes
    before = collection.data.body_link_pos_w.torch.clone()
    target = before[1, 1].clone()
    target[2] = 1.0
    pose = torch.cat((target, torch.tensor([0.0, 0.0, 0.0, 1.0], device=TEST_DEVICE))).reshape(1, 1, 7)
    collection.write_body_pose_to_sim_index(body_poses=pose, env_ids=[1], body_ids=[1])
    after = collection.data.body_link_pos_w.torch
    torch.testing.assert_close(after[1, 1], target, atol=1e-6, rtol=0)
    torch.testing.assert_close(after[0], before[0], atol=1e-6, rtol=0)
    torch.testing.assert_close(after[1, 0], before[1, 0], atol=1e-6, rtol=0)


def test_velocity_mask_write_sets_one_object(boxes):
    """A masked center-of-mass twist write on env 0's falling box reads back; the other rows keep theirs."""
    import warp as wp

    _, _, collection = boxes
    before = collection.data.body_com_vel_w.torch.clone()
    full = before.clone()
    full[0, 0] = torch.tensor([1.0, 0.0, 0.5, 0.0, 0.0, 2.0], device=TEST_DEVICE)
    env_mask = wp.array([True, False], dtype=wp.bool, device=TEST_DEVICE)
    body_mask = wp.array([True, False], dtype=wp.bool, device=TEST_DEVICE)
    collection.write_body_velocity_to_sim_mask(body_velocities=full, env_mask=env_mask, body_mask=body_mask)
    after = collection.data.body_com_vel_w.torch
    torch.testing.assert_close(after[0, 0], full[0, 0], atol=1e-6, rtol=0)
    torch.testing.assert_close(after[1], before[1], atol=1e-6, rtol=0)
    torch.testing.assert_close(after[0, 1], before[0, 1], atol=1e-6, rtol=0)
