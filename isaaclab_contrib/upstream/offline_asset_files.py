"""The USD files of Isaac's asset server that Newton can stand in for, written under one folder.

Paths (relative to the folder, the layout ``isaaclab.utils.assets`` expects under ``ISAACSIM_ASSET_ROOT``):

* :data:`CARTPOLE`: Newton's ``cartpole_single_pendulum.usda`` (a physics-only copy of Isaac Lab's cartpole:
  joints ``slider_to_cart`` and ``cart_to_pole``), default prim fixed, its shapes given display colours
  (:data:`CARTPOLE_COLORS`) so that camera tasks see a coloured cart and pole.
* :data:`GROUND_PLANE`: the ground plane core's ``GroundPlaneCfg`` spawns (an infinite collision plane, a grid
  mesh, a tintable material).
* :data:`ANT`: Newton's ``ant.usda`` (Isaac Sim's ant: torso, legs, feet, joints ``front_left_leg`` ...
  ``right_back_foot``).
* :data:`HUMANOID`: Newton's ``humanoid.usda`` (the MuJoCo humanoid) with the joints renamed to Isaac Sim's names
  (:data:`HUMANOID_JOINT_NAMES`).

:mod:`.offline_cache` writes them once into the cache; ``scripts/tools/make_offline_assets.py --out DIR`` into a
folder of the user's.
"""

from __future__ import annotations

from pathlib import Path

CARTPOLE = "Isaac/IsaacLab/Robots/Classic/Cartpole/cartpole.usd"
GROUND_PLANE = "Isaac/IsaacLab/Environments/Grid/default_ground_plane_checker_v1/default_ground_plane.usda"
ANT = "Isaac/Robots/IsaacSim/Ant/ant_instanceable.usd"
HUMANOID = "Isaac/Robots/IsaacSim/Humanoid/humanoid_instanceable.usd"
OFFLINE_ASSET_FILES = (CARTPOLE, GROUND_PLANE, ANT, HUMANOID)
"""Every file :func:`write_offline_assets` writes, relative to its folder."""

HUMANOID_JOINT_NAMES = {
    "abdomen_x": "pelvis",
    "right_knee": "right_shin",
    "left_knee": "left_shin",
    "right_elbow": "right_lower_arm",
    "left_elbow": "left_lower_arm",
}
"""Joints of Newton's ``humanoid.usda`` renamed to Isaac Sim's humanoid names (each joint after its child body)."""

CARTPOLE_COLORS = {
    "slider/mesh_0": (0.55, 0.55, 0.6),
    "cart/mesh_0": (0.1, 0.35, 0.85),
    "pole/mesh_0": (0.95, 0.5, 0.1),
}
"""``primvars:displayColor`` (linear RGB in [0, 1]) authored on the cartpole's shapes: rail, cart and pole."""


def _copy_robot(
    source: str,
    target: Path,
    root: str,
    *,
    renames: dict[str, str] | None = None,
    colors: dict[str, tuple[float, float, float]] | None = None,
) -> None:
    """Export Newton's example asset ``source`` to ``target`` with ``root`` as its default prim.

    Args:
        source: File name in ``newton.examples`` assets.
        target: File to write.
        root: Name of the robot's root prim, made the default prim.
        renames: Prim paths below the root (e.g. ``"joints/abdomen_x"``) and their new names.
        colors: Prim paths from the layer's root (e.g. ``"cart/mesh_0"``) and the display colour to author there.

    Raises:
        ValueError: If the asset has no prim ``/<root>``, or no prim to rename or to colour.
    """
    import newton.examples
    from pxr import Gf, Sdf, Vt

    layer = Sdf.Layer.FindOrOpen(newton.examples.get_asset(source))
    if layer.GetPrimAtPath(f"/{root}") is None:
        raise ValueError(f"Newton's {source} has no prim /{root}; the offline asset layout needs one.")
    copy = Sdf.Layer.CreateAnonymous(".usda")
    copy.TransferContent(layer)
    copy.defaultPrim = root
    for path, name in (renames or {}).items():
        spec = copy.GetPrimAtPath(f"/{root}/{path}")
        if spec is None:
            raise ValueError(f"Newton's {source} has no prim /{root}/{path} to rename to {name!r}.")
        spec.name = name
    for path, color in (colors or {}).items():
        spec = copy.GetPrimAtPath(f"/{path}")
        if spec is None:
            raise ValueError(f"Newton's {source} has no prim /{path} to colour.")
        attr = Sdf.AttributeSpec(spec, "primvars:displayColor", Sdf.ValueTypeNames.Color3fArray)
        attr.default = Vt.Vec3fArray([Gf.Vec3f(*color)])
    target.parent.mkdir(parents=True, exist_ok=True)
    copy.Export(str(target))


