"""Geometric attitude tracking on SO(3) (Lee, Leok, McClamroch 2010), batched over envs in torch.

Shared by the Lee velocity and position controllers: from a desired world-frame force, a heading and a yaw rate
to the collective thrust and body torques of a multirotor.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import torch
from isaaclab.utils.math import matrix_from_quat

from isaaclab_newton.physics import NewtonManager

if TYPE_CHECKING:
    from isaaclab_contrib.assets import Multirotor


def check_gain_range(name: str, bounds) -> None:
    """Raise unless ``bounds`` is ((3 lows), (3 highs)) with 0 <= low <= high."""
    ok = len(bounds) == 2 and all(len(b) == 3 for b in bounds)
    if not ok or any(lo < 0.0 or lo > hi for lo, hi in zip(bounds[0], bounds[1], strict=True)):
        raise ValueError(f"{name} = {bounds} must be ((low x, y, z), (high x, y, z)) with 0 <= low <= high.")


def rigid_body_properties(robot: Multirotor) -> tuple[torch.Tensor, torch.Tensor]:
    """Total mass [kg], shape (N,), and inertia about the total CoM in the root frame [kg m^2], shape (N, 3, 3).

    Read once from the robot's bodies in their current configuration.
    """
    data = robot.data
    mass = data.body_mass.torch
    total = mass.sum(-1)
    com_w = data.body_com_pos_w.torch
    arm = com_w - (mass[..., None] * com_w).sum(1, keepdim=True) / total[:, None, None]
    eye = torch.eye(3, device=mass.device)
    parallel = arm.square().sum(-1)[..., None, None] * eye - arm[..., :, None] * arm[..., None, :]
    inertia_w = data.body_inertia.torch.reshape(*mass.shape, 3, 3) + mass[..., None, None] * parallel
    rot = matrix_from_quat(data.root_link_quat_w.torch)
    inertia = rot.transpose(-1, -2) @ inertia_w.sum(1) @ rot
    return total, inertia


class LeeAttitude:
    """Thrust and torque from a desired force, heading and yaw rate, for one multirotor in N envs.

    Args:
        robot: The multirotor (initialized).
        max_inclination_angle_rad: Largest tilt of the desired force from world +z [rad].
        max_yaw_rate: Largest commanded yaw rate [rad/s].
    """

    def __init__(self, robot: Multirotor, *, max_inclination_angle_rad: float, max_yaw_rate: float):
        if not 0.0 < max_inclination_angle_rad < 0.5 * math.pi:
            raise ValueError(f"max_inclination_angle_rad = {max_inclination_angle_rad} must be in (0, pi/2).")
        if max_yaw_rate < 0.0:
            raise ValueError(f"max_yaw_rate = {max_yaw_rate} must be non-negative.")
        self.robot = robot
        self.mass, self.inertia = rigid_body_properties(robot)
        self.tan_tilt = math.tan(max_inclination_angle_rad)
        self.max_yaw_rate = float(max_yaw_rate)
        self.gravity = torch.tensor(NewtonManager.get_gravity(), dtype=torch.float32, device=self.mass.device)

    def force_for(self, accel_w: torch.Tensor) -> torch.Tensor:
        """World-frame force [N] giving ``accel_w`` [m/s^2] against gravity, tilted at most the inclination limit."""
        force = self.mass[:, None] * (accel_w - self.gravity)
        vertical = force[:, 2].clamp(min=1e-6)
        horizontal = force[:, :2]
        limit = vertical * self.tan_tilt
        scale = (limit / horizontal.norm(dim=-1).clamp(min=1e-9)).clamp(max=1.0)
        return torch.cat((horizontal * scale[:, None], vertical[:, None]), -1)

    def wrench(
        self,
        force_w: torch.Tensor,
        yaw: torch.Tensor,
        yaw_rate: torch.Tensor,
        k_rot: torch.Tensor,
        k_angvel: torch.Tensor,
    ) -> torch.Tensor:
        """Body-frame wrench (0, 0, thrust [N], torque [N m]) tracking ``force_w`` with heading ``yaw`` [rad].

        Args:
            force_w: Desired force in the world frame [N], shape (N, 3).
            yaw: Desired heading [rad], shape (N,).
            yaw_rate: Desired yaw rate [rad/s], shape (N,) (clamped to ``max_yaw_rate``).
            k_rot: Attitude gains [N m/rad], shape (N, 3).
            k_angvel: Angular-rate gains [N m s/rad], shape (N, 3).
        """
        data = self.robot.data
        rot = matrix_from_quat(data.root_link_quat_w.torch)
        omega = data.root_ang_vel_b.torch
        thrust = (force_w * rot[..., 2]).sum(-1)
        b3 = force_w / force_w.norm(dim=-1, keepdim=True)
        heading = torch.stack((torch.cos(yaw), torch.sin(yaw), torch.zeros_like(yaw)), -1)
        b2 = torch.linalg.cross(b3, heading)
        b2 = b2 / b2.norm(dim=-1, keepdim=True).clamp(min=1e-9)
        b1 = torch.linalg.cross(b2, b3)
        rot_des = torch.stack((b1, b2, b3), -1)
        err = rot_des.transpose(-1, -2) @ rot - rot.transpose(-1, -2) @ rot_des
        e_rot = 0.5 * torch.stack((err[:, 2, 1], err[:, 0, 2], err[:, 1, 0]), -1)
        rate_w = torch.zeros_like(force_w)
        rate_w[:, 2] = yaw_rate.clamp(-self.max_yaw_rate, self.max_yaw_rate)
        omega_des = (rot.transpose(-1, -2) @ rate_w[..., None]).squeeze(-1)
        gyro = torch.linalg.cross(omega, (self.inertia @ omega[..., None]).squeeze(-1))
        torque = -k_rot * e_rot - k_angvel * (omega - omega_des) + gyro
        return torch.cat((torch.zeros_like(force_w[:, :2]), thrust[:, None], torque), -1)
