"""Solver managers reject configurations they cannot run with an error that names the fix."""

from __future__ import annotations

import pytest
import warp as wp

from isaaclab_newton.physics import (
    FeatherstoneSolverCfg,
    KaminoPADMMCfg,
    KaminoSolverCfg,
    MJWarpSolverCfg,
    MPMSolverCfg,
    NewtonCollisionPipelineCfg,
    NewtonManager,
    VBDSolverCfg,
)

from . import scenes


def test_vbd_external_rigid_solver_without_one_raises(make_sim):
    """VBD told to leave rigid bodies to another solver refuses a standalone scene with a dynamic body."""
    sim = make_sim(VBDSolverCfg(integrate_with_external_rigid_solver=True))
    scenes.add_dropped_box(NewtonManager.create_builder())
    with pytest.raises(ValueError, match="integrate_with_external_rigid_solver"):
        sim.reset()


def test_kamino_padmm_cfg_with_other_backend_raises(make_sim):
    """A PADMM settings block is rejected when another dynamics backend is selected."""
    sim = make_sim(KaminoSolverCfg(dynamics_solver="dvi", dynamics_solver_cfg=KaminoPADMMCfg(max_iterations=50)))
    scenes.add_dropped_box(NewtonManager.create_builder())
    with pytest.raises(ValueError, match="only applies to dynamics_solver='padmm'"):
        sim.reset()


def test_kamino_two_pipeline_capacities_raise(make_sim):
    """Sizing the manager's pipeline both per world and in total is rejected, naming both fields."""
    sim = make_sim(
        KaminoSolverCfg(max_contacts_per_world=64), collision_cfg=NewtonCollisionPipelineCfg(rigid_contact_max=100)
    )
    scenes.add_dropped_box(NewtonManager.create_builder())
    with pytest.raises(ValueError, match="max_contacts_per_world and NewtonCfg.collision_cfg.rigid_contact_max"):
        sim.reset()


def test_mjwarp_ls_parallel_raises(make_sim):
    """MuJoCo Warp dropped the parallel line search, so ls_parallel=True is rejected by name."""
    sim = make_sim(MJWarpSolverCfg(ls_parallel=True))
    scenes.add_dropped_box(NewtonManager.create_builder())
    with pytest.raises(ValueError, match="ls_parallel"):
        sim.reset()


def test_featherstone_body_without_joint_raises(make_sim):
    """Featherstone refuses a body with no inbound joint, which it would never move."""
    sim = make_sim(FeatherstoneSolverCfg())
    builder = NewtonManager.create_builder()
    body = builder.add_link(xform=wp.transform((0.0, 0.0, 1.0), wp.quat_identity()))
    builder.add_shape_box(body, hx=0.1, hy=0.1, hz=0.1)
    with pytest.raises(ValueError, match="no inbound joint"):
        sim.reset()


def test_mpm_without_particles_raises(make_sim):
    """MPM refuses a scene without particles before finalizing it."""
    sim = make_sim(MPMSolverCfg())
    NewtonManager.create_builder().add_ground_plane()
    with pytest.raises(ValueError, match="needs particles"):
        sim.reset()


def test_mpm_with_dynamic_body_raises(make_sim):
    """MPM integrates particles only and refuses dynamic rigid bodies it would leave frozen."""
    sim = make_sim(MPMSolverCfg())
    builder = NewtonManager.create_builder()
    scenes.add_dropped_box(builder)
    builder.add_particle(pos=(0.0, 0.0, 1.0), vel=(0.0, 0.0, 0.0), mass=0.01, radius=0.01)
    with pytest.raises(ValueError, match="dynamic rigid bodies"):
        sim.reset()