def _write_ground_plane(target: Path) -> None:
    """Author the ground plane asset that ``isaaclab.sim.spawn_ground_plane`` expects.

    Layout: ``/GroundPlane`` (default prim) with ``Environment`` (scaled by the spawner to ``cfg.size``) holding the
    100 m x 100 m ``Geometry`` grid mesh, the infinite ``CollisionPlane`` (``UsdGeom.Plane`` with
    ``PhysicsCollisionAPI``, +Z up) and ``Looks/theGrid`` (material whose ``Shader.inputs:diffuse_tint`` the
    spawner sets from ``cfg.color``).
    """
    from pxr import Gf, Sdf, Usd, UsdGeom, UsdPhysics, UsdShade

    target.parent.mkdir(parents=True, exist_ok=True)
    stage = Usd.Stage.CreateNew(str(target))
    UsdGeom.SetStageUpAxis(stage, UsdGeom.Tokens.z)
    UsdGeom.SetStageMetersPerUnit(stage, 1.0)
    root = UsdGeom.Xform.Define(stage, "/GroundPlane")
    stage.SetDefaultPrim(root.GetPrim())
    env = UsdGeom.Xform.Define(stage, "/GroundPlane/Environment")
    env.AddScaleOp().Set(Gf.Vec3d(1.0, 1.0, 1.0))
    mesh = UsdGeom.Mesh.Define(stage, "/GroundPlane/Environment/Geometry")
    half = 50.0
    mesh.CreatePointsAttr([(-half, -half, 0.0), (half, -half, 0.0), (half, half, 0.0), (-half, half, 0.0)])
    mesh.CreateFaceVertexCountsAttr([4])
    mesh.CreateFaceVertexIndicesAttr([0, 1, 2, 3])
    mesh.CreateNormalsAttr([(0.0, 0.0, 1.0)] * 4)
    mesh.CreateExtentAttr([(-half, -half, 0.0), (half, half, 0.0)])
    st = UsdGeom.PrimvarsAPI(mesh).CreatePrimvar("st", Sdf.ValueTypeNames.TexCoord2fArray, UsdGeom.Tokens.vertex)
    st.Set([(-25.0, -25.0), (25.0, -25.0), (25.0, 25.0), (-25.0, 25.0)])
    plane = UsdGeom.Plane.Define(stage, "/GroundPlane/CollisionPlane")
    plane.CreateAxisAttr(UsdGeom.Tokens.z)
    plane.CreatePurposeAttr(UsdGeom.Tokens.guide)
    UsdPhysics.CollisionAPI.Apply(plane.GetPrim())
    material = UsdShade.Material.Define(stage, "/GroundPlane/Looks/theGrid")
    shader = UsdShade.Shader.Define(stage, "/GroundPlane/Looks/theGrid/Shader")
    shader.CreateIdAttr("UsdPreviewSurface")
    shader.CreateInput("diffuseColor", Sdf.ValueTypeNames.Color3f).Set(Gf.Vec3f(0.5, 0.5, 0.5))
    shader.CreateInput("diffuse_tint", Sdf.ValueTypeNames.Color3f).Set(Gf.Vec3f(1.0, 1.0, 1.0))
    material.CreateSurfaceOutput().ConnectToSource(shader.ConnectableAPI(), "surface")
    UsdShade.MaterialBindingAPI.Apply(mesh.GetPrim()).Bind(material)
    stage.GetRootLayer().Save()


def write_offline_assets(out: Path) -> list[Path]:
    """Write :data:`OFFLINE_ASSET_FILES` under ``out`` and return their paths.

    Args:
        out: Folder to write (laid out like the asset server's root, the folder that holds ``Isaac/``).

    Raises:
        ValueError: If one of Newton's assets lacks a prim the layout needs.
    """
    out = Path(out).expanduser().resolve()
    _copy_robot("cartpole_single_pendulum.usda", out / CARTPOLE, "cartpole", colors=CARTPOLE_COLORS)
    _write_ground_plane(out / GROUND_PLANE)
    _copy_robot("ant.usda", out / ANT, "ant")
    renames = {f"joints/{old}": new for old, new in HUMANOID_JOINT_NAMES.items()}
    _copy_robot("humanoid.usda", out / HUMANOID, "nv_humanoid", renames=renames)
    return [out / path for path in OFFLINE_ASSET_FILES]
