"""Batched rotor thrusters: clamped thrust targets, first-order rotor-speed lag, thrust = k * speed**2."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import torch

if TYPE_CHECKING:
    from .thruster_cfg import ThrusterCfg

_RANGES = ("thrust_range", "thrust_const_range", "tau_inc_range", "tau_dec_range")


class Thruster:
    """Motor state of one thruster group in every env, advanced once per physics step.

    The rotor speed is integrated exactly over a step of ``cfg.dt``: ``w <- w* + (w - w*) * exp(-dt / tau)``,
    with ``w* = sqrt(clamp(f_target) / k)`` and ``tau`` the rising or falling time constant, so the response is
    first order for any step length.

    Args:
        cfg: The group's configuration.
        thruster_names: The group's rotor names (one column each).
        default_rotor_speed: Rotor speeds restored on reset, shape (num_envs, num_thrusters).

    Raises:
        ValueError: If a range is not (min <= max), a constant or time constant is not positive, the thrust range is
            negative, ``torque_to_thrust_ratio`` is negative, ``dt`` is not positive or the default speeds have the
            wrong shape.
    """

    def __init__(self, cfg: ThrusterCfg, *, thruster_names: list[str], default_rotor_speed: torch.Tensor):
        _check_cfg(cfg)
        num_envs, count = default_rotor_speed.shape
        if count != len(thruster_names):
            raise ValueError(
                f"ThrusterCfg: default_rotor_speed has {count} columns for {len(thruster_names)} thrusters"
                f" {thruster_names}."
            )
        self.cfg = cfg
        self.thruster_names = list(thruster_names)
        self.default_rotor_speed = default_rotor_speed.clone()
        self.rotor_speed = default_rotor_speed.clone()
        self.thrust = torch.zeros_like(default_rotor_speed)
        self.thrust_const = torch.zeros_like(default_rotor_speed)
        self.tau_inc = torch.zeros_like(default_rotor_speed)
        self.tau_dec = torch.zeros_like(default_rotor_speed)
        self._all = torch.ones(num_envs, dtype=torch.bool, device=default_rotor_speed.device)
        self.reset()

    @property
    def num_thrusters(self) -> int:
        """Number of rotors in the group."""
        return len(self.thruster_names)

    def reset(self, env_mask: torch.Tensor | None = None) -> None:
        """Restore the default rotor speeds and resample the motor constants of the masked envs (default: all)."""
        mask = (self._all if env_mask is None else env_mask)[:, None]
        for buf, bounds in (
            (self.thrust_const, self.cfg.thrust_const_range),
            (self.tau_inc, self.cfg.tau_inc_range),
            (self.tau_dec, self.cfg.tau_dec_range),
        ):
            buf.copy_(torch.where(mask, self._sample(bounds), buf))
        self.rotor_speed.copy_(torch.where(mask, self.default_rotor_speed, self.rotor_speed))
        torch.mul(self.rotor_speed.square(), self.thrust_const, out=self.thrust)

    def default_thrust(self) -> torch.Tensor:
        """Thrust [N] at the default rotor speeds with the current constants, shape (num_envs, num_thrusters)."""
        return self.default_rotor_speed.square() * self.thrust_const

    def compute(self, thrust_target: torch.Tensor) -> torch.Tensor:
        """Advance the rotor speeds one step of ``cfg.dt`` toward ``thrust_target`` [N]; return the thrust [N]."""
        low, high = self.cfg.thrust_range
        target_speed = torch.sqrt(thrust_target.clamp(low, high) / self.thrust_const)
        tau = torch.where(target_speed >= self.rotor_speed, self.tau_inc, self.tau_dec)
        decay = torch.exp(-self.cfg.dt / tau)
        self.rotor_speed.copy_(target_speed + (self.rotor_speed - target_speed) * decay)
        torch.mul(self.rotor_speed.square(), self.thrust_const, out=self.thrust)
        return self.thrust

    def _sample(self, bounds: tuple[float, float]) -> torch.Tensor:
        low, high = bounds
        return low + (high - low) * torch.rand_like(self.rotor_speed)


def _check_cfg(cfg: ThrusterCfg) -> None:
    for name in _RANGES:
        low, high = (float(v) for v in getattr(cfg, name))
        if not (math.isfinite(low) and math.isfinite(high) and low <= high):
            raise ValueError(f"ThrusterCfg.{name} = {getattr(cfg, name)} must be finite (min, max) with min <= max.")
        positive = name != "thrust_range"
        if (positive and low <= 0.0) or low < 0.0:
            need = "positive" if positive else "non-negative"
            raise ValueError(f"ThrusterCfg.{name} = {getattr(cfg, name)} must be {need}.")
    if cfg.torque_to_thrust_ratio < 0.0:
        raise ValueError(
            f"ThrusterCfg.torque_to_thrust_ratio = {cfg.torque_to_thrust_ratio} must be non-negative; the spin"
            " direction goes in MultirotorCfg.rotor_directions."
        )
    if not cfg.dt > 0.0:
        raise ValueError(f"ThrusterCfg.dt = {cfg.dt} must be positive (set it to sim.dt).")
