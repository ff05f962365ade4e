"""Schema fragments writing Newton's ``newton:*`` and MuJoCo's ``mjc:*`` USD attributes.

Core's spawners apply each fragment in its slot (``rigid_props``, ``collision_props``, ``joint_drive_props``,
``articulation_props``, ``mesh_collision_props``, ``fixed_tendons_props``, ``deformable_props``) through the
fragment's ``func``; the default applier authors every set field as ``<namespace>:<camelCase(field)>``. Newton's
USD importer reads those attributes when the stage is imported into the model (the ``mjc:*`` ones through the
custom attributes :class:`newton.solvers.SolverMuJoCo` registers).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from isaaclab.sim.schemas.schemas_cfg import (
    ArticulationRootFragment,
    CollisionFragment,
    DeformableBodyFragment,
    FixedTendonFragment,
    JointDriveFragment,
    MeshCollisionBaseCfg,
    MeshCollisionFragment,
    RigidBodyFragment,
)
from isaaclab.utils import configclass


@configclass
class NewtonArticulationCfg(ArticulationRootFragment):
    """``newton:*`` articulation-root attributes (``NewtonArticulationRootAPI``).

    Core's articulation-root writer authors each set field as ``newton:<camelCase(field)>`` on the
    articulation root prim; Newton's USD importer reads them. The offline file spawners of
    :mod:`isaaclab_newton.sim.spawners` read the same fields directly.
    """

    _usd_namespace: ClassVar[str | None] = "newton"
    _usd_applied_schema: ClassVar[str | None] = "NewtonArticulationRootAPI"

    self_collision_enabled: bool | None = None
    """Whether bodies of the same articulation collide with each other. ``None`` keeps the file's setting."""


@configclass
class NewtonCollisionCfg(CollisionFragment):
    """``newton:*`` collider attributes: contact margin and gap of every collision shape of the prim."""

    _usd_namespace: ClassVar[str | None] = "newton"
    _usd_applied_schema: ClassVar[str | None] = "NewtonCollisionAPI"

    contact_margin: float | None = None
    """Surface offset [m] of the shape for contact generation (``newton:contactMargin`` -> ``shape_margin``)."""

    contact_gap: float | None = None
    """Extra distance [m] at which contacts are generated (``newton:contactGap`` -> ``shape_gap``)."""


@configclass
class NewtonMeshCollisionCfg(MeshCollisionFragment):
    """``newton:*`` mesh-collider cooking attributes (``NewtonMeshCollisionAPI``), convex-hull approximation."""

    _usd_namespace: ClassVar[str | None] = "newton"
    _usd_applied_schema: ClassVar[str | None] = "NewtonMeshCollisionAPI"

    mesh_approximation_name: str = "convexHull"
    """``physics:approximation`` token written with the fragment (e.g. ``"convexHull"``, ``"none"``)."""

    max_hull_vertices: int | None = None
    """Vertex cap of the convex hull (``newton:maxHullVertices``; -1 = no cap)."""


@configclass
class NewtonSDFCollisionPropertiesCfg(CollisionFragment):
    """Signed-distance-field collider (``NewtonSDFCollisionAPI``) with Newton's contact margin and gap.

    ``rest_offset`` is the shape's rest separation, i.e. Newton's contact margin; ``contact_offset`` is the
    distance at which contacts start, i.e. margin + gap. Set either ``contact_offset`` or ``contact_gap``.
    """

    _usd_namespace: ClassVar[str | None] = "newton"
    _usd_applied_schema: ClassVar[str | None] = "NewtonSDFCollisionAPI"

    func: Callable | str = "{DIR}.schemas:apply_newton_sdf_collision"

    rest_offset: float | None = None
    """Rest separation [m] (written as ``newton:contactMargin``)."""

    contact_offset: float | None = None
    """Contact generation distance [m] from the surface (``newton:contactGap = contact_offset - rest_offset``)."""

    contact_gap: float | None = None
    """Extra contact distance [m] beyond the margin (``newton:contactGap``)."""

    sdf_max_resolution: int | None = None
    """Maximum SDF grid resolution per axis (``newton:sdfMaxResolution``)."""

    sdf_target_voxel_size: float | None = None
    """Target SDF voxel size [m] (``newton:sdfTargetVoxelSize``; exclusive with ``sdf_max_resolution``)."""

    sdf_narrow_band_inner: float | None = None
    """Inner narrow-band distance [m] of the SDF (``newton:sdfNarrowBandInner``)."""

    sdf_narrow_band_outer: float | None = None
    """Outer narrow-band distance [m] of the SDF (``newton:sdfNarrowBandOuter``)."""


