"""The implicit MPM manager: a block of particles falls under gravity and settles on the ground (CPU)."""

from __future__ import annotations

import logging

import numpy as np
import pytest
import warp as wp

from isaaclab_newton.physics import MPMSolverCfg, NewtonManager
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
    monkeypatch.setattr(graph_module, "_reported_reasons", set())
    sim = make_sim(MPMSolverCfg(voxel_size=0.05, max_iterations=50), dt=DT, use_cpu_graph=True)
    _add_particle_block(NewtonManager.create_builder())
    with caplog.at_level(logging.WARNING, logger=graph_module.__name__):
        sim.reset()
    assert "NewtonMPMManager._supports_cuda_graph_capture() is False" in caplog.text
    assert not NewtonManager.uses_graph()
    z0 = NewtonManager.get_state_0().particle_q.numpy()[:, 2].mean()
    sim.step(render=False)
    assert NewtonManager.get_state_0().particle_q.numpy()[:, 2].mean() < z0
