"""Lee geometric velocity controller: (vx, vy, vz, yaw rate) commands to a multirotor body wrench."""

from __future__ import annotations

from typing import TYPE_CHECKING

import torch
from isaaclab.utils.math import euler_xyz_from_quat

from .lee_attitude import LeeAttitude, check_gain_range

if TYPE_CHECKING:
    from isaaclab_contrib.assets import Multirotor

    from .lee_velocity_control_cfg import LeeVelControllerCfg


class LeeVelController:
    """Track world-frame velocities and a yaw rate with a multirotor, batched over envs.

    The commanded acceleration ``K_vel * (v_cmd - v)`` plus gravity compensation gives the desired force; its
    direction (tilt-limited) and the current heading give the desired attitude, tracked on SO(3) with the
    attitude and rate gains. :meth:`compute` returns the body-frame wrench; allocate it to rotor thrusts with
    :meth:`~isaaclab_contrib.assets.Multirotor.allocate`.

    Args:
        cfg: Gains and limits.
        robot: The multirotor (initialized: after ``sim.reset()``).
        num_envs: Number of envs (rows of the commands).
        device: Torch device.

    Raises:
        ValueError: If a gain range is malformed or negative, a limit is out of range, or ``num_envs`` differs
            from the robot's.
    """

    def __init__(self, cfg: LeeVelControllerCfg, robot: Multirotor, num_envs: int, device: str):
        if num_envs != robot.num_instances:
            raise ValueError(f"num_envs = {num_envs} but the multirotor has {robot.num_instances} instances.")
        for name in self._gain_fields():
            check_gain_range(f"{type(cfg).__name__}.{name}", getattr(cfg, name))
        self.cfg = cfg
        self.robot = robot
        self.num_envs = num_envs
        self.device = device
        self._attitude = LeeAttitude(
            robot, max_inclination_angle_rad=cfg.max_inclination_angle_rad, max_yaw_rate=cfg.max_yaw_rate
        )
        self.gains = {name: torch.zeros((num_envs, 3), device=device) for name in self._gain_fields()}
        self._bounds = {
            name: torch.tensor(getattr(cfg, name), dtype=torch.float32, device=device) for name in self._gain_fields()
        }
        self.reset()

    @staticmethod
    def _gain_fields() -> tuple[str, ...]:
        return ("K_vel_range", "K_rot_range", "K_angvel_range")

    def reset(self, env_ids: torch.Tensor | None = None) -> None:
        """Resample the gains of ``env_ids`` (default: all envs)."""
        rows = torch.arange(self.num_envs, device=self.device) if env_ids is None else env_ids
        for name, gains in self.gains.items():
            low, high = self._bounds[name]
            gains[rows] = low + (high - low) * torch.rand((rows.shape[0], 3), device=self.device)

    def compute(self, command: torch.Tensor) -> torch.Tensor:
        """Body-frame wrench (force [N], torque [N m]) for velocity commands.

        Args:
            command: (vx, vy, vz [m/s], yaw rate [rad/s]) in the world frame, shape (N, 4).

        Returns:
            The wrench about the root body origin, shape (N, 6).
        """
        data = self.robot.data
        accel = self.gains["K_vel_range"] * (command[:, :3] - data.root_lin_vel_w.torch)
        return self._track(accel, command[:, 3])

    def _track(self, accel_w: torch.Tensor, yaw_rate: torch.Tensor) -> torch.Tensor:
        _, _, yaw = euler_xyz_from_quat(self.robot.data.root_link_quat_w.torch)
        force = self._attitude.force_for(accel_w)
        return self._attitude.wrench(force, yaw, yaw_rate, self.gains["K_rot_range"], self.gains["K_angvel_range"])
