"""Helpers shared by the sensor tests."""

from __future__ import annotations

HALF = 0.1


def _author_two_env_boxes(stage) -> None:
    """Env 0: a box resting on the ground slab; env 1: a box 20 m up, falling freely."""
    from pxr import Gf, UsdGeom, UsdPhysics

    UsdGeom.Xform.Define(stage, "/World")
    ground = UsdGeom.Cube.Define(stage, "/World/Ground")
    ground.GetSizeAttr().Set(1.0)
    ground.AddTranslateOp().Set(Gf.Vec3d(0.0, 0.0, -0.5))
    ground.AddScaleOp().Set(Gf.Vec3f(20.0, 20.0, 1.0))
    UsdPhysics.CollisionAPI.Apply(ground.GetPrim())
    for env, z in ((0, HALF), (1, 20.0)):
        UsdGeom.Xform.Define(stage, f"/World/envs/env_{env}")
        box = UsdGeom.Cube.Define(stage, f"/World/envs/env_{env}/Box")
        box.GetSizeAttr().Set(2.0 * HALF)
        box.AddTranslateOp().Set(Gf.Vec3d(3.0 * env, 0.0, z))
        UsdPhysics.RigidBodyAPI.Apply(box.GetPrim())
        UsdPhysics.CollisionAPI.Apply(box.GetPrim())
        UsdPhysics.MassAPI.Apply(box.GetPrim()).GetMassAttr().Set(2.0)
