"""Newton DeformableObject on VBD: per-env reset, pinned nodes, and soft contact forces of a resting cube."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from conftest import TEST_DEVICE, step_scene

DT = 1.0 / 120.0  # [s]
SIZE = 0.1  # cube edge [m]
DENSITY = 500.0  # [kg/m^3] -> 0.5 kg cube
GRAVITY = 9.81  # [m/s^2]


@pytest.fixture(scope="module")
def soft_scene(scene_factory):
    """Two envs, each a 0.1 m soft cube (3x3x3 nodes, E 1e5 Pa) 0.1 m above a ground plane, VBD.

    50 VBD iterations: with 10 the resting solve is not converged and the contact rows read 1.10 m g.
    """
    from isaaclab.assets import AssetBaseCfg, DeformableObjectCfg
    from isaaclab.scene import InteractiveSceneCfg
    from isaaclab.utils import configclass

    from isaaclab_newton.physics import NewtonCfg, VBDSolverCfg
    from isaaclab_newton.sim import DeformableMaterialCfg, GroundPlaneCfg, SoftGridCfg

    material = DeformableMaterialCfg(youngs_modulus=1.0e5, poisson_ratio=0.3, density=DENSITY, damping=1.0)

    @configclass
    class SceneCfg(InteractiveSceneCfg):
        ground = AssetBaseCfg(prim_path="/World/ground", spawn=GroundPlaneCfg())
        cube = DeformableObjectCfg(
            prim_path="{ENV_REGEX_NS}/Cube",
            spawn=SoftGridCfg(size=(SIZE, SIZE, SIZE), resolution=(2, 2, 2), material=material),
            init_state=DeformableObjectCfg.InitialStateCfg(pos=(0.0, 0.0, 0.1)),
        )

    physics = NewtonCfg(solver_cfg=VBDSolverCfg(iterations=50), observables=("contact_f",))
    sim, scene = scene_factory(SceneCfg(num_envs=2, env_spacing=1.0), physics=physics, dt=DT)
    return sim, scene, scene["cube"]


def _free_all(cube) -> None:
    targets = cube.data.nodal_kinematic_target.torch.clone()
    targets[..., 3] = 1.0
    cube.write_nodal_kinematic_target_to_sim_index(targets)
    cube.reset()


def test_nodes_cloned_into_every_env(soft_scene):
    """Both envs hold the 27 nodes and 40 tets of the cube (scene index), offset by their env origins."""
    from isaaclab_newton.physics import NewtonManager

    _, scene, cube = soft_scene
    assert cube.num_instances == 2 and cube.max_sim_vertices_per_body == 27
    entities = NewtonManager.get_scene_index().find(cube.cfg.prim_path)
    assert entities.count("particle") == 27 and entities.count("tet") == 40
    assert (entities.indices("particle") == cube.particle_indices.numpy()).all()
    _free_all(cube)
    pos = cube.data.nodal_pos_w.torch
    assert torch.allclose(cube.data.root_pos_w.torch, pos.mean(dim=1))
    local = pos - scene.env_origins[:, None, :].to(pos.device)
    assert torch.allclose(local[0], local[1], atol=1e-6)
    assert local[0, :, 2].min().item() == pytest.approx(0.1, abs=1e-6)


def test_reset_restores_only_that_env(soft_scene):
    """After the cubes fall, resetting env 0 puts its nodes back at rest at the spawn pose; env 1 is untouched."""
    sim, scene, cube = soft_scene
    _free_all(cube)
    step_scene(sim, scene, 30)
    before = cube.data.nodal_state_w.torch.clone()
    cube.reset(env_ids=[0])
    after = cube.data.nodal_state_w.torch
    default = cube.data.default_nodal_state_w.torch
    assert torch.equal(after[0], default[0])
    assert torch.equal(after[1], before[1])
    assert not torch.allclose(before[0], default[0], atol=1e-3), "the cube must have moved before the reset"


def test_masked_reset_restores_only_env_1_without_host_sync(soft_scene, monkeypatch):
    """reset(env_mask=[False, True]) restores env 1's nodes and leaves env 0's; it reads no device data."""
    sim, scene, cube = soft_scene
    _free_all(cube)
    step_scene(sim, scene, 30)
    before = cube.data.nodal_state_w.torch.clone()
    mask = torch.tensor([False, True], device=cube.device)

    def forbidden(*args, **kwargs):
        raise AssertionError("reset(env_mask=...) read device data")

    for name in ("nonzero", "item", "tolist", "__bool__", "__int__", "__float__", "__index__"):
        monkeypatch.setattr(torch.Tensor, name, forbidden)
    monkeypatch.setattr(torch, "nonzero", forbidden)
    cube.reset(env_mask=mask)
    monkeypatch.undo()
    after = cube.data.nodal_state_w.torch
    default = cube.data.default_nodal_state_w.torch
    assert torch.equal(after[1], default[1])
    assert torch.equal(after[0], before[0])
    assert not torch.allclose(before[1], default[1], atol=1e-3), "the cube must have moved before the reset"
    with pytest.raises(ValueError, match=r"env_mask must be a bool mask of shape \(2,\)"):
        cube.reset(env_mask=torch.ones(3, dtype=torch.bool, device=TEST_DEVICE))


def test_pinned_node_stays_put(soft_scene):
    """A top corner pinned by a kinematic target (flag 0) holds its position while the rest of the cube sags."""
    sim, scene, cube = soft_scene
    _free_all(cube)
    targets = cube.data.nodal_kinematic_target.torch.clone()
    top = int(torch.argmax(cube.data.nodal_pos_w.torch[1, :, 2]))
    targets[1, top, 3] = 0.0
    cube.write_nodal_kinematic_target_to_sim_index(targets[1:], env_ids=[1])
    pinned = cube.data.nodal_pos_w.torch[1, top].clone()
    start = cube.data.nodal_pos_w.torch.clone()
    step_scene(sim, scene, 60)
    pos = cube.data.nodal_pos_w.torch
    assert torch.equal(pos[1, top], pinned)
    others = torch.ones(27, dtype=torch.bool, device=TEST_DEVICE)
    others[top] = False
    assert (start[1, others, 2] - pos[1, others, 2]).max().item() > 1e-3, "free nodes must sag under gravity"
    assert cube.data.root_pos_w.torch[0, 2].item() < 0.07, "the unpinned env-0 cube falls to the ground"
    _free_all(cube)


def test_soft_contact_rows_sum_to_weight(soft_scene):
    """VBD's rigid-soft CONTACT_F rows under the resting cubes sum to their weight m g within 2 %."""
    from isaaclab_newton.physics import NewtonManager

    sim, scene, cube = soft_scene
    _free_all(cube)
    step_scene(sim, scene, 240)
    assert cube.data.root_vel_w.torch.norm(dim=-1).max().item() < 1e-2, "the cubes must be at rest"
    model = NewtonManager.get_model()
    contacts = NewtonManager.get_contacts()
    n_soft = int(contacts.soft_contact_count.numpy()[0])
    rows = NewtonManager.get_observables().contact_f.numpy()[contacts.rigid_contact_max :][:n_soft]
    mass = model.particle_mass.numpy()[cube.particle_indices.numpy()].sum()
    assert mass == pytest.approx(2 * DENSITY * SIZE**3, rel=1e-4)
    assert n_soft > 0
    # rows are forces on the contacted shape (the static ground) by the soft feature: the cubes push down
    total = rows[:, :3].sum(axis=0)
    assert -total[2] == pytest.approx(mass * GRAVITY, rel=0.02)
    assert np.abs(total[:2]).max() < 0.02 * mass * GRAVITY


