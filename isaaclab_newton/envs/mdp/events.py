"""Newton forms of core's physics randomization events (materials, collider offsets, gravity).

Core's :mod:`isaaclab.envs.mdp.events` picks this module for a ``NewtonCfg`` simulation: its
``randomize_rigid_body_material``, ``randomize_rigid_body_collider_offsets`` and ``randomize_physics_scene_gravity``
terms build the class of the same name here as ``cls(cfg, env)`` and call it with their own arguments. Every class
writes the Newton model rows of the selected envs only (each env is one Newton world with its own shapes) and
notifies the solver of the change.
"""

from __future__ import annotations

from typing import Any, Literal

import newton
import numpy as np
import torch
import warp as wp
from isaaclab.managers import SceneEntityCfg
from isaaclab.utils import math as math_utils

from isaaclab_newton.physics import NewtonManager

_SAMPLERS = {
    "uniform": math_utils.sample_uniform,
    "log_uniform": math_utils.sample_log_uniform,
    "gaussian": math_utils.sample_gaussian,
}


def _sampler(distribution: str):
    if distribution not in _SAMPLERS:
        raise ValueError(f"Unknown distribution {distribution!r}; use one of {sorted(_SAMPLERS)}.")
    return _SAMPLERS[distribution]


def _env_rows(env_ids, num_envs: int, device) -> torch.Tensor:
    """Env selector of an event call as a long tensor (``None`` or a slice: the envs it covers)."""
    if env_ids is None:
        return torch.arange(num_envs, device=device)
    if isinstance(env_ids, slice):
        return torch.arange(num_envs, device=device)[env_ids]
    return torch.as_tensor(env_ids, device=device).to(torch.long).reshape(-1)


def _notify(flags: int) -> None:
    solver = NewtonManager.get_solver()
    if solver is not None:
        solver.notify_model_changed(flags)


class AssetShapes:
    """The Newton shapes of a rigid-body asset per env, and the asset body each one belongs to.

    Args:
        asset: A Newton ``Articulation`` or ``RigidObject`` (initialized).
        body_ids: Body columns of the asset (``SceneEntityCfg.body_ids``: a slice or a list of indices).

    Attributes:
        shapes: Model shape indices (num_envs, S) of the selected bodies' shapes, on the model's device.

    Raises:
        ValueError: If the selected bodies own no collision shape.
    """

    def __init__(self, asset: Any, body_ids):
        model = NewtonManager.get_model()
        shapes = NewtonManager.get_scene_index().find(asset.cfg.prim_path).indices("shape").astype(np.int64)
        shape_body = model.shape_body.numpy()[shapes[0]]
        bodies = asset.root_view.body_indices[0].cpu().numpy()
        columns = np.arange(len(bodies))[body_ids]
        keep = np.isin(shape_body, bodies[columns])
        if not keep.any():
            raise ValueError(
                f"The bodies {[asset.body_names[c] for c in np.atleast_1d(columns)]} of {asset.cfg.prim_path!r} own no"
                " collision shape; select bodies with colliders in asset_cfg.body_names."
            )
        self.shapes = torch.as_tensor(shapes[:, keep], device=str(model.device))

    def write(self, array: wp.array, values: torch.Tensor, rows: torch.Tensor) -> None:
        """``array[shapes[rows]] = values`` (values (len(rows), S))."""
        target = wp.to_torch(array)
        rows = rows.to(target.device)
        target[self.shapes[rows]] = values.to(device=target.device, dtype=target.dtype)


class randomize_rigid_body_material:  # noqa: N801 - core's term name
    """Friction coefficient and restitution per shape and env, sampled uniformly from the given ranges.

    Newton has one friction coefficient per shape (``Model.shape_material_mu``): it is drawn from
    ``static_friction_range``; ``dynamic_friction_range``, ``num_buckets`` and ``make_consistent`` (PhysX's
    material buckets and static/dynamic pair) do not apply and are ignored. Restitution is written to
    ``Model.shape_material_restitution`` (solvers without restitution ignore it).
    """

    def __init__(self, cfg: Any, env: Any):
        asset_cfg: SceneEntityCfg = cfg.params["asset_cfg"]
        self._asset = env.scene[asset_cfg.name]
        if NewtonManager.get_model().shape_material_mu is None:
            raise RuntimeError("The Newton model has no shape materials to randomize.")
        self._shapes = AssetShapes(self._asset, asset_cfg.body_ids)

    def __call__(
        self,
        env: Any,
        env_ids,
        static_friction_range: tuple[float, float],
        dynamic_friction_range: tuple[float, float],
        restitution_range: tuple[float, float],
        num_buckets: int,
        asset_cfg: SceneEntityCfg,
        make_consistent: bool = False,
    ) -> None:
        model = NewtonManager.get_model()
        shapes = self._shapes
        rows = _env_rows(env_ids, env.num_envs, shapes.shapes.device)
        size = (rows.shape[0], shapes.shapes.shape[1])
        device = shapes.shapes.device
        shapes.write(model.shape_material_mu, math_utils.sample_uniform(*static_friction_range, size, device), rows)
        shapes.write(
            model.shape_material_restitution, math_utils.sample_uniform(*restitution_range, size, device), rows
        )
        _notify(newton.ModelFlags.SHAPE_PROPERTIES)


