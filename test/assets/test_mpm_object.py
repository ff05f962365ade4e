"""Newton MPMObject on implicit MPM: particles per world, a falling sand column, per-env resets, write checks."""

from __future__ import annotations

import numpy as np
import pytest
import torch
import warp as wp
from conftest import TEST_DEVICE, sand_cfg, step_scene

DT = 1.0 / 120.0  # [s]
GRAVITY = 9.81  # [m/s^2]
VOXEL = 0.05  # MPM grid cell [m]
HEIGHT = 0.2  # column height [m]
DROP = 0.1  # gap between the column's bottom and the ground [m]
PARTICLES = 4 * 4 * 8  # 0.1 x 0.1 x 0.2 m at 2 particles per cell and axis


@pytest.fixture(scope="module")
def sand_scene(scene_factory):
    """Two envs 1 m apart, each a 0.1 x 0.1 x 0.2 m sand column (128 particles) 0.1 m above a ground plane.

    On CPU the worlds share one MPM grid (separate_worlds needs CUDA); per-world resets of a shared grid need
    particle-backed warm starts, hence the particle strain and collider bases.
    """
    from isaaclab.assets import AssetBaseCfg
    from isaaclab.scene import InteractiveSceneCfg
    from isaaclab.utils import configclass

    from isaaclab_newton.physics import MPMSolverCfg, NewtonCfg
    from isaaclab_newton.sim import GroundPlaneCfg

    @configclass
    class SceneCfg(InteractiveSceneCfg):
        ground = AssetBaseCfg(prim_path="/World/ground", spawn=GroundPlaneCfg())
        sand = sand_cfg(half_width=0.05, height=HEIGHT, voxel=VOXEL, pos=(0.0, 0.0, DROP), yield_pressure=1.0e12)

    solver = MPMSolverCfg(
        voxel_size=VOXEL, max_iterations=50, warmstart_mode="particles", strain_basis="pic8", collider_basis="pic27"
    )
    sim, scene = scene_factory(SceneCfg(num_envs=2, env_spacing=1.0), physics=NewtonCfg(solver_cfg=solver), dt=DT)
    return sim, scene, scene["sand"]


def _fallen(sim, scene, sand, steps: int = 30):
    """Restore both columns, let them fall ``steps`` steps, and return the particle states before any reset."""
    sand.reset()
    step_scene(sim, scene, steps)
    return sand.data.particle_state_w.torch.clone()


def test_particles_are_cloned_into_their_own_worlds(sand_scene):
    """Each env holds the 128-particle lattice (scene index) in its own Newton world, offset by its env origin."""
    from isaaclab_newton.physics import NewtonManager

    _, scene, sand = sand_scene
    sand.reset()
    assert sand.num_instances == 2 and sand.particles_per_object == PARTICLES
    entities = NewtonManager.get_scene_index().find(sand.cfg.prim_path)
    indices = entities.indices("particle")
    assert (indices == sand.particle_indices.numpy()).all()
    particle_world = NewtonManager.get_model().particle_world.numpy()
    assert (particle_world[indices] == np.asarray(entities.world_ids)[:, None]).all()
    assert list(entities.world_ids) == [0, 1]
    local = sand.data.particle_pos_w.torch - scene.env_origins[:, None, :].to(sand.device)
    assert torch.allclose(local[0], local[1], atol=1e-6)
    assert local[0, :, 2].min().item() == pytest.approx(DROP + 0.25 * VOXEL, abs=1e-6)  # first cell centre


def test_particle_mass_is_density_times_volume(sand_scene):
    """The column's particles weigh density * box volume in total and carry the configured friction."""
    from isaaclab_newton.physics import NewtonManager

    _, _, sand = sand_scene
    model = NewtonManager.get_model()
    indices = sand.particle_indices.numpy()
    assert model.particle_mass.numpy()[indices[0]].sum() == pytest.approx(1500.0 * 0.1 * 0.1 * HEIGHT, rel=1e-5)
    assert np.allclose(model.mpm.friction.numpy()[indices], 0.7)


def test_column_falls_with_gravity_before_contact(sand_scene):
    """Ten steps after release (before the 0.1 m gap closes) every particle moves down at g * t (1%)."""
    sim, scene, sand = sand_scene
    sand.reset()
    step_scene(sim, scene, 10)
    vz = sand.data.particle_vel_w.torch[..., 2]
    assert vz.mean().item() == pytest.approx(-GRAVITY * 10 * DT, rel=0.01)
    assert (vz.max() - vz.min()).item() < 0.01 * GRAVITY * 10 * DT, "the free-falling column must not deform"


def test_column_comes_to_rest_on_the_ground(sand_scene):
    """After 1.5 s the sand lies on the ground at rest: none below it, all fallen, mean speed below 1 cm/s."""
    sim, scene, sand = sand_scene
    state = _fallen(sim, scene, sand, steps=180)
    z, speed = state[..., 2], state[..., 3:].norm(dim=-1)
    assert z.min().item() > -1.0e-3, "particles sank through the ground"
    assert z.min().item() < 0.02, "the column did not reach the ground"
    assert z.max().item() < DROP + HEIGHT * 0.5, "the column did not collapse onto the ground"
    assert speed.mean().item() < 1.0e-2


