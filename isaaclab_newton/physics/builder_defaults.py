"""Apply :class:`NewtonCfg`'s builder defaults and soft-contact parameters to Newton's builder and model."""

from __future__ import annotations

import dataclasses

import newton

from .newton_manager_cfg import NewtonCfg

_BVH_FIELDS = (
    ("bvh_constructor_geometry", "mesh_constructor"),
    ("bvh_constructor_gaussian", "gaussian_constructor"),
    ("bvh_constructor_scene", "shape_constructor"),
)


def _set_fields(cfg) -> dict[str, object]:
    return {f.name: getattr(cfg, f.name) for f in dataclasses.fields(cfg) if getattr(cfg, f.name) is not None}


def apply_builder_defaults(builder: newton.ModelBuilder, cfg: NewtonCfg) -> None:
    """Write ``cfg.default_shape_cfg`` and the BVH constructor choices on a fresh builder.

    Args:
        builder: A builder before any shape is added.
        cfg: The physics configuration.
    """
    for name, value in _set_fields(cfg.default_shape_cfg).items():
        setattr(builder.default_shape_cfg, name, value)
    for cfg_name, bvh_name in _BVH_FIELDS:
        value = getattr(cfg, cfg_name)
        if value is not None:
            setattr(builder.default_bvh_cfg, bvh_name, value)


def apply_soft_contact(model: newton.Model, cfg: NewtonCfg) -> None:
    """Write the set fields of ``cfg.soft_contact_cfg`` on the finalized model."""
    for name, value in _set_fields(cfg.soft_contact_cfg).items():
        setattr(model, name, float(value))