class randomize_rigid_body_collider_offsets:  # noqa: N801 - core's term name
    """Collision margins and gaps per shape and env, set to values drawn from the given distributions.

    PhysX's rest offset is Newton's ``Model.shape_margin`` [m]; its contact offset (where contacts start) is
    margin plus ``Model.shape_gap``, so the gap is written as ``contact_offset - margin``. A property without
    distribution parameters is left unchanged.
    """

    def __init__(self, cfg: Any, env: Any):
        asset_cfg: SceneEntityCfg = cfg.params["asset_cfg"]
        self._asset = env.scene[asset_cfg.name]
        self._shapes = AssetShapes(self._asset, asset_cfg.body_ids)
        _sampler(cfg.params.get("distribution", "uniform"))

    def __call__(
        self,
        env: Any,
        env_ids,
        asset_cfg: SceneEntityCfg,
        rest_offset_distribution_params: tuple[float, float] | None = None,
        contact_offset_distribution_params: tuple[float, float] | None = None,
        distribution: Literal["uniform", "log_uniform", "gaussian"] = "uniform",
    ) -> None:
        if rest_offset_distribution_params is None and contact_offset_distribution_params is None:
            return
        model = NewtonManager.get_model()
        shapes = self._shapes
        device = shapes.shapes.device
        rows = _env_rows(env_ids, env.num_envs, device)
        size = (rows.shape[0], shapes.shapes.shape[1])
        sample = _sampler(distribution)
        margin = wp.to_torch(model.shape_margin)[shapes.shapes[rows]]
        if rest_offset_distribution_params is not None:
            margin = sample(*rest_offset_distribution_params, size, device)
            shapes.write(model.shape_margin, margin, rows)
        if contact_offset_distribution_params is not None:
            contact = sample(*contact_offset_distribution_params, size, device)
            shapes.write(model.shape_gap, (contact - margin).clamp_min(0.0), rows)
        _notify(newton.ModelFlags.SHAPE_PROPERTIES)


class randomize_physics_scene_gravity:  # noqa: N801 - core's term name
    """Gravity per env (Newton world) [m/s^2]: the configured gravity with per-axis random values added, scaled
    or set (``operation``), drawn from ``(lower xyz, upper xyz)`` (or ``(mean xyz, std xyz)`` for ``gaussian``).

    Env ``k`` is Newton world ``k``; ``Model.gravity`` holds one vector per world.
    """

    def __init__(self, cfg: Any, env: Any):
        model = NewtonManager.get_model()
        if model.world_count != env.num_envs:
            raise ValueError(
                f"Gravity is randomized per Newton world, one per env; the model has {model.world_count} worlds for"
                f" {env.num_envs} envs."
            )
        if cfg.params["operation"] not in ("add", "scale", "abs"):
            raise ValueError(f"Unknown gravity operation {cfg.params['operation']!r}; use 'add', 'scale' or 'abs'.")
        _sampler(cfg.params.get("distribution", "uniform"))
        self._default = wp.to_torch(model.gravity).clone()

    def __call__(
        self,
        env: Any,
        env_ids,
        gravity_distribution_params: tuple[list[float], list[float]],
        operation: Literal["add", "scale", "abs"],
        distribution: Literal["uniform", "log_uniform", "gaussian"] = "uniform",
    ) -> None:
        model = NewtonManager.get_model()
        gravity = wp.to_torch(model.gravity)
        rows = _env_rows(env_ids, env.num_envs, gravity.device)
        low, high = (
            torch.as_tensor(p, dtype=torch.float32, device=gravity.device) for p in gravity_distribution_params
        )
        values = _sampler(distribution)(low, high, (rows.shape[0], 3), gravity.device)
        default = self._default[rows]
        if operation == "add":
            values = default + values
        elif operation == "scale":
            values = default * values
        gravity[rows] = values
        _notify(newton.ModelFlags.MODEL_PROPERTIES)
