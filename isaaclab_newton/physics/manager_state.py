"""Class-level state shared by the parts of the Newton physics manager."""

from __future__ import annotations

from typing import Any, ClassVar

import newton
import warp as wp
from isaaclab.physics import PhysicsManager

from . import graph as _graph
from .newton_solver_cfg import NewtonSolverCfg
from .observables import ObservableRequests, ObservableSchedule
from .pending_kinematics import PendingKinematics
from .scene_index import PrimEntities, SceneIndex
from .solver_slots import SolverSlots
from .world_health import WorldHealth


class NewtonManagerState(PhysicsManager):
    """The class-level state of the Newton physics manager, one attribute per piece, and its return to defaults.

    :class:`~.newton_manager.NewtonManager` and the parts it is composed of (:class:`~.manager_stepping.NewtonStepping`,
    :class:`~.manager_resets.NewtonResets`, :class:`~.manager_observables.NewtonObservables`) read and write these
    attributes on this class, so there is one copy whichever subclass is active.
    """

    # -- the built solver (what _build_solver returned) --
    _slots: ClassVar[SolverSlots | None] = None

    # -- scene --
    _builder: ClassVar[newton.ModelBuilder | None] = None
    _model: ClassVar[newton.Model | None] = None
    _state_0: ClassVar[newton.State | None] = None
    _state_1: ClassVar[newton.State | None] = None
    _control: ClassVar[newton.Control | None] = None
    _collision_pipeline: ClassVar[newton.CollisionPipeline | None] = None
    _contacts: ClassVar[newton.Contacts | None] = None
    _gravity: ClassVar[tuple[float, float, float]] = (0.0, 0.0, -9.81)
    _solver_cfg: ClassVar[NewtonSolverCfg | None] = None
    _declared_prims: ClassVar[dict[str, PrimEntities]] = {}
    _scene_index: ClassVar[SceneIndex | None] = None

    # -- stepping --
    _num_substeps: ClassVar[int] = 1
    _solver_dt: ClassVar[float] = 1.0 / 60.0
    _external_body_f: ClassVar[wp.array | None] = None
    _graph: ClassVar[wp.Graph | None] = None
    _eager_reasons_logged: ClassVar[set[str]] = set()
    """Reasons for eager stepping already logged in this process (each is logged once)."""
    _graph_deferred: ClassVar[bool] = False
    _recording_env_step: ClassVar[bool] = False
    """Set by :meth:`recording_env_step`: an enclosing graph records the steps, so they launch no graph of their own."""
    _recording_clocks: ClassVar[_graph.ReplayedClocks | None] = None
    """Host times stamped by the work being recorded (see :meth:`recording_clocks`)."""

    # -- resets --
    _reset_world_mask: ClassVar[wp.array | None] = None
    _reset_pending: ClassVar[bool] = False
    _pending_fk: ClassVar[PendingKinematics | None] = None
    _state_stamp: ClassVar[int] = 0
    _world_health: ClassVar[WorldHealth | None] = None

    # -- observables --
    _observable_requests: ClassVar[ObservableRequests] = ObservableRequests()
    _observable_schedule: ClassVar[ObservableSchedule | None] = None

    _scene_data_backend: ClassVar[Any] = None
    _simulation_started: ClassVar[bool] = False

    @staticmethod
    def _drop_solver_state() -> None:
        """Empty the solver slots and what was made for the solver: graph, observables, collision pipeline."""
        NewtonManagerState._slots = None
        NewtonManagerState._graph = None
        NewtonManagerState._graph_deferred = False
        NewtonManagerState._observable_schedule = None
        NewtonManagerState._collision_pipeline = None
        NewtonManagerState._contacts = None
        NewtonManagerState._simulation_started = False

    @staticmethod
    def _clear_scene() -> None:
        """Drop the scene, everything built from it (the solver too) and the observable requests."""
        NewtonManagerState._drop_solver_state()
        NewtonManagerState._builder = None
        NewtonManagerState._declared_prims = {}
        NewtonManagerState._model = None
        NewtonManagerState._scene_index = None
        NewtonManagerState._state_0 = None
        NewtonManagerState._state_1 = None
        NewtonManagerState._control = None
        NewtonManagerState._external_body_f = None
        NewtonManagerState._recording_env_step = False
        NewtonManagerState._recording_clocks = None
        NewtonManagerState._reset_world_mask = None
        NewtonManagerState._reset_pending = False
        NewtonManagerState._pending_fk = None
        NewtonManagerState._state_stamp += 1
        NewtonManagerState._world_health = None
        NewtonManagerState._observable_requests = ObservableRequests()
