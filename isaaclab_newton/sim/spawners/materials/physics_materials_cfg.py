"""Newton physics-material configurations for Isaac Lab spawners."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from isaaclab.sim.spawners.materials.physics_materials_cfg import (
    DeformableBodyMaterialBaseCfg,
    RigidBodyMaterialFragment,
    SurfaceDeformableBodyMaterialBaseCfg,
)
from isaaclab.utils import configclass


@configclass
class NewtonMaterialCfg(RigidBodyMaterialFragment):
    """``newton:*`` contact attributes of a rigid-body material prim (``NewtonMaterialAPI``).

    Newton's USD importer gives every shape bound to the material these contact parameters. Pass it in the
    spawner's ``physics_material`` slot next to :class:`~isaaclab.sim.spawners.materials.UsdPhysicsRigidBodyMaterialCfg`
    (which carries friction and restitution).
    """

    _usd_namespace: ClassVar[str | None] = "newton"
    _usd_applied_schema: ClassVar[str | None] = "NewtonMaterialAPI"

    contact_stiffness: float | None = None
    """Contact elastic stiffness [N/m] (``newton:contactStiffness`` -> ``shape_material_ke``)."""

    contact_damping: float | None = None
    """Contact damping [N s/m] (``newton:contactDamping`` -> ``shape_material_kd``)."""

    contact_friction_gain: float | None = None
    """Friction damping [N s/m] (``newton:contactFrictionGain`` -> ``shape_material_kf``)."""

    contact_adhesion: float | None = None
    """Adhesion distance [m] (``newton:contactAdhesion`` -> ``shape_material_ka``)."""

    torsional_friction: float | None = None
    """Torsional friction coefficient (``newton:torsionalFriction``)."""

    rolling_friction: float | None = None
    """Rolling friction coefficient (``newton:rollingFriction``)."""


@configclass
class NewtonDeformableBodyMaterialCfg(DeformableBodyMaterialBaseCfg):
    """Volume-deformable material on Newton. Not supported by this backend: spawning it raises."""

    func: Callable | str = "{DIR}.physics_materials:reject_newton_deformable_material"

    density: float | None = None
    """Density [kg/m^3]."""

    k_mu: float | None = None
    """First Lame parameter (shear) [Pa]."""

    k_lambda: float | None = None
    """Second Lame parameter [Pa]."""

    k_damp: float | None = None
    """Damping stiffness."""

    particle_radius: float | None = None
    """Radius of the simulation particles [m]."""


@configclass
class NewtonSurfaceDeformableBodyMaterialCfg(SurfaceDeformableBodyMaterialBaseCfg):
    """Surface-deformable (cloth) material on Newton. Not supported by this backend: spawning it raises."""

    func: Callable | str = "{DIR}.physics_materials:reject_newton_deformable_material"

    density: float | None = None
    """Areal density [kg/m^2]."""

    particle_radius: float | None = None
    """Radius of the simulation particles [m]."""

    tri_ke: float | None = None
    """Triangle elastic stiffness [Pa]."""

    tri_ka: float | None = None
    """Triangle area stiffness [Pa]."""

    tri_kd: float | None = None
    """Triangle damping."""

    edge_ke: float | None = None
    """Bending stiffness [N m]."""

    edge_kd: float | None = None
    """Bending damping."""
