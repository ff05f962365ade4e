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
        self._targets: tuple | None = None

    def submit_commands(self, collection: ActuatorCollection) -> None:
        """Copy processed targets and efforts of every env and joint into Newton's ``Control``.

        Args:
            collection: The collection holding processed command buffers.
        """
        control = NewtonManager.get_control()
        if self._targets is None or self._targets[0] is not control:
            # torch views of the control arrays, made once per Control (they live as long as the model)
            views = (
                torch_view(control.joint_target_q),
                torch_view(control.joint_target_qd),
                torch_view(control.joint_f),
            )
            self._targets = (control, *views)
        _, target_q, target_qd, joint_f = self._targets
        bind = self._articulation._binding
        out = collection.output_command
        target_q[bind.coord_indices] = out.position.torch
        target_qd[bind.dof_indices] = out.velocity.torch
        joint_f[bind.dof_indices] = out.effort.torch
