"""Rigid object data on Newton: the shared body/root buffers for a single body."""

from __future__ import annotations

from isaaclab.assets.rigid_object.base_rigid_object_data import BaseRigidObjectData

from ..binding import ArticulationBinding
from ..body_data import NewtonBodyDataMixin
from ..unsupported import mark_unsupported


class RigidObjectData(NewtonBodyDataMixin, BaseRigidObjectData):
    """State of one free rigid body in each of N Newton worlds (conventions: :class:`NewtonBodyDataMixin`)."""

    def __init__(self, root_view: None, device: str, binding: ArticulationBinding):
        BaseRigidObjectData.__init__(self, root_view, device)
        self._init_body_buffers(binding, device)

    def update(self, dt: float) -> None:
        """Nothing to do: state-derived buffers are computed when read (``dt`` [s] is unused)."""


mark_unsupported(RigidObjectData, sorted(BaseRigidObjectData.__abstractmethods__))