def test_nodal_state_write_lands_in_that_env(soft_scene):
    """write_nodal_state_to_sim_index for env 1 sets its nodes' positions and velocities exactly; env 0 keeps its."""
    _, _, cube = soft_scene
    _free_all(cube)
    state = cube.data.nodal_state_w.torch.clone()
    new = state[1:].clone()
    new[..., 0] += 0.02
    new[..., 3:] = torch.tensor([0.0, 0.0, 0.5], device=TEST_DEVICE)
    cube.write_nodal_state_to_sim_index(new, env_ids=[1])
    after = cube.data.nodal_state_w.torch
    assert torch.equal(after[1], new[0]) and torch.equal(after[0], state[0])
    assert torch.allclose(cube.data.root_vel_w.torch[1], torch.tensor([0.0, 0.0, 0.5], device=TEST_DEVICE))
    _free_all(cube)


def test_nodal_reads_follow_the_state_stamp(soft_scene, monkeypatch):
    """A read after a physics step gathers the new nodes without ``update()``; two reads in a row gather once."""
    import warp as wp

    sim, _, cube = soft_scene
    _free_all(cube)
    before = cube.data.root_pos_w.torch.clone()
    sim.step(render=False)  # no scene.update(): the simulation time of the data does not advance
    after = cube.data.root_pos_w.torch.clone()
    assert (after[:, 2] < before[:, 2]).all(), "the falling cubes' nodal means must move down"
    launches = []
    original = wp.launch
    monkeypatch.setattr(
        wp, "launch", lambda kernel, *args, **kwargs: launches.append(kernel) or original(kernel, *args, **kwargs)
    )
    _ = cube.data.nodal_pos_w, cube.data.root_pos_w
    monkeypatch.undo()
    assert launches == [], "reads without a state change must not gather again"
