"""Newton / MuJoCo schema fragments author attributes that Newton's importer turns into model values."""

from __future__ import annotations

import numpy as np
import pytest

from isaaclab_newton.physics import MJWarpSolverCfg, NewtonManager


def _author_box(stage, path: str = "/World/Box"):
    """A free 1 kg box collider 1 m up (UsdPhysics rigid body + collision + mass)."""
    from pxr import Gf, UsdGeom, UsdPhysics

    UsdGeom.Xform.Define(stage, "/World")
    box = UsdGeom.Cube.Define(stage, path)
    box.GetSizeAttr().Set(0.2)
    box.AddTranslateOp().Set(Gf.Vec3d(0.0, 0.0, 1.0))
    UsdPhysics.RigidBodyAPI.Apply(box.GetPrim())
    UsdPhysics.CollisionAPI.Apply(box.GetPrim())
    UsdPhysics.MassAPI.Apply(box.GetPrim()).GetMassAttr().Set(1.0)
    return box.GetPrim()


def _apply(fragment, prim) -> None:
    from isaaclab.utils.string import string_to_callable

    func = fragment.func if callable(fragment.func) else string_to_callable(fragment.func)
    assert func(fragment, str(prim.GetPath()), prim.GetStage())


def test_collision_and_body_fragments_reach_the_model(make_sim):
    """NewtonCollisionCfg sets shape margin/gap; MujocoRigidBodyCfg sets MuJoCo's body gravcomp."""
    from isaaclab_newton.sim.schemas import MujocoRigidBodyCfg, NewtonCollisionCfg

    sim = make_sim(MJWarpSolverCfg(use_mujoco_contacts=False))  # MuJoCo's own detection zeroes authored margins
    prim = _author_box(sim.stage)
    _apply(NewtonCollisionCfg(contact_margin=0.01, contact_gap=0.002), prim)
    _apply(MujocoRigidBodyCfg(gravcomp=1.0), prim)
    assert prim.GetAttribute("newton:contactMargin").Get() == pytest.approx(0.01)
    assert prim.GetAttribute("mjc:gravcomp").Get() == pytest.approx(1.0)
    sim.reset()
    model = NewtonManager.get_model()
    np.testing.assert_allclose(model.shape_margin.numpy(), 0.01, rtol=1e-6)
    np.testing.assert_allclose(model.shape_gap.numpy(), 0.002, rtol=1e-6)
    np.testing.assert_allclose(model.mujoco.gravcomp.numpy(), 1.0)


def test_gravcomp_holds_box_against_gravity(make_sim):
    """With mjc:gravcomp = 1 MuJoCo cancels the box's weight: after 0.5 s it has not fallen."""
    from isaaclab_newton.sim.schemas import MujocoRigidBodyCfg

    sim = make_sim(MJWarpSolverCfg())
    _apply(MujocoRigidBodyCfg(gravcomp=1.0), _author_box(sim.stage))
    sim.reset()
    for _ in range(120):
        sim.step(render=False)
    z = float(NewtonManager.get_state_0().body_q.numpy()[0, 2])
    assert z == pytest.approx(1.0, abs=1e-4)


def test_sdf_collision_offsets_map_to_margin_and_gap(make_sim):
    """rest_offset becomes newton:contactMargin and contact_offset - rest_offset newton:contactGap."""
    from isaaclab_newton.sim.schemas import NewtonSDFCollisionPropertiesCfg

    sim = make_sim(MJWarpSolverCfg())
    prim = _author_box(sim.stage)
    _apply(NewtonSDFCollisionPropertiesCfg(rest_offset=0.001, contact_offset=0.005, sdf_max_resolution=64), prim)
    assert "NewtonSDFCollisionAPI" in prim.GetAppliedSchemas()
    assert prim.GetAttribute("newton:contactMargin").Get() == pytest.approx(0.001)
    assert prim.GetAttribute("newton:contactGap").Get() == pytest.approx(0.004)
    assert prim.GetAttribute("newton:sdfMaxResolution").Get() == 64


def test_sdf_collision_rejects_two_gaps(make_sim):
    """Setting both contact_offset and contact_gap is rejected, naming both fields."""
    from isaaclab_newton.sim.schemas import NewtonSDFCollisionPropertiesCfg

    sim = make_sim(MJWarpSolverCfg())
    prim = _author_box(sim.stage)
    with pytest.raises(ValueError, match="contact_offset and contact_gap"):
        _apply(NewtonSDFCollisionPropertiesCfg(contact_offset=0.005, contact_gap=0.005), prim)


def test_deformable_fragment_raises_not_implemented(make_sim):
    """A deformable-body fragment fails when applied: the backend does not simulate deformables."""
    from isaaclab_newton.sim.schemas import NewtonDeformableBodyPropertiesCfg

    sim = make_sim(MJWarpSolverCfg())
    with pytest.raises(NotImplementedError, match="deformable bodies are not supported"):
        _apply(NewtonDeformableBodyPropertiesCfg(), _author_box(sim.stage))


def test_material_fragment_reaches_shape_stiffness(make_sim):
    """NewtonMaterialCfg on a bound physics material sets the collider's contact stiffness and damping."""
    from isaaclab.sim.spawners.materials import spawn_physics_material_from_fragments
    from isaaclab.sim.spawners.materials.physics_materials_cfg import UsdPhysicsRigidBodyMaterialCfg
    from isaaclab.sim.utils import bind_physics_material

    from isaaclab_newton.sim.spawners.materials import NewtonMaterialCfg

    sim = make_sim(MJWarpSolverCfg())
    prim = _author_box(sim.stage)
    fragments = [
        UsdPhysicsRigidBodyMaterialCfg(static_friction=0.7, dynamic_friction=0.7),
        NewtonMaterialCfg(contact_stiffness=2.5e5),
    ]
    spawn_physics_material_from_fragments("/World/Looks/boxMaterial", fragments, stage=sim.stage)
    bind_physics_material(str(prim.GetPath()), "/World/Looks/boxMaterial", stage=sim.stage)
    sim.reset()
    model = NewtonManager.get_model()
    np.testing.assert_allclose(model.shape_material_ke.numpy(), 2.5e5, rtol=1e-6)
    np.testing.assert_allclose(model.shape_material_mu.numpy(), 0.7, rtol=1e-6)
