"""Newton sensors driven by the manager's solver observables.

A bridge builds one :mod:`newton.sensors` sensor when the model is ready, requests the sensor's
``solver_observable_kinds`` through :meth:`NewtonManager.request_observables` before the solver is
initialized, and updates the sensor after every :meth:`NewtonManager.step` from
:meth:`NewtonManager.get_observables`. A hard reset rebuilds the sensor on the new model; the
request persists, so the re-allocated container still holds its kinds.

Create bridges after the :class:`~isaaclab.sim.SimulationContext` exists and before ``sim.reset()``
(like Isaac Lab sensors), or from a ``PhysicsEvent.PHYSICS_READY`` callback, and keep a reference to them:
the manager holds their event callbacks through weak references.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any

import newton
import warp as wp
from isaaclab.physics import PhysicsEvent

from .newton_manager import NewtonManager

_ORDER = 10
"""Callback order on PHYSICS_READY / STOP, the same slot Isaac Lab's assets and sensors use."""


class ObservableSensorBridge(ABC):
    """Builds a Newton sensor on each model and updates it from the manager's observables after each step.

    Subclasses create the sensor in :meth:`_create_sensor` (with the legacy ``request_*_attributes`` set to
    ``False``) and read it in :meth:`_update_sensor`.
    """

    def __init__(self, *, every_substep: bool = False):
        """Register the bridge with the manager.

        Args:
            every_substep: Request the sensor's kinds on every substep instead of only the final one (the
                sensor still updates once per step, from the last substep's values).

        Raises:
            RuntimeError: If the solver already exists; the container could not hold the sensor's kinds.
        """
        if NewtonManager._sim is None:
            raise RuntimeError(
                f"{type(self).__name__} needs a SimulationContext with NewtonCfg physics: create the context first,"
                " then the sensor, then call sim.reset()."
            )
        if NewtonManager.get_solver() is not None:
            raise RuntimeError(
                f"{type(self).__name__} was created after sim.reset(); its observables cannot be added to a running"
                " solver. Create it before sim.reset() (or hard-reset with sim.reset() after creating it)."
            )
        self._every_substep = bool(every_substep)
        self._sensor: Any = None
        self._remove_update: Callable[[], None] | None = None
        self._handles = [
            NewtonManager.register_callback(self._on_physics_ready, PhysicsEvent.PHYSICS_READY, order=_ORDER),
            NewtonManager.register_callback(self._on_stop, PhysicsEvent.STOP, order=_ORDER),
        ]
        model = NewtonManager.get_model()
        if model is not None:
            self._on_physics_ready(model)

    @property
    def sensor(self) -> Any:
        """The Newton sensor built on the current model.

        Raises:
            RuntimeError: Before ``sim.reset()`` built the model.
        """
        if self._sensor is None:
            raise RuntimeError(f"{type(self).__name__} has no sensor yet: call sim.reset() to build the model first.")
        return self._sensor

    @property
    def is_built(self) -> bool:
        """Whether the sensor exists on the current model."""
        return self._sensor is not None

    def close(self) -> None:
        """Stop updating and unregister from the manager."""
        self._on_stop(None)
        for handle in self._handles:
            handle.deregister()
        self._handles = []

    @abstractmethod
    def _create_sensor(self, model: newton.Model) -> Any:
        """Build the Newton sensor on ``model`` (without legacy attribute requests)."""

    @abstractmethod
    def _update_sensor(self, observables: newton.solvers.SolverBase.Observables) -> None:
        """Update the sensor from the container after a step."""

    def _on_physics_ready(self, model: newton.Model) -> None:
        sensor = self._create_sensor(model)
        NewtonManager.request_observables(sensor.solver_observable_kinds, every_substep=self._every_substep)
        self._sensor = sensor
        if self._remove_update is None:
            self._remove_update = NewtonManager.register_sensor_update(self._on_step)

    def _on_stop(self, _payload: Any) -> None:
        if self._remove_update is not None:
            self._remove_update()
            self._remove_update = None
        self._sensor = None

    def _on_step(self, _dt: float) -> None:
        observables = NewtonManager.get_observables()
        if observables is None:
            raise RuntimeError(
                f"{type(self).__name__}: the manager allocated no observables although the sensor requested"
                f" {sorted(self._sensor.solver_observable_kinds)}; was the request dropped by NewtonManager.clear()?"
            )
        self._update_sensor(observables)