def test_reset_of_env_1_restores_it_and_leaves_env_0_bit_identical(sand_scene):
    """After the columns fall, reset(env_ids=[1]) restores env 1's spawned state; env 0's particles are unchanged."""
    sim, scene, sand = sand_scene
    before = _fallen(sim, scene, sand)
    sand.reset(env_ids=[1])
    after = sand.data.particle_state_w.torch
    default = sand.data.default_particle_state_w.torch
    assert torch.equal(after[1], default[1])
    assert torch.equal(after[0], before[0])
    assert not torch.allclose(before[1], default[1], atol=1e-3), "the column must have moved before the reset"


def test_masked_reset_restores_env_1_without_host_sync(sand_scene, monkeypatch):
    """reset(env_mask=[False, True]) restores env 1, leaves env 0, and reads no device data."""
    sim, scene, sand = sand_scene
    before = _fallen(sim, scene, sand)
    mask = torch.tensor([False, True], device=sand.device)

    def forbidden(*args, **kwargs):
        raise AssertionError("reset(env_mask=...) read device data")

    for name in ("nonzero", "item", "tolist", "numpy", "cpu", "__bool__", "__int__", "__float__", "__index__"):
        monkeypatch.setattr(torch.Tensor, name, forbidden)
    monkeypatch.setattr(torch, "nonzero", forbidden)
    monkeypatch.setattr(wp.array, "numpy", forbidden)
    sand.reset(env_mask=mask)
    monkeypatch.undo()
    after = sand.data.particle_state_w.torch
    assert torch.equal(after[1], sand.data.default_particle_state_w.torch[1])
    assert torch.equal(after[0], before[0])


def test_reset_clears_the_mpm_history_of_that_world_only(sand_scene):
    """After the piles settle, reset(env_ids=[1]) zeroes env 1's particle stress; env 0's stress is kept."""
    from isaaclab_newton.physics import NewtonManager

    sim, scene, sand = sand_scene
    _fallen(sim, scene, sand, steps=60)
    indices = sand.particle_indices.numpy()
    stress_before = NewtonManager.get_state_0().mpm.particle_stress.numpy()[indices]
    sand.reset(env_ids=[1])
    stress_after = NewtonManager.get_state_0().mpm.particle_stress.numpy()[indices]
    # a pile of ~3 cm carries about rho g h = 1500 * 9.81 * 0.03 ~ 440 Pa of pressure at its base
    assert np.abs(stress_before[1]).max() > 100.0, "the settled pile must carry stress under its weight"
    assert not stress_after[1].any()
    assert np.array_equal(stress_after[0], stress_before[0])


def test_position_write_moves_only_the_selected_env(sand_scene):
    """write_particle_pos_to_sim_index for env 1 lifts env 1's particles by 0.05 m and leaves env 0's."""
    sim, scene, sand = sand_scene
    before = _fallen(sim, scene, sand)
    lifted = before[1:, :, :3] + torch.tensor([0.0, 0.0, 0.05], device=sand.device)
    sand.write_particle_pos_to_sim_index(lifted, env_ids=torch.tensor([1], device=sand.device))
    after = sand.data.particle_state_w.torch
    assert torch.equal(after[1, :, :3], lifted[0])
    assert torch.equal(after[1, :, 3:], before[1, :, 3:])
    assert torch.equal(after[0], before[0])


def test_velocity_write_full_data_reads_the_selected_rows(sand_scene):
    """With full_data=True the velocity writer takes one row per env and writes only the selected env's row."""
    sim, scene, sand = sand_scene
    before = _fallen(sim, scene, sand)
    velocity = torch.zeros((2, PARTICLES, 3), device=sand.device)
    velocity[..., 0] = torch.tensor([1.0, 2.0], device=sand.device)[:, None]
    sand.write_particle_velocity_to_sim_index(velocity, env_ids=[0], full_data=True)
    after = sand.data.particle_vel_w.torch
    assert torch.equal(after[0], velocity[0])
    assert torch.equal(after[1], before[1, :, 3:])


def test_state_write_rejects_float64(sand_scene):
    """A float64 particle state is refused with the field named, not converted."""
    _, _, sand = sand_scene
    state = sand.data.default_particle_state_w.torch.double()
    with pytest.raises(TypeError, match="'particle_state' has dtype torch.float64"):
        sand.write_particle_state_to_sim_index(state)


def test_state_write_rejects_a_wrong_shape(sand_scene):
    """A state with one row for two selected envs is refused with the expected shape named, not broadcast."""
    _, _, sand = sand_scene
    state = sand.data.default_particle_state_w.torch[:1].clone()
    with pytest.raises(ValueError, match=r"must have shape \(2, 128, 6\)"):
        sand.write_particle_state_to_sim_index(state)


def test_masked_reset_rejects_a_wrong_mask(sand_scene):
    """A mask that is not (num_envs,) bool is refused with the expected shape named."""
    _, _, sand = sand_scene
    with pytest.raises(ValueError, match=r"env_mask must be a bool mask of shape \(2,\)"):
        sand.reset(env_mask=torch.ones(3, dtype=torch.bool, device=TEST_DEVICE))
    with pytest.raises(ValueError, match=r"env_mask must be a bool mask"):
        sand.reset(env_mask=torch.ones(2, dtype=torch.int32, device=TEST_DEVICE))
