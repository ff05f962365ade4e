"""Bridge from core's ActuatorCollection to Newton's ``Control`` and model drive gains."""

from __future__ import annotations

from typing import TYPE_CHECKING

from isaaclab.actuators.actuator_control import ArticulationActuatorControl

from ...physics import NewtonManager
from .binding import torch_view

if TYPE_CHECKING:
    from isaaclab.actuators import ActuatorCollection

    from .articulation import Articulation


class NewtonArticulationActuatorControl(ArticulationActuatorControl):
    """Submit processed actuator commands into ``Control``.

    Implicit (PD) groups run inside the solver: their gains live in ``Model.joint_target_ke/kd`` and their
    position/velocity targets go to ``Control.joint_target_q/qd``. Efforts of explicit groups and feed-forward
    efforts go to ``Control.joint_f`` [N or N m]. Explicit actuator models are computed eagerly by the
    collection (in torch) before submission.
    """

    def __init__(self, articulation: Articulation):
        super().__init__(articulation)

    def submit_commands(self, collection: ActuatorCollection) -> None:
        """Copy processed targets and efforts of every env and joint into Newton's ``Control``.

        Args:
            collection: The collection holding processed command buffers.
        """
        control = NewtonManager.get_control()
        bind = self._articulation._binding
        out = collection.output_command
        torch_view(control.joint_target_q)[bind.coord_indices] = out.position.torch
        torch_view(control.joint_target_qd)[bind.dof_indices] = out.velocity.torch
        torch_view(control.joint_f)[bind.dof_indices] = out.effort.torch