@configclass
class MujocoCollisionCfg(CollisionFragment):
    """``mjc:*`` geom attributes read by MuJoCo: collision margin and gap."""

    _usd_namespace: ClassVar[str | None] = "mjc"
    _usd_applied_schema: ClassVar[str | None] = "MjcCollisionAPI"

    margin: float | None = None
    """Distance [m] at which contacts become active (``mjc:margin``)."""

    gap: float | None = None
    """Contacts within ``margin - gap`` are generated but inactive (``mjc:gap``) [m]."""


@configclass
class MujocoRigidBodyCfg(RigidBodyFragment):
    """``mjc:*`` body attributes read by MuJoCo."""

    _usd_namespace: ClassVar[str | None] = "mjc"
    _usd_applied_schema: ClassVar[str | None] = "MjcBodyAPI"

    gravcomp: float | None = None
    """Fraction of the body's weight cancelled by a gravity-compensation force (``mjc:gravcomp``; 1 = all)."""


@configclass
class MujocoJointCfg(JointDriveFragment):
    """``mjc:*`` joint attributes read by MuJoCo."""

    _usd_namespace: ClassVar[str | None] = "mjc"
    _usd_applied_schema: ClassVar[str | None] = "MjcJointAPI"

    actuatorgravcomp: bool | None = None
    """Apply the gravity compensation of :class:`MujocoRigidBodyCfg` through the joint's actuator
    (``mjc:actuatorgravcomp``) instead of as a passive force."""

    armature: float | None = None
    """Armature inertia added to the joint [kg m^2] (``mjc:armature``)."""

    frictionloss: float | None = None
    """Dry friction of the joint [N m] (``mjc:frictionloss``)."""


@configclass
class MujocoFixedTendonCfg(FixedTendonFragment):
    """``mjc:*`` attributes of the ``MjcTendon`` prims (MuJoCo fixed tendons) already on the asset."""

    _usd_namespace: ClassVar[str | None] = "mjc"
    _usd_applied_schema: ClassVar[str | None] = None

    func: Callable | str = "{DIR}.schemas:apply_mujoco_fixed_tendon"

    stiffness: float | None = None
    """Tendon spring stiffness [N/m] (``mjc:stiffness``)."""

    damping: float | None = None
    """Tendon damping [N s/m] (``mjc:damping``)."""

    frictionloss: float | None = None
    """Tendon dry friction [N] (``mjc:frictionloss``)."""

    armature: float | None = None
    """Tendon armature inertia [kg] (``mjc:armature``)."""

    margin: float | None = None
    """Distance [m] at which the tendon limit becomes active (``mjc:margin``)."""


@configclass
class NewtonDeformableBodyPropertiesCfg(DeformableBodyFragment):
    """Deformable body on Newton. Not supported by this backend: applying it raises when the scene is spawned."""

    _usd_namespace: ClassVar[str | None] = "newton"
    _usd_applied_schema: ClassVar[str | None] = None

    func: Callable | str = "{DIR}.schemas:reject_newton_deformable"


@configclass
class NewtonMeshCollisionPropertiesCfg(MeshCollisionBaseCfg):
    """Newton mesh-collider cooking for core's legacy ``CollisionPropertiesCfg.mesh_collision_property`` slot.

    Core forwards ``isaaclab.sim.NewtonMeshCollisionPropertiesCfg`` here. Its legacy writer authors
    ``physics:approximation`` from :attr:`mesh_approximation_name` and the fields below as ``newton:*``.
    New configurations use :class:`NewtonMeshCollisionCfg` in the ``mesh_collision_props`` slot.
    """

    _usd_applied_schema: ClassVar[str | None] = "NewtonMeshCollisionAPI"
    _usd_namespace: ClassVar[str | None] = "newton"

    max_hull_vertices: int | None = None
    """Vertex cap of the convex hull (``newton:maxHullVertices``; -1 = no cap)."""
