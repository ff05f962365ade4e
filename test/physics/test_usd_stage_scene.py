"""A scene authored as UsdPhysics prims on the simulation's stage is imported on sim.reset()."""

from __future__ import annotations

import pytest

from isaaclab_newton.physics import MJWarpSolverCfg, NewtonManager, XPBDSolverCfg

from . import scenes


def _author_box_on_ground(stage) -> None:
    """Author a static ground slab (top face at z=0) and an 8 kg, 0.2 m rigid cube centered at z=0.3 m."""
    from pxr import Gf, UsdGeom, UsdPhysics

    UsdGeom.Xform.Define(stage, "/World")
    ground = UsdGeom.Cube.Define(stage, "/World/Ground")
    ground.GetSizeAttr().Set(1.0)
    ground.AddTranslateOp().Set(Gf.Vec3d(0.0, 0.0, -0.5))
    ground.AddScaleOp().Set(Gf.Vec3f(4.0, 4.0, 1.0))
    UsdPhysics.CollisionAPI.Apply(ground.GetPrim())

    box = UsdGeom.Cube.Define(stage, "/World/Box")
    box.GetSizeAttr().Set(2.0 * scenes.BOX_HALF_EXTENT)
    box.AddTranslateOp().Set(Gf.Vec3d(0.0, 0.0, 0.3))
    UsdPhysics.RigidBodyAPI.Apply(box.GetPrim())
    UsdPhysics.CollisionAPI.Apply(box.GetPrim())
    UsdPhysics.MassAPI.Apply(box.GetPrim()).GetMassAttr().Set(8.0)


@pytest.mark.parametrize("solver_cfg", [MJWarpSolverCfg(), XPBDSolverCfg()], ids=["mjwarp", "xpbd"])
def test_usd_box_comes_to_rest_at_half_height(make_sim, solver_cfg):
    """sim.reset() builds the model from the stage; the USD box falls and rests at its half height (2 mm)."""
    sim = make_sim(solver_cfg)
    _author_box_on_ground(sim.stage)
    assert NewtonManager.get_builder() is None
    sim.reset()
    model = NewtonManager.get_model()
    assert model.body_count == 1
    assert abs(float(model.body_mass.numpy()[0]) - 8.0) < 1.0e-4
    assert abs(float(NewtonManager.get_state_0().body_q.numpy()[0, 2]) - 0.3) < 1.0e-6
    for _ in range(360):
        sim.step(render=False)
    height = float(NewtonManager.get_state_0().body_q.numpy()[0, 2])
    assert abs(height - scenes.BOX_HALF_EXTENT) < 2.0e-3, f"box center at {height:.5f} m"
