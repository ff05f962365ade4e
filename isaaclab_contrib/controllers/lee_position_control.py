"""Lee geometric position controller: (x, y, z, yaw) set points to a multirotor body wrench."""

from __future__ import annotations

import torch
from isaaclab.utils.math import euler_xyz_from_quat, wrap_to_pi

from .lee_velocity_control import LeeVelController


class LeePosController(LeeVelController):
    """Hold world-frame positions and headings with a multirotor, batched over envs.

    The commanded acceleration is ``K_pos * (p_cmd - p) - K_vel * v``; the heading error is closed as a yaw rate
    of ``K_rot_z / K_angvel_z`` times the error, clamped to ``max_yaw_rate``. Everything else is
    :class:`LeeVelController`'s.
    """

    @staticmethod
    def _gain_fields() -> tuple[str, ...]:
        return ("K_pos_range", "K_vel_range", "K_rot_range", "K_angvel_range")

    def compute(self, command: torch.Tensor) -> torch.Tensor:
        """Body-frame wrench (force [N], torque [N m]) for position set points.

        Args:
            command: (x, y, z [m], yaw [rad]) in the world frame, shape (N, 4).

        Returns:
            The wrench about the root body origin, shape (N, 6).
        """
        data = self.robot.data
        pos_err = command[:, :3] - data.root_pos_w.torch
        accel = self.gains["K_pos_range"] * pos_err - self.gains["K_vel_range"] * data.root_lin_vel_w.torch
        _, _, yaw = euler_xyz_from_quat(data.root_link_quat_w.torch)
        ratio = self.gains["K_rot_range"][:, 2] / self.gains["K_angvel_range"][:, 2].clamp(min=1e-9)
        return self._track(accel, ratio * wrap_to_pi(command[:, 3] - yaw))
