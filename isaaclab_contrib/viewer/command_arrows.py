"""Velocity-command arrows of the drawn envs: the commanded and the actual planar base velocity."""

from __future__ import annotations

import torch
import warp as wp
from isaaclab.envs.mdp.commands.velocity_command import UniformVelocityCommand

COMMAND_COLOR = (0.1, 0.8, 0.1)
"""Arrow colour of the commanded velocity (linear RGB)."""

VELOCITY_COLOR = (0.1, 0.3, 0.9)
"""Arrow colour of the base's actual velocity (linear RGB)."""


class VelocityCommandArrows:
    """Arrows from above each drawn robot's base: its velocity command and its base velocity, in the world frame.

    An arrow 1 m long stands for 1 m/s. Computed with torch on the env's device from the command term's buffers.

    Args:
        name: The command term's name (the arrows' scene path).
        term: A :class:`UniformVelocityCommand` (commands in the base's heading frame).
        env_ids: The drawn envs (a long tensor on the env's device).
        lift: Height of the arrows above the base [m].
    """

    def __init__(self, name: str, term: UniformVelocityCommand, env_ids: torch.Tensor, *, lift: float = 0.4) -> None:
        self.name = name
        self.term = term
        self.env_ids = env_ids
        self.lift = lift

    @classmethod
    def of_env(cls, env, env_ids: torch.Tensor) -> list[VelocityCommandArrows]:
        """The arrows of every velocity command term of ``env`` (none for an env without a command manager)."""
        manager = getattr(env, "command_manager", None)
        if manager is None:
            return []
        terms = ((name, manager.get_term(name)) for name in manager.active_terms)
        return [cls(name, term, env_ids) for name, term in terms if isinstance(term, UniformVelocityCommand)]

    def segments(self) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """Arrow starts, command arrow ends and velocity arrow ends [m], each (len(env_ids), 3)."""
        data = self.term.robot.data
        start = data.root_pos_w.torch[self.env_ids].clone()
        start[:, 2] += self.lift
        heading = data.heading_w.torch[self.env_ids]
        command = self.term.command[self.env_ids]
        cos, sin = torch.cos(heading), torch.sin(heading)
        command_w = torch.stack(
            (cos * command[:, 0] - sin * command[:, 1], sin * command[:, 0] + cos * command[:, 1], 0.0 * cos), dim=-1
        )
        velocity_w = data.root_lin_vel_w.torch[self.env_ids].clone()
        velocity_w[:, 2] = 0.0
        return start, start + command_w, start + velocity_w

    def draw(self, viewer) -> None:
        """Log both arrow batches into ``viewer`` (a Newton viewer between ``begin_frame`` and ``end_frame``)."""
        start, command_end, velocity_end = (wp.from_torch(x.contiguous(), dtype=wp.vec3) for x in self.segments())
        viewer.log_arrows(f"/commands/{self.name}/command", start, command_end, COMMAND_COLOR)
        viewer.log_arrows(f"/commands/{self.name}/velocity", start, velocity_end, VELOCITY_COLOR)
