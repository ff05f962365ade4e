"""Appliers of the Newton schema fragments whose fields do not map one-to-one onto USD attributes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from isaaclab.sim.schemas import apply_namespaced
from isaaclab.sim.utils import get_current_stage, safe_set_attribute_on_usd_prim

if TYPE_CHECKING:
    from pxr import Usd

    from .schemas_cfg import MujocoFixedTendonCfg, NewtonDeformableBodyPropertiesCfg, NewtonSDFCollisionPropertiesCfg

_SDF_FIELDS = ("sdf_max_resolution", "sdf_target_voxel_size", "sdf_narrow_band_inner", "sdf_narrow_band_outer")


def _prim(prim_path: str, stage: Usd.Stage | None) -> Usd.Prim:
    stage = get_current_stage() if stage is None else stage
    prim = stage.GetPrimAtPath(prim_path)
    if not prim.IsValid():
        raise ValueError(f"Prim path '{prim_path}' is not valid.")
    return prim


def apply_newton_sdf_collision(cfg: NewtonSDFCollisionPropertiesCfg, prim_path: str, stage=None) -> bool:
    """Apply ``NewtonSDFCollisionAPI`` and write margin, gap and SDF settings on a collider prim.

    Raises:
        ValueError: If both ``contact_offset`` and ``contact_gap`` are set (two values for one gap), or if
            ``contact_offset`` is below ``rest_offset``.
    """
    prim = _prim(prim_path, stage)
    if cfg.contact_offset is not None and cfg.contact_gap is not None:
        raise ValueError(
            f"NewtonSDFCollisionPropertiesCfg on {prim_path!r} sets both contact_offset and contact_gap, which both"
            " define newton:contactGap: keep one (contact_gap = contact_offset - rest_offset)."
        )
    margin = cfg.rest_offset
    gap = cfg.contact_gap
    if cfg.contact_offset is not None:
        gap = cfg.contact_offset - (margin or 0.0)
        if gap < 0.0:
            raise ValueError(
                f"NewtonSDFCollisionPropertiesCfg on {prim_path!r}: contact_offset ({cfg.contact_offset}) must not be"
                f" below rest_offset ({margin})."
            )
    if "NewtonSDFCollisionAPI" not in prim.GetAppliedSchemas():
        prim.AddAppliedSchema("NewtonSDFCollisionAPI")
    writes = {"newton:contactMargin": margin, "newton:contactGap": gap}
    writes.update({f"newton:{_camel(name)}": getattr(cfg, name) for name in _SDF_FIELDS})
    for attr, value in writes.items():
        if value is not None:
            safe_set_attribute_on_usd_prim(prim, attr, value, camel_case=False)
    return True


def apply_mujoco_fixed_tendon(cfg: MujocoFixedTendonCfg, prim_path: str, stage=None) -> bool:
    """Write the set fields on an ``MjcTendon`` prim; other tendon prims are left to their backend.

    Returns:
        Whether the prim is an ``MjcTendon`` (and was tuned).
    """
    prim = _prim(prim_path, stage)
    if prim.GetTypeName() != "MjcTendon":
        return False
    return apply_namespaced(cfg, prim_path, prim.GetStage())


def reject_newton_deformable(cfg: NewtonDeformableBodyPropertiesCfg, prim_path: str, stage=None) -> bool:
    """Refuse to author a deformable body: the Newton backend does not simulate Isaac Lab deformables yet."""
    raise NotImplementedError(
        f"NewtonDeformableBodyPropertiesCfg on {prim_path!r}: deformable bodies are not supported by the"
        " isaaclab_newton backend yet. Remove the deformable object from the scene."
    )


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.capitalize() for part in rest)
