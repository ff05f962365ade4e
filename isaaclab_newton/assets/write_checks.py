"""Shape and dtype checks of values written into Newton assets, raising errors that name the field and the fix.

Every asset writer (joint state, joint properties, root state, targets, efforts, wrenches) passes its value
through :func:`checked_tensor` before touching simulation buffers. The checks are real exceptions, not
``assert`` statements, so ``python -O`` keeps them; nothing is broadcast: a value has exactly the selected
shape, or is a Python scalar where the writer documents that a scalar fills the selection.
"""

from __future__ import annotations

import torch
import warp as wp
from isaaclab.utils.warp import ProxyArray

_WARP_TO_TORCH_TRAILING = {
    wp.float32: (),
    wp.vec2f: (2,),
    wp.vec3f: (3,),
    wp.vec4f: (4,),
    wp.quatf: (4,),
    wp.transformf: (7,),
    wp.spatial_vectorf: (6,),
}


def checked_tensor(
    value: torch.Tensor | wp.array | ProxyArray | float,
    shape: tuple[int, ...],
    *,
    name: str,
    where: str,
    device: str,
    allow_scalar: bool = True,
) -> torch.Tensor | float:
    """Return ``value`` as a float32 torch tensor of exactly ``shape`` on ``device`` (or a Python float).

    Args:
        value: A torch tensor, Warp array (``float32`` or a float32 vector/transform type), a
            :class:`~isaaclab.utils.warp.ProxyArray`, or a Python number.
        shape: The required shape, trailing dimensions included, e.g. ``(num_selected_envs, 7)``.
        name: The keyword the caller passed the value as, e.g. ``"position"``.
        where: The method that received the value, e.g. ``"Articulation.write_joint_position_to_sim_index"``.
        device: The asset's device; tensors are moved there (no dtype conversion).
        allow_scalar: Whether a Python number may fill the whole selection.

    Returns:
        The tensor (a view when already on ``device``), or the number as a ``float``.

    Raises:
        TypeError: If ``value`` is not a tensor/array (or an allowed number), or its dtype is not float32.
        ValueError: If its shape differs from ``shape``.
    """
    if isinstance(value, ProxyArray):
        value = value.warp
    if isinstance(value, bool) or (isinstance(value, (int, float)) and not allow_scalar):
        raise TypeError(
            f"{where}: '{name}' must be a float32 tensor of shape {shape}, got the scalar {value!r}; build the"
            f" tensor explicitly, e.g. torch.full({shape}, value)."
        )
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, wp.array):
        if value.dtype not in _WARP_TO_TORCH_TRAILING:
            raise TypeError(
                f"{where}: '{name}' is a Warp array of dtype {wp.types.type_repr(value.dtype)}; pass wp.float32"
                f" (or a float32 vector type) data of shape {shape}."
            )
        value = wp.to_torch(value)
    if not isinstance(value, torch.Tensor):
        raise TypeError(
            f"{where}: '{name}' must be a torch.Tensor or wp.array of shape {shape}, got {type(value).__name__}."
        )
    if value.dtype != torch.float32:
        raise TypeError(
            f"{where}: '{name}' has dtype {value.dtype}; pass torch.float32 (e.g. '{name}.float()'), values are not"
            " converted silently."
        )
    if tuple(value.shape) != tuple(shape):
        raise ValueError(
            f"{where}: '{name}' must have shape {tuple(shape)} (one row per selected env, one entry per selected"
            f" joint/body), got {tuple(value.shape)}; values are not broadcast, so reshape or expand it explicitly."
        )
    return value.to(device)


def check_selection_size(size: int, limit: int, *, axis: str, where: str, name: str) -> None:
    """Raise a ``ValueError`` when a selection along ``axis`` has more entries than the asset.

    Args:
        size: Number of selected entries.
        limit: Number of entries the asset has along that axis.
        axis: Axis name for the message, e.g. ``"env_ids"``.
        where: The method that received the selection.
        name: The value the selection applies to.
    """
    if size > limit:
        raise ValueError(f"{where}: '{name}' selects {size} {axis} but the asset has {limit}; select at most {limit}.")
