"""NewtonCfg fields that Isaac Lab's task presets set reach Newton's builder, model, pipeline and solvers."""

from __future__ import annotations

import newton
import numpy as np
import pytest
import warp as wp
from conftest import EAGER

from isaaclab_newton.physics import (
    KaminoPADMMCfg,
    KaminoSolverCfg,
    MJWarpSolverCfg,
    NewtonCollisionPipelineCfg,
    NewtonManager,
    NewtonShapeCfg,
    NewtonSoftContactCfg,
    XPBDSolverCfg,
)

from . import scenes


@pytest.fixture
def pipeline_kwargs(monkeypatch):
    """Record the keyword arguments of every ``newton.CollisionPipeline`` the manager builds."""
    calls: list[dict] = []
    original = newton.CollisionPipeline

    def recording(model, **kwargs):
        calls.append(kwargs)
        return original(model, **kwargs)

    monkeypatch.setattr(newton, "CollisionPipeline", recording)
    return calls


def _add_plain_box(builder: newton.ModelBuilder) -> None:
    builder.add_ground_plane()
    body = builder.add_body(xform=wp.transform((0.0, 0.0, 0.3), wp.quat_identity()))
    builder.add_shape_box(body, hx=0.1, hy=0.1, hz=0.1)


def test_default_shape_cfg_reaches_builder_shapes(make_sim):
    """Shapes added without a ShapeConfig carry NewtonShapeCfg's margin, friction and stiffness in the model."""
    # Newton's contacts: MuJoCo's own detection zeroes authored margins (with a NewtonWarning)
    solver_cfg = MJWarpSolverCfg(use_mujoco_contacts=False)
    sim = make_sim(solver_cfg, default_shape_cfg=NewtonShapeCfg(margin=0.01, mu=0.3, ke=5.0e4))
    _add_plain_box(NewtonManager.create_builder())
    sim.reset()
    model = NewtonManager.get_model()
    np.testing.assert_allclose(model.shape_margin.numpy(), 0.01)
    np.testing.assert_allclose(model.shape_material_mu.numpy(), 0.3)
    np.testing.assert_allclose(model.shape_material_ke.numpy(), 5.0e4)


def test_bvh_constructor_geometry_builds_mesh_bvhs(make_sim, monkeypatch):
    """bvh_constructor_geometry is the constructor of the Warp BVH of every mesh shape the model finalizes."""
    constructors = []
    original = newton.Mesh.finalize

    def recording(mesh, *args, **kwargs):
        constructors.append(kwargs.get("bvh_constructor"))
        return original(mesh, *args, **kwargs)

    monkeypatch.setattr(newton.Mesh, "finalize", recording)
    sim = make_sim(XPBDSolverCfg(), bvh_constructor_geometry="median")
    builder = NewtonManager.create_builder()
    builder.add_shape_mesh(-1, mesh=newton.Mesh.create_box(1.0, 1.0, 0.1, compute_inertia=False))
    sim.reset()
    assert constructors == ["median"]


def test_soft_contact_cfg_reaches_model(make_sim):
    """NewtonSoftContactCfg fields are written on the finalized model under the same names."""
    sim = make_sim(
        MJWarpSolverCfg(), soft_contact_cfg=NewtonSoftContactCfg(soft_contact_ke=1.0e5, soft_contact_mu=0.01)
    )
    _add_plain_box(NewtonManager.create_builder())
    sim.reset()
    model = NewtonManager.get_model()
    assert model.soft_contact_ke == pytest.approx(1.0e5)
    assert model.soft_contact_mu == pytest.approx(0.01)


