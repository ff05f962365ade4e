"""Multirotor action terms: direct rotor thrusts, and velocity commands through a Lee velocity controller."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import torch
from isaaclab.managers.action_manager import ActionTerm
from isaaclab.utils.math import euler_xyz_from_quat
from isaaclab.utils.string import resolve_matching_names_values

if TYPE_CHECKING:
    from isaaclab.envs import ManagerBasedEnv

    from ..assets import Multirotor
    from .thrust_actions_cfg import NavigationActionCfg, ThrustActionCfg


class ThrustAction(ActionTerm):
    """Set the multirotor's thrust targets [N] from the actions every physics step."""

    cfg: ThrustActionCfg
    _asset: Multirotor

    def __init__(self, cfg: ThrustActionCfg, env: ManagerBasedEnv):
        super().__init__(cfg, env)
        self._ids, self._names = self._asset.find_thrusters(cfg.thruster_names_expr, cfg.preserve_order)
        self._ids_t = torch.tensor(self._ids, dtype=torch.long, device=self.device)
        shape = (self.num_envs, len(self._ids))
        self._raw = torch.zeros(shape, device=self.device)
        self._processed = torch.zeros(shape, device=self.device)
        self._scale = self._per_thruster(cfg.scale, "scale")
        if cfg.use_default_offset:
            self._offset = self._asset.data.thrust_target.torch[:, self._ids_t].clone()
        else:
            self._offset = self._per_thruster(cfg.offset, "offset")
        self._clip = torch.tensor([-torch.inf, torch.inf], device=self.device).repeat(len(self._ids), 1)
        if cfg.clip is not None:
            ids, _, values = resolve_matching_names_values(cfg.clip, self._names)
            self._clip[ids] = torch.tensor(values, dtype=torch.float32, device=self.device)

    def _per_thruster(self, value: float | dict[str, float], name: str) -> torch.Tensor:
        if isinstance(value, (int, float)):
            return torch.full((len(self._ids),), float(value), device=self.device)
        if not isinstance(value, dict):
            raise TypeError(f"ThrustActionCfg.{name} must be a float or a dict of thruster expressions, not {value!r}.")
        out = torch.zeros(len(self._ids), device=self.device)
        ids, _, values = resolve_matching_names_values(value, self._names)
        out[ids] = torch.tensor(values, dtype=torch.float32, device=self.device)
        return out

    @property
    def action_dim(self) -> int:
        """One action per driven thruster."""
        return len(self._ids)

    @property
    def raw_actions(self) -> torch.Tensor:
        """The last actions, shape (num_envs, action_dim)."""
        return self._raw

    @property
    def processed_actions(self) -> torch.Tensor:
        """The thrust targets [N], shape (num_envs, action_dim)."""
        return self._processed

    def process_actions(self, actions: torch.Tensor) -> None:
        """Scale, offset and clip the actions into thrust targets."""
        self._raw.copy_(actions)
        value = actions * self._scale + self._offset
        self._processed.copy_(torch.clamp(value, self._clip[:, 0], self._clip[:, 1]))

    def apply_actions(self) -> None:
        """Write the thrust targets to the multirotor."""
        self._asset.set_thrust_target(self._processed, thruster_ids=self._ids_t)

    def reset(self, env_ids: Sequence[int] | None = None) -> None:
        """Zero the raw actions of ``env_ids``."""
        self._raw[slice(None) if env_ids is None else env_ids] = 0.0


class NavigationAction(ActionTerm):
    """Velocity and yaw-rate commands from three actions, tracked with a Lee velocity controller (see the cfg).

    :attr:`prev_commands` holds the last commands (vx, vy, vz [m/s] in the yaw-aligned frame, yaw rate [rad/s]).
    Every physics step the command is rotated by the current heading into the world frame, the controller gives
    the body wrench, and :meth:`~isaaclab_contrib.assets.Multirotor.allocate` the (non-negative) thrust targets.
    """

    cfg: NavigationActionCfg
    _asset: Multirotor

    def __init__(self, cfg: NavigationActionCfg, env: ManagerBasedEnv):
        for name in ("preserve_order", "use_default_offset"):
            if getattr(cfg, name):
                raise ValueError(f"NavigationActionCfg.{name} does not apply to velocity commands; leave it False.")
        super().__init__(cfg, env)
        self._raw = torch.zeros((self.num_envs, 3), device=self.device)
        self._commands = torch.zeros((self.num_envs, 4), device=self.device)
        self._controller = cfg.controller_cfg.class_type(cfg.controller_cfg, self._asset, self.num_envs, self.device)

    @property
    def action_dim(self) -> int:
        """Speed, climb angle and yaw rate."""
        return 3

    @property
    def raw_actions(self) -> torch.Tensor:
        """The last actions, shape (num_envs, 3)."""
        return self._raw

    @property
    def processed_actions(self) -> torch.Tensor:
        """The commands (vx, vy, vz [m/s] yaw-aligned, yaw rate [rad/s]), shape (num_envs, 4)."""
        return self._commands

    @property
    def prev_commands(self) -> torch.Tensor:
        """The last commands, as :attr:`processed_actions`."""
        return self._commands

    def process_actions(self, actions: torch.Tensor) -> None:
        """Map the actions to velocity and yaw-rate commands."""
        self._raw.copy_(actions)
        cfg = self.cfg
        a = torch.clamp(actions * cfg.scale + cfg.offset, -1.0, 1.0)
        speed = 0.5 * (a[:, 0] + 1.0) * cfg.max_magnitude
        climb = a[:, 1] * cfg.max_inclination_angle
        self._commands[:, 0] = speed * torch.cos(climb)
        self._commands[:, 1] = 0.0
        self._commands[:, 2] = speed * torch.sin(climb)
        self._commands[:, 3] = a[:, 2] * cfg.max_yaw_command

    def apply_actions(self) -> None:
        """Track the commands: controller wrench, allocated to thrust targets."""
        _, _, yaw = euler_xyz_from_quat(self._asset.data.root_link_quat_w.torch)
        cos, sin = torch.cos(yaw), torch.sin(yaw)
        vx, vy = self._commands[:, 0], self._commands[:, 1]
        world = torch.stack((cos * vx - sin * vy, sin * vx + cos * vy, self._commands[:, 2], self._commands[:, 3]), -1)
        thrust = self._asset.allocate(self._controller.compute(world)).clamp(min=0.0)
        self._asset.set_thrust_target(thrust)

    def reset(self, env_ids: Sequence[int] | None = None) -> None:
        """Zero the actions and commands of ``env_ids`` and resample their controller gains."""
        rows = slice(None) if env_ids is None else env_ids
        self._raw[rows] = 0.0
        self._commands[rows] = 0.0
        ids = None if env_ids is None else torch.as_tensor(env_ids, dtype=torch.long, device=self.device)
        self._controller.reset(ids)
