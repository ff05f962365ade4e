"""What the IMU and the PVA sensor share: a frame at an offset on one body per env, read with ``body_qdd``."""

from __future__ import annotations

from typing import Any, ClassVar

from ..physics.newton_manager import NewtonManager
from .body_lookup import resolve_frame_sensor

BODY_QDD = frozenset({"body_qdd"})
"""The solver observable the frame sensors read (body accelerations of the final substep)."""


class BodyFrameSensor:
    """Mixin placed before Isaac Lab's sensor base (``class Imu(BodyFrameSensor, BaseImu)``).

    On construction it requests ``body_qdd`` from the manager; on initialization it resolves the body (closest body
    ancestor of ``cfg.prim_path``, one per env) and the ``cfg.offset`` frame into ``self._bodies`` and
    ``self._offset``, and allocates the readings of class ``data_class``.
    """

    data_class: ClassVar[type]
    """Class of the readings, built as ``data_class(num_envs, device)``."""

    def __init__(self, cfg: Any):
        """Create the sensor and request ``body_qdd`` from the manager.

        Args:
            cfg: The sensor configuration.
        """
        super().__init__(cfg)
        NewtonManager.request_observables(BODY_QDD)
        self._data = None

    @property
    def data(self):
        """The latest readings (an instance of :attr:`data_class`)."""
        self._update_outdated_buffers()
        return self._data

    def _initialize_impl(self):
        super()._initialize_impl()
        self._bodies, self._offset = resolve_frame_sensor(
            self.cfg, self._num_envs, self._device, what=type(self.cfg).__name__
        )
        self._data = self.data_class(self._num_envs, self._device)