def test_collision_pipeline_cfg_reaches_newton_pipeline(make_sim, pipeline_kwargs):
    """Set NewtonCollisionPipelineCfg fields are passed to newton.CollisionPipeline under their own names."""
    cfg = NewtonCollisionPipelineCfg(rigid_contact_max=321, broad_phase="sap", max_triangle_pairs=5000)
    sim = make_sim(XPBDSolverCfg(), collision_cfg=cfg)
    scenes.add_dropped_box(NewtonManager.create_builder())
    sim.reset()
    assert pipeline_kwargs[-1]["rigid_contact_max"] == 321
    assert pipeline_kwargs[-1]["broad_phase"] == "sap"
    assert pipeline_kwargs[-1]["max_triangle_pairs"] == 5000
    assert NewtonManager.get_collision_pipeline().rigid_contact_max == 321


def test_triangle_pairs_per_world_scale_with_the_world_count(make_sim, pipeline_kwargs):
    """max_triangle_pairs_per_world gives the pipeline that capacity times the model's worlds (3 here)."""
    sim = make_sim(XPBDSolverCfg(), collision_cfg=NewtonCollisionPipelineCfg(max_triangle_pairs_per_world=700))
    box = newton.ModelBuilder()
    scenes.add_dropped_box(box)
    NewtonManager.create_builder().replicate(box, 3)
    sim.reset()
    assert pipeline_kwargs[-1]["max_triangle_pairs"] == 3 * 700


def test_both_triangle_pair_capacities_are_refused():
    """Setting the total and the per-world triangle-pair capacity together is refused, naming both."""
    from isaaclab_newton.physics.newton_manager_cfg import collision_pipeline_kwargs

    cfg = NewtonCollisionPipelineCfg(max_triangle_pairs=5000, max_triangle_pairs_per_world=700)
    with pytest.raises(ValueError, match="max_triangle_pairs=5000 and max_triangle_pairs_per_world=700"):
        collision_pipeline_kwargs(cfg, world_count=4)


def test_collision_decimation_collides_every_nth_substep(make_sim, monkeypatch):
    """With 4 substeps and collision_decimation=2 the pipeline collides twice per physics step."""
    sim = make_sim(XPBDSolverCfg(), num_substeps=4, collision_decimation=2, **EAGER)
    scenes.add_dropped_box(NewtonManager.create_builder())
    sim.reset()
    pipeline = NewtonManager.get_collision_pipeline()
    calls = []
    original = pipeline.collide
    monkeypatch.setattr(pipeline, "collide", lambda *a, **k: (calls.append(1), original(*a, **k))[1])
    sim.step(render=False)
    assert len(calls) == 2


def test_kamino_padmm_cfg_reaches_solver_config(make_sim):
    """KaminoPADMMCfg fields land in SolverKamino's PADMM configuration; unset ones keep Kamino's defaults."""
    padmm = KaminoPADMMCfg(primal_tolerance=1.0e-5, rho_0=0.02)
    sim = make_sim(KaminoSolverCfg(dynamics_solver_cfg=padmm))
    scenes.add_dropped_box(NewtonManager.create_builder())
    sim.reset()
    config = NewtonManager.get_solver()._config.padmm  # private: Newton's solver setting under test, no public read
    assert config.primal_tolerance == pytest.approx(1.0e-5)
    assert config.rho_0 == pytest.approx(0.02)
    assert config.dual_tolerance == pytest.approx(1.0e-6)


def test_kamino_contacts_per_world_size_manager_pipeline(make_sim, pipeline_kwargs):
    """Without Kamino's detector, max_contacts_per_world sizes the manager's pipeline per world."""
    sim = make_sim(KaminoSolverCfg(max_contacts_per_world=64))
    scenes.add_dropped_box(NewtonManager.create_builder())
    sim.reset()
    worlds = max(NewtonManager.get_model().world_count, 1)
    assert pipeline_kwargs[-1]["rigid_contact_max"] == 64 * worlds