class ImuBridge(ObservableSensorBridge):
    """:class:`newton.sensors.SensorIMU` on model sites, fed with ``BODY_QDD``.

    The accelerometer reads specific force (``a - g``) in the site frame, so a body at rest reads
    about +9.81 m/s^2 along the site's up axis.
    """

    def __init__(self, sites: str | list[str] | list[int], *, every_substep: bool = False):
        """Create the bridge.

        Args:
            sites: Site label pattern(s) or indices (see :class:`newton.sensors.SensorIMU`).
            every_substep: Request ``BODY_QDD`` on every substep instead of only the final one.
        """
        self._sites = sites
        super().__init__(every_substep=every_substep)

    @property
    def accelerometer(self) -> wp.array:
        """Specific force [m/s^2] per site, in the site frame, shape ``(num_sites,)``."""
        return self.sensor.accelerometer

    @property
    def gyroscope(self) -> wp.array:
        """Angular velocity [rad/s] per site, in the site frame, shape ``(num_sites,)``."""
        return self.sensor.gyroscope

    def _create_sensor(self, model: newton.Model) -> newton.sensors.SensorIMU:
        return newton.sensors.SensorIMU(model, sites=self._sites, request_state_attributes=False)

    def _update_sensor(self, observables: newton.solvers.SolverBase.Observables) -> None:
        self._sensor.update(NewtonManager.get_state_0(), observables=observables)


class ContactSensorBridge(ObservableSensorBridge):
    """:class:`newton.sensors.SensorContact` fed with ``CONTACT_F`` (rigid-rigid contacts).

    Exactly one of ``sensing_bodies`` / ``sensing_shapes`` must be given; at most one of the counterpart
    arguments (see :class:`newton.sensors.SensorContact`).
    """

    def __init__(
        self,
        *,
        sensing_bodies: str | list[str] | list[int] | None = None,
        sensing_shapes: str | list[str] | list[int] | None = None,
        counterpart_bodies: str | list[str] | list[int] | None = None,
        counterpart_shapes: str | list[str] | list[int] | None = None,
        measure_total: bool = True,
        every_substep: bool = False,
    ):
        """Create the bridge.

        Args:
            sensing_bodies: Body label pattern(s) or indices whose contact forces are summed.
            sensing_shapes: Shape label pattern(s) or indices whose contact forces are summed.
            counterpart_bodies: Bodies to split the forces by.
            counterpart_shapes: Shapes to split the forces by.
            measure_total: Allocate :attr:`total_force`.
            every_substep: Request ``CONTACT_F`` on every substep instead of only the final one.
        """
        if (sensing_bodies is None) == (sensing_shapes is None):
            raise ValueError("ContactSensorBridge needs exactly one of sensing_bodies= or sensing_shapes=.")
        self._kwargs = {
            "sensing_bodies": sensing_bodies,
            "sensing_shapes": sensing_shapes,
            "counterpart_bodies": counterpart_bodies,
            "counterpart_shapes": counterpart_shapes,
            "measure_total": measure_total,
        }
        super().__init__(every_substep=every_substep)

    @property
    def total_force(self) -> wp.array | None:
        """Total contact force [N] on each sensing object, world frame, shape ``(num_sensing,)``."""
        return self.sensor.total_force

    @property
    def force_matrix(self) -> wp.array | None:
        """Contact force [N] per sensing object and counterpart, world frame (``None`` without counterparts)."""
        return self.sensor.force_matrix

    def _create_sensor(self, model: newton.Model) -> newton.sensors.SensorContact:
        return newton.sensors.SensorContact(model, request_contact_attributes=False, **self._kwargs)

    def _update_sensor(self, observables: newton.solvers.SolverBase.Observables) -> None:
        self._sensor.update(NewtonManager.get_state_0(), observables.contacts, observables=observables)
