"""Builder-wide shape defaults and model-wide soft-contact parameters of :class:`NewtonCfg`."""

from __future__ import annotations

from isaaclab.utils import configclass


@configclass
class NewtonShapeCfg:
    """Defaults of :attr:`newton.ModelBuilder.default_shape_cfg` for shapes imported without authored values.

    Each set field overrides the field of the same name of :class:`newton.ModelBuilder.ShapeConfig`; ``None``
    keeps Newton's default. Values authored on the asset (USD attributes, MJCF/URDF) still win.
    """

    density: float | None = None
    """Density [kg/m^3] used to compute shape mass."""

    ke: float | None = None
    """Contact elastic stiffness [N/m]."""

    kd: float | None = None
    """Contact damping [N s/m]."""

    kf: float | None = None
    """Friction damping [N s/m]."""

    ka: float | None = None
    """Contact adhesion distance [m]."""

    mu: float | None = None
    """Coulomb friction coefficient."""

    restitution: float | None = None
    """Coefficient of restitution."""

    mu_torsional: float | None = None
    """Torsional friction coefficient."""

    mu_rolling: float | None = None
    """Rolling friction coefficient."""

    margin: float | None = None
    """Contact margin [m]: the shape's surface offset outward for contact generation."""

    gap: float | None = None
    """Contact gap [m]: extra distance at which speculative contacts are generated."""


@configclass
class NewtonSoftContactCfg:
    """Particle-shape contact parameters written on :class:`newton.Model` after finalize.

    Each set field overrides the model attribute of the same name; ``None`` keeps Newton's default.
    """

    soft_contact_ke: float | None = None
    """Particle contact elastic stiffness [N/m] (``Model.soft_contact_ke``)."""

    soft_contact_kd: float | None = None
    """Particle contact damping [N s/m] (``Model.soft_contact_kd``)."""

    soft_contact_kf: float | None = None
    """Particle friction damping [N s/m] (``Model.soft_contact_kf``)."""

    soft_contact_mu: float | None = None
    """Particle friction coefficient (``Model.soft_contact_mu``)."""

    soft_contact_restitution: float | None = None
    """Particle contact restitution (``Model.soft_contact_restitution``)."""