def test_mjwarp_ccd_iterations_reach_mujoco_warp(make_sim):
    """MJWarpSolverCfg.ccd_iterations sets MuJoCo Warp's convex collision iteration count."""
    sim = make_sim(MJWarpSolverCfg(ccd_iterations=35))
    scenes.add_dropped_box(NewtonManager.create_builder())
    sim.reset()
    assert int(NewtonManager.get_solver().mjw_model.opt.ccd_iterations) == 35


def test_zeroed_mujoco_margins_are_reported_in_one_warning(make_sim):
    """MuJoCo's own contacts zero every authored margin; the build says so in one NewtonWarning, not one per geom."""
    sim = make_sim(MJWarpSolverCfg(use_mujoco_contacts=True), default_shape_cfg=NewtonShapeCfg(margin=0.01))
    builder = NewtonManager.create_builder()
    for height in (0.3, 0.6, 0.9):
        body = builder.add_body(xform=wp.transform((0.0, 0.0, height), wp.quat_identity()))
        builder.add_shape_box(body, hx=0.1, hy=0.1, hz=0.1)
    with pytest.warns(newton.NewtonWarning) as caught:
        sim.reset()
    zeroed = [str(w.message) for w in caught if "zeroed for NATIVECCD" in str(w.message)]
    assert len(zeroed) == 1
    assert zeroed[0].startswith("3 authored contact margins zeroed")
    assert "use_mujoco_contacts=False" in zeroed[0]


def test_solver_cfgs_name_the_exported_managers():
    """Every solver cfg's class_type resolves to the manager exported from isaaclab_newton.physics."""
    from isaaclab.utils.string import string_to_callable

    import isaaclab_newton.physics as physics

    pairs = {
        "MJWarpSolverCfg": "NewtonMJWarpManager",
        "XPBDSolverCfg": "NewtonXPBDManager",
        "FeatherstoneSolverCfg": "NewtonFeatherstoneManager",
        "SemiImplicitSolverCfg": "NewtonSemiImplicitManager",
        "VBDSolverCfg": "NewtonVBDManager",
        "KaminoSolverCfg": "NewtonKaminoManager",
        "MPMSolverCfg": "NewtonMPMManager",
    }
    for cfg_name, manager_name in pairs.items():
        class_type = physics.NewtonCfg(solver_cfg=getattr(physics, cfg_name)()).class_type
        resolved = string_to_callable(class_type) if isinstance(class_type, str) else class_type
        assert resolved is getattr(physics, manager_name)


def test_load_visual_shapes_false_skips_mjcf_visual_geoms(tmp_path):
    """An MJCF body with one collider and one visual-only geom imports one shape without visuals, two with."""
    import warp as wp

    from isaaclab_newton.cloner.source_builder import import_file_asset
    from isaaclab_newton.sim.spawners import MjcfFileCfg

    path = tmp_path / "visual.xml"
    path.write_text(
        '<mujoco><worldbody><body name="b" pos="0 0 1"><freejoint/><geom type="box" size="0.1 0.1 0.1"/>'
        '<geom type="sphere" size="0.05" contype="0" conaffinity="0" group="1"/></body></worldbody></mujoco>'
    )
    counts = {}
    for visuals in (True, False):
        builder = newton.ModelBuilder()
        spawn = MjcfFileCfg(asset_path=str(path), floating=True)
        import_file_asset(builder, spawn, wp.transform_identity(), load_visual_shapes=visuals)
        counts[visuals] = builder.shape_count
    assert counts == {True: 2, False: 1}


def test_load_visual_shapes_false_rejects_urdf():
    """URDF visuals cannot be skipped by Newton's importer, so the field is rejected by name."""
    import warp as wp

    from isaaclab_newton.cloner.source_builder import import_file_asset
    from isaaclab_newton.sim.spawners import UrdfFileCfg

    spawn = UrdfFileCfg(asset_path="robot.urdf")
    with pytest.raises(ValueError, match="load_visual_shapes=False"):
        import_file_asset(newton.ModelBuilder(), spawn, wp.transform_identity(), load_visual_shapes=False)
