"""The implicit MPM manager: a block of particles falls under gravity and settles on the ground (CPU)."""

from __future__ import annotations

import logging

import newton
import numpy as np
import pytest
import warp as wp

from isaaclab_newton.physics import MPMSolverCfg, NewtonManager, NewtonMPMManager
from isaaclab_newton.physics import graph as graph_module

DT = 1.0 / 120.0
"""Physics step [s]."""


def _add_particle_block(builder) -> None:
    """Add a ground plane and a 5x5x5 block of particles (0.025 m spacing) whose bottom layer starts at 0.2 m."""
    builder.add_ground_plane()
    builder.add_particle_grid(
        pos=wp.vec3(-0.05, -0.05, 0.2),
        rot=wp.quat_identity(),
        vel=wp.vec3(0.0),
        dim_x=5,
        dim_y=5,
        dim_z=5,
        cell_x=0.025,
        cell_y=0.025,
        cell_z=0.025,
        mass=0.02,
        jitter=0.0,
        radius_mean=0.0125,
    )


@pytest.fixture
def mpm_sim(make_sim):
    sim = make_sim(MPMSolverCfg(voxel_size=0.05, max_iterations=50), dt=DT)
    _add_particle_block(NewtonManager.create_builder())
    sim.reset()
    return sim


def test_particles_fall_at_gravity_then_settle_on_ground(mpm_sim):
    """Before touching the ground the block's mean velocity is -g*t (2%); after 1 s it rests on the ground."""
    for _ in range(11):
        mpm_sim.step(render=False)
    mean_vz = float(NewtonManager.get_state_0().particle_qd.numpy()[:, 2].mean())
    assert mean_vz == pytest.approx(-9.81 * 11 * DT, rel=0.02)
    for _ in range(109):
        mpm_sim.step(render=False)
    state = NewtonManager.get_state_0()
    q, qd = state.particle_q.numpy(), state.particle_qd.numpy()
    assert q[:, 2].min() > -1.0e-3, "particles sank through the ground"
    assert q[:, 2].min() < 0.05, "the block did not reach the ground"
    assert q[:, 2].max() < 0.2, "the block did not fall"
    assert float(np.linalg.norm(qd, axis=1).mean()) < 1.0e-2


def test_cpu_graph_request_falls_back_to_eager_with_reason(make_sim, monkeypatch, caplog):
    """MPM cannot be captured: with use_cpu_graph=True the manager logs why and steps eagerly."""
    monkeypatch.setattr(NewtonManager, "_eager_reasons_logged", set())
    sim = make_sim(MPMSolverCfg(voxel_size=0.05, max_iterations=50), dt=DT, use_cpu_graph=True)
    _add_particle_block(NewtonManager.create_builder())
    with caplog.at_level(logging.WARNING, logger=graph_module.__name__):
        sim.reset()
    assert "NewtonMPMManager._supports_cuda_graph_capture() is False" in caplog.text
    assert not NewtonManager.uses_graph()
    z0 = NewtonManager.get_state_0().particle_q.numpy()[:, 2].mean()
    sim.step(render=False)
    assert NewtonManager.get_state_0().particle_q.numpy()[:, 2].mean() < z0


@pytest.mark.parametrize(("upper_nodes", "fits"), [(8, True), (1, False)])
def test_upper_node_capacity_bounds_the_sparse_grid(make_sim, upper_nodes, fits):
    """A rebuildable sparse grid steps within its capacities; one upper node cannot hold a block across the origin."""
    cfg = MPMSolverCfg(
        voxel_size=0.05,
        max_iterations=10,
        max_active_cell_count=4096,
        max_leaf_node_count=64,
        max_lower_node_count=16,
        max_upper_node_count=upper_nodes,
    )
    sim = make_sim(cfg, dt=DT)
    _add_particle_block(NewtonManager.create_builder())
    if fits:
        sim.reset()
        sim.step(render=False)
        # private: Newton's solver setting under test, no public read
        assert NewtonManager.get_solver()._sparse_rebuildable
        return
    with pytest.raises(RuntimeError, match="max_upper_node_count"):
        sim.reset()
        sim.step(render=False)


def test_projection_is_part_of_the_solver_step(make_sim):
    """project_outside_colliders picks a solver whose own step projects (so coupler entries project too)."""
    from newton.solvers import SolverImplicitMPM

    for project in (True, False):
        sim = make_sim(MPMSolverCfg(voxel_size=0.05, max_iterations=10, project_outside_colliders=project), dt=DT)
        _add_particle_block(NewtonManager.create_builder())
        sim.reset()
        solver = NewtonManager.get_solver()
        assert isinstance(solver, SolverImplicitMPM)
        assert (type(solver).step is not SolverImplicitMPM.step) is project


def test_separate_worlds_on_cpu_raises(make_sim):
    """separate_worlds=True with several worlds on CPU is refused by name (Newton's per-world grids need CUDA)."""
    sim = make_sim(MPMSolverCfg(voxel_size=0.05, separate_worlds=True), dt=DT, device="cpu")
    builder = NewtonManager.create_builder()
    world = newton.ModelBuilder()
    _add_particle_block(world)
    builder.replicate(world, 2)
    with pytest.raises(ValueError, match="MPMSolverCfg.separate_worlds=True needs a CUDA device"):
        sim.reset()


def test_reset_solver_state_zeroes_the_stress_of_masked_worlds(make_sim):
    """reset_solver_state(world_mask) clears the resting block's particle stress in the masked world only."""
    sim = make_sim(
        MPMSolverCfg(
            voxel_size=0.05,
            max_iterations=50,
            warmstart_mode="particles",
            strain_basis="pic8",
            collider_basis="pic27",
        ),
        dt=DT,
    )
    builder = NewtonManager.create_builder()
    world = newton.ModelBuilder()
    _register_mpm_attributes(world)
    _add_particle_block(world)
    builder.replicate(world, 2, xforms=[wp.transform((x, 0.0, 0.0), wp.quat_identity()) for x in (0.0, 2.0)])
    sim.reset()
    for _ in range(90):
        sim.step(render=False)
    worlds = NewtonManager.get_model().particle_world.numpy()
    before = NewtonManager.get_state_0().mpm.particle_stress.numpy().copy()
    mask = wp.array([False, True, False], dtype=wp.bool, device=NewtonManager.get_model().device)
    NewtonMPMManager.reset_solver_state(world_mask=mask)
    after = NewtonManager.get_state_0().mpm.particle_stress.numpy()
    assert np.abs(before[worlds == 1]).max() > 10.0, "the resting block must carry stress"
    assert not after[worlds == 1].any()
    assert np.array_equal(after[worlds == 0], before[worlds == 0])


def test_reset_solver_state_rejects_a_wrong_mask(make_sim):
    """A world mask without the shared-world slot is refused with the expected shape named."""
    sim = make_sim(MPMSolverCfg(voxel_size=0.05, max_iterations=10), dt=DT)
    _add_particle_block(NewtonManager.create_builder())
    sim.reset()
    with pytest.raises(ValueError, match=r"wp.bool array of shape \(2,\)"):
        NewtonMPMManager.reset_solver_state(world_mask=wp.zeros(1, dtype=wp.bool))


def _register_mpm_attributes(builder) -> None:
    """Register the MPM attributes on a world prototype (the manager registers them on builders it creates)."""
    from newton.solvers import SolverImplicitMPM

    SolverImplicitMPM.register_custom_attributes(builder)
