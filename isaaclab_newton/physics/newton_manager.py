"""Class-level physics manager that runs Newton solvers inside Isaac Lab's simulation context."""

from __future__ import annotations

import logging
from abc import abstractmethod
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, ClassVar

import newton
import numpy as np
import warp as wp
from isaaclab.physics import PhysicsEvent, PhysicsManager

from . import graph as _graph
from .builder_defaults import apply_builder_defaults, apply_soft_contact
from .newton_manager_cfg import (
    NewtonCfg,
    check_nonfinite_log_interval,
    check_nonfinite_speed_limit,
    check_num_substeps,
    check_physics_dt,
    collision_pipeline_kwargs,
)
from .newton_solver_cfg import NewtonSolverCfg
from .observables import (
    ObservableRequests,
    ObservableSchedule,
    allocate_schedule,
    check_known_kinds,
    clear_world_rows,
    normalize_kinds,
)
from .pending_kinematics import PendingKinematics
from .pending_kinematics import mark as _mark
from .scene_data import NewtonSceneDataBackend
from .scene_index import PrimEntities, SceneIndex
from .slot_checks import SLOT_NAMES, check_slots
from .substep_loop import run_substeps
from .world_health import WorldHealth

if TYPE_CHECKING:
    from isaaclab.sim import SimulationContext
    from newton.solvers import SolverBase

logger = logging.getLogger(__name__)

_MAXIMAL_COORDINATE_SOLVERS = frozenset({"SolverSemiImplicit", "SolverVBD", "SolverXPBD"})
"""Newton solvers that advance bodies only (their ``State.joint_q`` / ``joint_qd`` are re-derived after a step)."""


class NewtonManager(PhysicsManager):
    """Newton physics manager: owns the builder, model, states, control, contacts and the substep loop.

    A class-level singleton: all state lives in class attributes of this class, and exactly one subclass (one per
    Newton solver, e.g. ``NewtonMJWarpManager``) is active per simulation. A subclass implements
    :meth:`_build_solver`, which constructs the solver and assigns the four slots on ``NewtonManager`` itself::

        NewtonManager._solver = SolverXPBD(model, iterations=solver_cfg.iterations)
        NewtonManager._use_single_state = False
        NewtonManager._needs_collision_pipeline = True
        NewtonManager._supports_rigid_body_force_input = True

    and overrides the optional hooks it needs (see ``docs/extending_solvers.md``). Hooks read what they work on
    from the class attributes (``NewtonManager._state_0``, ``_model``, ``_control``, ``_contacts``, ...) or the
    public getters, on each use.

    Public lifecycle, in order: :meth:`initialize`, :meth:`create_builder` / :meth:`set_builder` /
    :meth:`instantiate_builder_from_stage`, :meth:`start_simulation`, :meth:`initialize_solver`,
    :meth:`reset`, :meth:`set_decimation`, :meth:`step`, :meth:`forward`, :meth:`pre_render`, :meth:`close` /
    :meth:`clear`.
    """

    # -- the four slots _build_solver() assigns (None until it runs) --
    _solver: ClassVar[SolverBase | None] = None
    """The Newton solver advancing the model."""
    _use_single_state: ClassVar[bool | None] = None
    """The solver steps one ``State`` in place (``False``: the loop ping-pongs two states)."""
    _needs_collision_pipeline: ClassVar[bool | None] = None
    """The manager owns a collision pipeline, collides before the substeps and passes its contacts."""
    _supports_rigid_body_force_input: ClassVar[bool | None] = None
    """The solver consumes external wrenches from ``State.body_f``."""

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
    _decimation: ClassVar[int | None] = None
    """The env's decimation (:meth:`set_decimation`); kept across hard resets, ``None`` until an env announces it."""
    _eager_actuators: ClassVar[dict[str, str]] = {}
    """Assets whose actuators must run between physics steps, with the reason (see :meth:`note_eager_actuators`)."""
    _external_body_f: ClassVar[wp.array | None] = None
    _substep_observables: ClassVar[Any] = None
    """Observables requested on the substep being run (what the base ``_step_solver`` passes to the solver)."""
    _graph: ClassVar[wp.Graph | None] = None
    _graph_deferred: ClassVar[bool] = False
    _eager_reasons_logged: ClassVar[set[str]] = set()
    """Reasons for eager stepping already logged in this process (each is logged once)."""
    _recording_env_step: ClassVar[bool] = False
    """Set by :meth:`recording_env_step`: an enclosing graph records the steps, so they launch no graph of their own."""
    _recording_clocks: ClassVar[_graph.ReplayedClocks | None] = None

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

    # ------------------------------------------------------------------------------------------------
    # Public lifecycle
    # ------------------------------------------------------------------------------------------------

    @classmethod
    def initialize(cls, sim_context: SimulationContext) -> None:
        """Store the simulation context, read gravity and the solver configuration.

        Args:
            sim_context: The Isaac Lab simulation context driving this manager.
        """
        super().initialize(sim_context)
        cfg = sim_context.cfg.physics
        if not isinstance(cfg, NewtonCfg):
            raise TypeError(f"{cls.__name__} needs SimulationCfg.physics to be a NewtonCfg, got {type(cfg).__name__}.")
        if sim_context.physics_manager == f"{cls.__module__}:{cls.__qualname__}":  # the config's lazy class name
            sim_context.physics_manager = cls  # that string re-resolves the class on every access, several per step
        NewtonManager._clear_scene()
        NewtonManager._gravity = tuple(float(g) for g in sim_context.cfg.gravity)
        NewtonManager._solver_cfg = cfg.solver_cfg
        NewtonManager._num_substeps = check_num_substeps(cfg.num_substeps)
        check_physics_dt(sim_context.cfg.dt)
        if cfg.observables:
            NewtonManager._observable_requests.add(cfg.observables)
        if cfg.observables_every_substep:
            NewtonManager._observable_requests.add(cfg.observables_every_substep, every_substep=True)
        NewtonManager._scene_data_backend = NewtonSceneDataBackend(cls)

    @classmethod
    def create_builder(cls) -> newton.ModelBuilder:
        """Create an empty builder with the simulation's gravity and register solver attributes.

        Returns:
            The new builder, also stored as the manager's builder.
        """
        builder = newton.ModelBuilder(up_axis=newton.Axis.Z, gravity=NewtonManager._gravity)
        if isinstance(cls._cfg, NewtonCfg):
            apply_builder_defaults(builder, cls._cfg)
        cls._dispatch()._register_builder_attributes(builder)
        NewtonManager._builder = builder
        NewtonManager._declared_prims = {}
        return builder

    @classmethod
    def set_builder(cls, builder: newton.ModelBuilder, *, prims: Mapping[str, PrimEntities] | None = None) -> None:
        """Use ``builder`` as the scene to finalize on the next hard reset.

        Args:
            builder: A populated :class:`newton.ModelBuilder`.
            prims: Entities of the prims the builder holds, keyed by prim path (the clone context declares every
                spawned asset). They become the :meth:`get_scene_index` entries; prims not declared are resolved
                from the model's labels.
        """
        if not isinstance(builder, newton.ModelBuilder):
            raise TypeError(f"set_builder() expects a newton.ModelBuilder, got {type(builder).__name__}.")
        NewtonManager._builder = builder
        NewtonManager._declared_prims = dict(prims or {})

    @classmethod
    def get_builder(cls) -> newton.ModelBuilder | None:
        """Return the builder the next hard reset finalizes (``None`` before one is created or set)."""
        return NewtonManager._builder

    @classmethod
    def instantiate_builder_from_stage(cls, stage: Any = None) -> newton.ModelBuilder:
        """Import the USD stage into a new builder.

        Args:
            stage: The USD stage. Defaults to the simulation context's stage.

        Returns:
            The builder holding the imported scene.
        """
        if stage is None:
            stage = cls._sim.stage if cls._sim is not None else None
        if stage is None:
            raise RuntimeError(
                "instantiate_builder_from_stage() needs a stage: pass one or create a SimulationContext."
            )
        builder = cls.create_builder()
        builder.add_usd(stage, load_visual_shapes=cls.load_visual_shapes())
        return builder

    @classmethod
    def start_simulation(cls) -> None:
        """Finalize the model and allocate states and control, dispatching MODEL_INIT and PHYSICS_READY."""
        cls = cls._dispatch()
        if NewtonManager._builder is None:
            NewtonManager._builder = cls._builder_from_stage_or_fail()
        builder = NewtonManager._builder
        cls.dispatch_event(PhysicsEvent.MODEL_INIT, builder)
        cls._register_builder_attributes(builder)
        cls._prepare_builder_for_finalize(builder)
        model = builder.finalize(device=cls.get_device())
        model.set_gravity(NewtonManager._gravity)
        apply_soft_contact(model, cls._cfg)
        NewtonManager._model = model
        NewtonManager._scene_index = SceneIndex(model, NewtonManager._declared_prims)
        NewtonManager._state_0 = model.state()
        NewtonManager._state_1 = model.state()
        NewtonManager._control = model.control()
        newton.eval_fk(model, model.joint_q, model.joint_qd, NewtonManager._state_0)
        NewtonManager._state_1.assign(NewtonManager._state_0)
        NewtonManager._external_body_f = wp.zeros_like(NewtonManager._state_0.body_f) if model.body_count else None
        NewtonManager._reset_world_mask = wp.zeros(model.world_count + 1, dtype=wp.bool, device=model.device)
        NewtonManager._reset_pending = False
        NewtonManager._pending_fk = PendingKinematics(model)
        NewtonManager._eager_actuators = {}  # the assets initialized on PHYSICS_READY note theirs again
        NewtonManager._state_stamp += 1
        interval = check_nonfinite_log_interval(cls._cfg.nonfinite_log_interval)
        speed_limit = check_nonfinite_speed_limit(cls._cfg.nonfinite_speed_limit)
        NewtonManager._world_health = WorldHealth(model, log_interval=interval, speed_limit=speed_limit)
        PhysicsManager._sim_time = 0.0
        NewtonManager._simulation_started = True
        cls.dispatch_event(PhysicsEvent.PHYSICS_READY, model)

    @classmethod
    def initialize_solver(cls) -> None:
        """Build the solver, check its slots, allocate contacts and observables, then capture the graph.

        Raises:
            RuntimeError: If ``_build_solver()`` left ``NewtonManager._solver`` unset, or assigned a slot on its
                own class instead of on ``NewtonManager``.
            TypeError: If a slot holds the wrong type.
        """
        if NewtonManager._model is None:
            raise RuntimeError("initialize_solver() needs a finalized model: call start_simulation() first.")
        cls = cls._dispatch()
        for name in SLOT_NAMES:
            setattr(NewtonManager, name, None)
        cls._build_solver(NewtonManager._model, NewtonManager._solver_cfg)
        check_slots(cls, NewtonManager)
        # Re-read the stepping settings: they may have been changed on the cfg since construction.
        dt = check_physics_dt(cls.get_physics_dt())
        NewtonManager._num_substeps = check_num_substeps(cls._cfg.num_substeps)
        NewtonManager._solver_dt = dt / NewtonManager._num_substeps
        NewtonManager._collision_pipeline = None
        NewtonManager._contacts = None
        cls._initialize_contacts()
        try:
            NewtonManager._observable_schedule = cls._allocate_observables(NewtonManager._observable_requests)
        except Exception:
            # Do not leave a solver that would step without the requested observables.
            cls._release_solver()
            raise
        NewtonManager._graph = None
        # Where the env may fold its decimation into step(), set_decimation() captures once the count is known.
        NewtonManager._graph_deferred = (cls._wants_folded_decimation() and NewtonManager._decimation is None) or (
            cls._requires_initial_reset_before_graph_capture()
        )
        if not NewtonManager._graph_deferred:
            cls._capture_graph()

    @classmethod
    def reset(cls, soft: bool = False) -> None:
        """Reset the simulation.

        A hard reset re-finalizes the model from the builder and rebuilds solver, contacts, observables and
        graph; a soft reset keeps all of them (it only applies pending per-world resets).

        Args:
            soft: Keep model, solver, contacts and graph.
        """
        cls = cls._dispatch()
        if soft and NewtonManager._solver is not None:
            cls.update_kinematics()
            return
        if NewtonManager._simulation_started:
            cls.dispatch_event(PhysicsEvent.STOP)
            NewtonManager._drop_solver_state()
        cls.start_simulation()
        cls.initialize_solver()

    @classmethod
    def close(cls) -> None:
        """Dispatch STOP to listeners, then release the solver, model and all class-level state."""
        try:
            super().close()
        finally:
            cls.clear()

    @classmethod
    def clear(cls) -> None:
        """Release the solver, model and all class-level state, including observable requests."""
        cls._dispatch()._release_solver()
        NewtonManager._clear_scene()

    # ------------------------------------------------------------------------------------------------
    # Stepping
    # ------------------------------------------------------------------------------------------------

    @classmethod
    def set_decimation(cls, decimation: int) -> None:
        """Take the env's decimation; fold the decimation loop into :meth:`step` where the env allows it.

        :meth:`step` runs the whole decimation loop (``decimation`` physics steps, one graph) when
        :attr:`NewtonCfg.fold_decimation` is set and no asset's actuators must run between physics steps
        (:meth:`note_eager_actuators`); the env then calls :meth:`step` once per env step
        (:meth:`handles_decimation`). The graph is captured here in that case.

        Args:
            decimation: Physics steps per env step (>= 1).
        """
        if isinstance(decimation, bool) or not isinstance(decimation, (int, np.integer)) or decimation < 1:
            raise ValueError(f"set_decimation() needs an int >= 1 (physics steps per env step), got {decimation!r}.")
        cls = cls._dispatch()
        NewtonManager._decimation = int(decimation)
        wanted = cls._wants_folded_decimation()
        if wanted and NewtonManager._eager_actuators:
            name, reason = next(iter(NewtonManager._eager_actuators.items()))
            _graph.report_eager_fallback(
                f"NewtonCfg.fold_decimation is set, but {name}'s actuators run between physics steps ({reason});"
                " the env drives the decimation loop",
                NewtonManager._eager_reasons_logged,
            )
        if NewtonManager._solver is not None and wanted:
            NewtonManager._graph_deferred = cls._requires_initial_reset_before_graph_capture()
            if not NewtonManager._graph_deferred:
                cls._capture_graph()

    @classmethod
    def handles_decimation(cls) -> bool:
        """Whether :meth:`step` runs the env's whole decimation loop (see :meth:`set_decimation`)."""
        return (
            cls._wants_folded_decimation()
            and NewtonManager._decimation is not None
            and not (NewtonManager._eager_actuators)
        )

    @classmethod
    def note_eager_actuators(cls, name: str, reason: str) -> None:
        """Record that an asset's actuators must run between physics steps (explicit models, delays, ...).

        Assets call this when they are initialized; :meth:`set_decimation` then leaves the decimation loop to the
        env. The records are dropped with the scene.

        Args:
            name: The asset, e.g. its prim path.
            reason: Why its actuators cannot run inside the folded loop.
        """
        NewtonManager._eager_actuators[name] = reason

    @classmethod
    def step(cls) -> None:
        """Advance one physics step (or the env's whole decimation loop, see :meth:`handles_decimation`).

        Pending world resets and queued FK are applied first; then the graph is replayed, or the loop runs
        eagerly; then :meth:`_check_solver_status` (and :meth:`_log_solver_debug` in debug mode) runs.
        """
        if NewtonManager._solver is None:
            raise RuntimeError("NewtonManager.step() called before the solver exists: call sim.reset() first.")
        cls = cls._dispatch()
        recording = NewtonManager._recording_env_step
        cls.update_kinematics()
        schedule = NewtonManager._observable_schedule
        if schedule is not None:
            contacts = NewtonManager._contacts
            if contacts is None:  # a solver that owns its pipeline resolves its own contacts
                contacts = getattr(NewtonManager._solver, "contacts", None)
            schedule.check_contacts(contacts, NewtonManager._collision_pipeline, NewtonManager._model)
        if NewtonManager._graph_deferred and not recording:
            NewtonManager._graph_deferred = False
            cls._capture_graph()
        if NewtonManager._graph is not None and not recording:
            _graph.launch(NewtonManager._graph)
        else:
            cls._run_physics_steps()
        num_steps = cls._physics_steps_per_call()
        NewtonManager._state_stamp += 1
        PhysicsManager._sim_time += num_steps * cls.get_physics_dt()
        if not recording:
            cls._count_steps(num_steps)

    @classmethod
    @contextmanager
    def recording_env_step(cls) -> Iterator[_graph.ReplayedClocks]:
        """Context for recording whole env steps into an enclosing CUDA graph (see :class:`~.graph.TorchWarpGraph`).

        Inside it, :meth:`step` issues its substeps as kernel launches into the capture instead of launching its own
        graph, and skips the host bookkeeping of a step (simulation time is restored on exit, the non-finite-world
        counter is not advanced). After each replay of the recorded graph, call :meth:`note_replayed_steps` and then
        ``advance(NewtonManager.get_simulation_time())`` on the yielded clocks (host times the recorded work stamped).

        Raises:
            RuntimeError: If the substep graph has not been captured yet (step once eagerly before recording).
        """
        if NewtonManager._graph_deferred:
            raise RuntimeError("Step the simulation once before recording env steps: the substep graph is pending.")
        sim_time = PhysicsManager._sim_time
        clocks = _graph.ReplayedClocks()
        NewtonManager._recording_env_step = True
        NewtonManager._recording_clocks = clocks
        try:
            yield clocks
        finally:
            NewtonManager._recording_env_step = False
            NewtonManager._recording_clocks = None
            PhysicsManager._sim_time = sim_time
            NewtonManager._state_stamp += 1  # reads cached during the recording hold values never computed

    @classmethod
    def recording_clocks(cls) -> _graph.ReplayedClocks | None:
        """The clocks of the env step being recorded (work that stores a host time registers it), else ``None``."""
        return NewtonManager._recording_clocks

    @classmethod
    def note_replayed_steps(cls, num_steps: int) -> None:
        """Host bookkeeping of ``num_steps`` physics steps whose device work an enclosing graph replayed.

        Advances the simulation time, marks cached reads stale and advances the non-finite-world counter, as
        :meth:`step` does for each step it runs.

        Args:
            num_steps: Physics steps the replayed graph contains.
        """
        NewtonManager._state_stamp += 1
        PhysicsManager._sim_time += num_steps * cls.get_physics_dt()
        cls._dispatch()._count_steps(num_steps)

    @classmethod
    def uses_graph(cls) -> bool:
        """Whether steps replay a captured graph."""
        return NewtonManager._graph is not None

    @classmethod
    def cpu_graphs_enabled(cls) -> bool:
        """Whether Warp CPU graphs may be replayed on CPU (``NewtonCfg.use_cpu_graph``, on by default)."""
        return bool(getattr(cls._cfg, "use_cpu_graph", True))

    @classmethod
    def get_num_substeps(cls) -> int:
        """Return the number of solver substeps per physics step."""
        return NewtonManager._num_substeps

    @classmethod
    def get_solver_dt(cls) -> float:
        """Return the substep size [s]."""
        return NewtonManager._solver_dt

    @classmethod
    def get_substep_observables(cls) -> SolverBase.Observables | None:
        """Return the observables requested on the substep being run (for ``_step_solver`` overrides)."""
        return NewtonManager._substep_observables

    # ------------------------------------------------------------------------------------------------
    # Resets and kinematics
    # ------------------------------------------------------------------------------------------------

    @classmethod
    def forward(cls) -> None:
        """Apply pending world resets and refresh all body poses from joint coordinates (no time advance).

        Assets do not need this after their writes (they queue masked FK, see :meth:`note_state_write`); it is for
        callers that edit ``State.joint_q``/``joint_qd`` directly, and for renderers.
        """
        if NewtonManager._model is None:
            return
        cls.update_kinematics()
        model = NewtonManager._model
        if model.joint_count:
            state = NewtonManager._state_0
            newton.eval_fk(model, state.joint_q, state.joint_qd, state)
            NewtonManager._state_stamp += 1

    @classmethod
    def pre_render(cls) -> None:
        """Refresh kinematics before renderers and visualizers read the state."""
        cls.forward()

    @classmethod
    def update_kinematics(cls) -> None:
        """Apply pending world resets, then forward kinematics of the articulations queued since the last call.

        Only the affected worlds are touched; nothing is read back to the host. :meth:`step` calls this first, and
        asset data calls it before reading body state.
        """
        if NewtonManager._model is None:
            return
        cls.apply_world_resets()
        if NewtonManager._pending_fk is not None and NewtonManager._pending_fk.apply(NewtonManager._state_0):
            NewtonManager._state_stamp += 1

    @classmethod
    def apply_world_resets(cls) -> None:
        """Apply pending world resets now (solver internals, joint state to defaults), leaving their FK queued.

        The solver's part is :meth:`_reset_solver_internals` (it reads the worlds from :meth:`get_reset_world_mask`);
        the manager's part follows it: the reset worlds' articulations are queued for FK, their non-finite flags
        and observable rows are cleared, and the marks of :meth:`request_world_reset` are cleared. Nothing is read
        back to the host.
        """
        if not NewtonManager._reset_pending or NewtonManager._solver is None:
            return
        NewtonManager._reset_pending = False
        mask = NewtonManager._reset_world_mask
        cls._dispatch()._reset_solver_internals()
        NewtonManager._pending_fk.mark_worlds(mask)
        NewtonManager._world_health.clear(mask)
        schedule = NewtonManager._observable_schedule
        if schedule is not None:
            clear_world_rows(schedule.container, NewtonManager._model, mask)
        mask.zero_()
        NewtonManager._state_stamp += 1

    @classmethod
    def request_world_reset(
        cls, world_ids: Iterable[int] | wp.array | None = None, *, select: wp.array | None = None
    ) -> None:
        """Mark worlds whose solver internals (and joint state) are reset before the next step or read.

        The reset worlds' articulations get masked FK afterwards (:meth:`update_kinematics`); other worlds are not
        touched.

        Args:
            world_ids: World indices (int32 ``wp.array`` on the model device for sync-free use; ``-1`` is the shared
                world), or ``None`` for every world.
            select: Optional boolean mask over ``world_ids``: only selected entries are reset.
        """
        mask = NewtonManager._reset_world_mask
        if mask is None:
            raise RuntimeError("request_world_reset() needs a finalized model: call sim.reset() first.")
        if world_ids is None:
            mask.fill_(True)
        else:
            ids = (
                world_ids
                if isinstance(world_ids, wp.array)
                else wp.array(list(world_ids), dtype=wp.int32, device=mask.device)
            )
            _mark(mask, ids, select)
        NewtonManager._reset_pending = True

    @classmethod
    def get_reset_world_mask(cls) -> wp.array | None:
        """Return the worlds being reset: bool, ``(world_count + 1,)`` on the model device, the last entry the
        shared world ``-1`` (what :meth:`_reset_solver_internals` resets; ``None`` before the model exists)."""
        return NewtonManager._reset_world_mask

    @classmethod
    def note_state_write(
        cls, articulations: wp.array | None = None, *, select: wp.array | None = None, fk_queued: bool = False
    ) -> None:
        """Record a write to the simulation state: cached reads become stale, FK is queued for ``articulations``.

        Args:
            articulations: Int32 model articulation indices whose joint coordinates were written (their body
                state is re-derived by masked FK before the next step or body read); ``None`` for writes that need
                no FK (e.g. body velocities of a fixed base, model properties).
            select: Optional boolean mask over ``articulations``: only selected entries are queued.
            fk_queued: The write's own kernel set entries of :meth:`queued_fk_mask` (FK runs for them).
        """
        NewtonManager._state_stamp += 1
        pending = NewtonManager._pending_fk
        if pending is not None and articulations is not None:
            pending.mark(articulations, select)
        if pending is not None and fk_queued:
            pending.note_marked()

    @classmethod
    def queued_fk_mask(cls) -> wp.array | None:
        """Bool mask over model articulations whose FK is queued, for write kernels that set their entries themselves
        (then ``note_state_write(fk_queued=True)``); ``None`` before the model exists."""
        return None if NewtonManager._pending_fk is None else NewtonManager._pending_fk.mask

    @classmethod
    def get_state_stamp(cls) -> int:
        """Counter that changes whenever the simulation state may have changed (steps, writes, resets, FK).

        Data buffers cache derived quantities against it: equal stamps mean the cached value is current.
        """
        return NewtonManager._state_stamp

    @classmethod
    def get_nonfinite_worlds(cls) -> wp.array:
        """Return the per-world non-finite flags of the last physics step (device ``bool``, shape ``(world_count,)``).

        Entry ``w`` is ``True`` when world ``w``'s body poses/twists or joint coordinates/velocities were not finite
        after the last physics step, or a speed exceeded ``NewtonCfg.nonfinite_speed_limit`` (a diverging solver),
        ``False`` otherwise (and right after the world is reset). Environment ``i`` is
        world ``i``. Computed on the device by one kernel after the substeps (inside the captured graph), so reading
        it as a tensor does not synchronize.

        Raises:
            RuntimeError: Before the model is finalized.
        """
        if NewtonManager._world_health is None:
            raise RuntimeError("get_nonfinite_worlds() needs a finalized model: call sim.reset() first.")
        return NewtonManager._world_health.flags

    # ------------------------------------------------------------------------------------------------
    # Observables
    # ------------------------------------------------------------------------------------------------

    @classmethod
    def request_observables(cls, kinds: Iterable[str], *, every_substep: bool = False) -> None:
        """Declare solver observable kinds a consumer needs; requests from all consumers are unioned.

        Call before the solver is initialized: before ``sim.reset()``, or from a ``PhysicsEvent.PHYSICS_READY``
        callback (it runs on every hard reset, after the model exists and before the solver is rebuilt). Sensors
        do so when they are built. Requests persist across hard resets and are dropped by :meth:`close`.

        Args:
            kinds: Collection of kind names, e.g. ``{"body_qdd"}`` (never a bare string).
            every_substep: Write these kinds on every substep instead of only the final one.

        Raises:
            TypeError: If ``kinds`` is a bare string or holds non-string entries.
            ValueError: If a kind is not declared by any solver's observable container (the message lists the
                known kinds); known kinds the configured solver does not produce fail at ``sim.reset()``.
            RuntimeError: If kinds not yet covered are requested while a solver and its container exist.
        """
        requests = NewtonManager._observable_requests
        kinds = normalize_kinds(kinds)
        check_known_kinds(kinds, what="request_observables()")
        if NewtonManager._solver is not None and not requests.covers(kinds, every_substep=every_substep):
            cadence = "every substep" if every_substep else "the final substep"
            raise RuntimeError(
                f"Observables {sorted(kinds)} (on {cadence}) requested after {type(NewtonManager._solver).__name__}"
                f" allocated its container for {sorted(requests.all)}; it cannot grow while the solver runs. Request"
                " them before sim.reset(), or from a PhysicsEvent.PHYSICS_READY callback, which runs on every hard"
                " reset before the solver and its observables are rebuilt."
            )
        requests.add(kinds, every_substep=every_substep)

    @classmethod
    def get_observables(cls) -> SolverBase.Observables | None:
        """Return the observable container (read-only use), or ``None`` when nothing was requested."""
        schedule = NewtonManager._observable_schedule
        return None if schedule is None else schedule.container

    @classmethod
    def get_requested_observables(cls) -> frozenset[str]:
        """Return the union of requested observable kinds."""
        return NewtonManager._observable_requests.all

    @classmethod
    def supported_observables(cls) -> frozenset[str]:
        """Return the observable kinds the configured solver supports (needs an initialized solver)."""
        if NewtonManager._solver is None:
            raise RuntimeError("supported_observables() needs an initialized solver: call sim.reset() first.")
        return frozenset(NewtonManager._solver.supported_observables)

    # ------------------------------------------------------------------------------------------------
    # Getters
    # ------------------------------------------------------------------------------------------------

    @classmethod
    def get_model(cls) -> newton.Model | None:
        """Return the finalized model."""
        return NewtonManager._model

    @classmethod
    def get_scene_index(cls) -> SceneIndex:
        """Return the index of which model entities belong to which prim in which world.

        Raises:
            RuntimeError: If the model is not finalized yet (before ``sim.reset()``).
        """
        if NewtonManager._scene_index is None:
            raise RuntimeError("The scene index exists once the model is finalized: call sim.reset() first.")
        return NewtonManager._scene_index

    @classmethod
    def get_state_0(cls) -> newton.State | None:
        """Return the current state (the result of the last step)."""
        return NewtonManager._state_0

    @classmethod
    def get_state_1(cls) -> newton.State | None:
        """Return the scratch output state of double-buffered solvers."""
        return NewtonManager._state_1

    @classmethod
    def get_control(cls) -> newton.Control | None:
        """Return the control the solver reads."""
        return NewtonManager._control

    @classmethod
    def get_contacts(cls) -> newton.Contacts | None:
        """Return the contacts passed to the solver."""
        return NewtonManager._contacts

    @classmethod
    def get_collision_pipeline(cls) -> newton.CollisionPipeline | None:
        """Return the collision pipeline the manager runs before the substeps (``None`` where the solver collides
        itself or has no contacts)."""
        return NewtonManager._collision_pipeline

    @classmethod
    def get_solver(cls) -> SolverBase | None:
        """Return the active solver (``None`` before ``sim.reset()``)."""
        return NewtonManager._solver

    @classmethod
    def get_solver_cfg(cls) -> NewtonSolverCfg | None:
        """Return the solver configuration hooks run with: :attr:`NewtonCfg.solver_cfg` (``None`` before
        ``initialize``), or a nested solver's while a coupler runs that solver's hooks (:meth:`_nested_solver_cfg`)."""
        return NewtonManager._solver_cfg

    @classmethod
    def get_gravity(cls) -> tuple[float, float, float]:
        """Return the gravity vector [m/s^2] of the simulation (``SimulationCfg.gravity``)."""
        return NewtonManager._gravity

    @classmethod
    def get_external_wrench(cls) -> wp.array | None:
        """Return the per-body external wrench buffer applied on every substep.

        Layout matches ``State.body_f``: world-frame spatial vector (force [N], torque [N m]) at the body's
        center of mass. Values persist until overwritten.

        Raises:
            RuntimeError: If the solver does not consume ``State.body_f``.
        """
        if NewtonManager._solver is not None and not NewtonManager._supports_rigid_body_force_input:
            raise RuntimeError(
                f"{type(NewtonManager._solver).__name__} ignores State.body_f; external wrenches cannot be applied."
                " Pick a solver whose manager sets NewtonManager._supports_rigid_body_force_input = True (e.g. MuJoCo"
                " Warp, XPBD)."
            )
        return NewtonManager._external_body_f

    @classmethod
    def load_visual_shapes(cls) -> bool:
        """Whether importers add visual-only shapes (:attr:`NewtonCfg.load_visual_shapes`; ``True`` without a cfg)."""
        return bool(cls._cfg.load_visual_shapes) if isinstance(cls._cfg, NewtonCfg) else True

    @classmethod
    def get_scene_data_backend(cls):
        """Return the scene data backend publishing body transforms."""
        return NewtonManager._scene_data_backend

    @classmethod
    def video_capture_backend(cls) -> str | None:
        """Newton renders perspective video with its GL viewer."""
        return "newton_gl"

    # ------------------------------------------------------------------------------------------------
    # The extension contract: hooks a solver manager implements or overrides
    # ------------------------------------------------------------------------------------------------

    @classmethod
    @abstractmethod
    def _build_solver(cls, model: newton.Model, solver_cfg: NewtonSolverCfg) -> None:
        """Construct the solver on the finalized ``model`` and assign the four slots on ``NewtonManager``.

        Assign ``NewtonManager._solver``, ``_use_single_state``, ``_needs_collision_pipeline`` and
        ``_supports_rigid_body_force_input`` (on ``NewtonManager``, not on ``cls``). Raise here on unsupported
        configurations rather than degrading silently.

        Args:
            model: The finalized model (its states exist: ``NewtonManager._state_0``, ``_state_1``).
            solver_cfg: The solver configuration (:attr:`NewtonCfg.solver_cfg`).
        """

    @classmethod
    def _create_solver(cls, model: newton.Model, solver_cfg: NewtonSolverCfg) -> SolverBase:
        """Construct and return a solver without touching manager state (lets couplers nest solvers)."""
        raise NotImplementedError(
            f"{cls.__name__} does not implement _create_solver(model, solver_cfg), so a coupler cannot nest its"
            " solver: implement it to construct and return the solver without touching manager state."
        )

    @classmethod
    def _initialize_contacts(cls) -> None:
        """Allocate the contacts passed to the solver (``NewtonManager._contacts``, ``_collision_pipeline``).

        The base creates Newton's collision pipeline and its contacts when ``_needs_collision_pipeline`` is set.
        """
        if not NewtonManager._needs_collision_pipeline:
            return
        model = NewtonManager._model
        pipeline = newton.CollisionPipeline(model, **cls._collision_pipeline_kwargs(model))
        NewtonManager._collision_pipeline = pipeline
        NewtonManager._contacts = pipeline.contacts()

    @classmethod
    def _step_solver(
        cls,
        state_0: newton.State,
        state_1: newton.State,
        control: newton.Control,
        contacts: newton.Contacts | None,
        substep_dt: float,
    ) -> None:
        """Advance one substep of ``substep_dt`` [s] from ``state_0`` into ``state_1``.

        The base runs ``NewtonManager._solver.step`` with the substep's observables
        (:meth:`get_substep_observables`). Override to change one substep while keeping the loop.
        """
        NewtonManager._solver.step(
            state_0, state_1, control, contacts, substep_dt, observables=NewtonManager._substep_observables
        )

    @classmethod
    def _simulate_physics_only(cls) -> None:
        """Run ``num_substeps`` solver substeps: collision, wrench restore, ``_step_solver``, state swap."""
        NewtonManager._state_0, NewtonManager._state_1 = run_substeps(
            NewtonManager._state_0,
            NewtonManager._state_1,
            NewtonManager._control,
            NewtonManager._contacts,
            cls._step_solver,
            substep_dt=NewtonManager._solver_dt,
            num_substeps=NewtonManager._num_substeps,
            use_single_state=NewtonManager._use_single_state,
            pipeline=NewtonManager._collision_pipeline,
            collision_every=int(cls._cfg.collision_decimation),
            external_body_f=NewtonManager._external_body_f if NewtonManager._supports_rigid_body_force_input else None,
            schedule=NewtonManager._observable_schedule,
            set_observables=_set_substep_observables,
        )
        model = NewtonManager._model
        if model.joint_count and not cls._solver_writes_joint_coordinates():
            # Maximal-coordinate solvers advance bodies only: re-derive joint coordinates so joint reads and
            # forward() (which runs FK from them) see the stepped state instead of the initial one.
            state = NewtonManager._state_0
            newton.eval_ik(model, state, state.joint_q, state.joint_qd)
        NewtonManager._world_health.flag(NewtonManager._state_0)

    @classmethod
    def _reset_solver_internals(cls) -> None:
        """Reset the solver-owned data of the worlds in :meth:`get_reset_world_mask` (the solver's part of a reset).

        The base calls ``solver.reset(state_0, world_mask=mask)``, which puts those worlds back at the model's
        initial state; assets rely on that and write their randomized reset state afterwards. An override keeps
        that meaning (e.g. resets a second solver too, then calls ``super()``).
        """
        NewtonManager._solver.reset(NewtonManager._state_0, world_mask=NewtonManager._reset_world_mask)

    @classmethod
    def _register_builder_attributes(cls, builder: newton.ModelBuilder) -> None:
        """Register Newton custom attributes the solver needs (before particles are added and before finalize)."""

    @classmethod
    def _prepare_builder_for_finalize(cls, builder: newton.ModelBuilder) -> None:
        """Normalize imported or replicated builder data right before ``finalize()``."""

    @classmethod
    def _supports_cuda_graph_capture(cls) -> bool:
        """Whether the substep loop of this solver can be captured in a graph (``False``: step eagerly)."""
        return True

    @classmethod
    def _requires_initial_reset_before_graph_capture(cls) -> bool:
        """Whether capture must wait until the first step after the reset."""
        return False

    @classmethod
    def _solver_specific_clear(cls) -> None:
        """Release class-level state owned by the subclass."""

    @classmethod
    def _check_solver_status(cls) -> None:
        """Inspect solver status after a step (must not synchronize unless debugging)."""

    @classmethod
    def _log_solver_debug(cls) -> None:
        """Log solver diagnostics after a step when ``NewtonCfg.debug_mode`` is set."""
        state = NewtonManager._state_0
        if state is not None and state.body_q is not None and state.body_q.shape[0]:
            finite = bool(np.isfinite(state.body_q.numpy()).all())
            logger.debug("[%s] t=%.4f s, body_q finite: %s", cls.__name__, cls.get_simulation_time(), finite)

    # -- hooks of this package beyond the extension contract --

    @classmethod
    def _collision_pipeline_kwargs(cls, model: newton.Model) -> dict[str, Any]:
        """Keyword arguments of ``newton.CollisionPipeline(model, ...)`` from :attr:`NewtonCfg.collision_cfg`."""
        return collision_pipeline_kwargs(cls._cfg.collision_cfg, world_count=model.world_count)

    @classmethod
    def _allocate_observables(cls, requests: ObservableRequests) -> ObservableSchedule | None:
        """Allocate the observable container of ``requests`` from the solver (``None`` when nothing is requested).

        Runs after :meth:`_initialize_contacts` and before graph capture. A manager with several sub-solvers
        overrides it to route each kind to the sub-solver that produces it.

        Args:
            requests: The requests of every consumer, unioned (:meth:`request_observables`).
        """
        return allocate_schedule(
            NewtonManager._solver,
            requests,
            NewtonManager._contacts,
            solver_name=cls.__name__,
            pipeline=NewtonManager._collision_pipeline,
        )

    @classmethod
    def _solver_writes_joint_coordinates(cls) -> bool:
        """Whether the solver updates ``State.joint_q`` / ``joint_qd`` itself.

        Maximal-coordinate solvers (XPBD, VBD, semi-implicit) only advance bodies; for them the base manager
        re-derives joint coordinates with inverse kinematics after the substeps. Override when the guess from the
        solver type is wrong for a new solver. The guess reads the class names of the solver's type, so that the
        check imports none of those solvers' modules (VBD's alone takes seconds to import).
        """
        return not any(
            klass.__module__.startswith("newton.") and klass.__name__ in _MAXIMAL_COORDINATE_SOLVERS
            for klass in type(NewtonManager._solver).__mro__
        )

    @classmethod
    @contextmanager
    def _nested_solver_cfg(cls, solver_cfg: NewtonSolverCfg) -> Iterator[None]:
        """Run the hooks of a nested solver's manager with ``solver_cfg`` as the solver cfg they read.

        A coupler calls each entry manager's hooks (``_register_builder_attributes``,
        ``_prepare_builder_for_finalize``, ``_supports_cuda_graph_capture``) inside this context with that entry's
        cfg, so hooks written to read :meth:`get_solver_cfg` see their own solver's settings.
        """
        outer = NewtonManager._solver_cfg
        NewtonManager._solver_cfg = solver_cfg
        try:
            yield
        finally:
            NewtonManager._solver_cfg = outer

    # ------------------------------------------------------------------------------------------------
    # Internals
    # ------------------------------------------------------------------------------------------------

    @classmethod
    def _dispatch(cls) -> type[NewtonManager]:
        """The class whose hooks a public call runs: the simulation's manager where the call names NewtonManager.

        ``NewtonManager.apply_world_resets()`` (what assets call) then runs the active solver manager's
        ``_reset_solver_internals()``, as ``sim.physics_manager.apply_world_resets()`` would.
        """
        if cls is NewtonManager and cls._sim is not None:
            active = cls._sim.physics_manager
            if isinstance(active, type) and issubclass(active, NewtonManager):
                return active
        return cls

    @classmethod
    def _wants_folded_decimation(cls) -> bool:
        return bool(getattr(cls._cfg, "fold_decimation", False))

    @classmethod
    def _run_physics_steps(cls) -> None:
        """The work of one :meth:`step` call: one physics step, or the decimation loop when folded."""
        for _ in range(cls._physics_steps_per_call()):
            cls._simulate_physics_only()

    @classmethod
    def _physics_steps_per_call(cls) -> int:
        return NewtonManager._decimation if cls.handles_decimation() else 1

    @classmethod
    def _count_steps(cls, num_steps: int) -> None:
        NewtonManager._world_health.count_steps(num_steps, manager_name=cls.__name__)
        cls._check_solver_status()
        if cls._cfg.debug_mode:
            cls._log_solver_debug()

    @classmethod
    def _graph_unavailable_reason(cls) -> str | None:
        if not cls._supports_cuda_graph_capture():
            return f"{cls.__name__}._supports_cuda_graph_capture() is False"
        cfg = cls._cfg
        return _graph.graph_unavailable_reason(
            cls.get_device(),
            use_cuda_graph=bool(getattr(cfg, "use_cuda_graph", True)),
            use_cpu_graph=bool(getattr(cfg, "use_cpu_graph", True)),
        )

    @classmethod
    def _capture_graph(cls) -> None:
        """Capture the work of one :meth:`step` (eagerly, with the reason logged once, where it cannot be).

        Raises:
            RuntimeError: If the capture itself fails. A failed capture can leave solver buffers half-written, so
                the run does not go on eagerly with them; the message names the settings that step eagerly.
        """
        NewtonManager._graph = None
        reason = cls._graph_unavailable_reason()
        if reason is not None:
            _graph.report_eager_fallback(reason, NewtonManager._eager_reasons_logged)
            return
        try:
            captured = _graph.capture(cls._run_physics_steps, cls.get_device())
        except Exception as exc:
            flag = "use_cuda_graph" if wp.get_device(cls.get_device()).is_cuda else "use_cpu_graph"
            raise RuntimeError(
                f"Graph capture of {cls.__name__}'s substep loop failed ({type(exc).__name__}: {exc}); the solver may"
                f" be left half-initialized by the failed capture. Set NewtonCfg.{flag}=False to step eagerly, or make"
                f" {cls.__name__}._supports_cuda_graph_capture() return False for this solver."
            ) from exc
        NewtonManager._graph = captured

    @classmethod
    def _builder_from_stage_or_fail(cls) -> newton.ModelBuilder:
        stage = cls._sim.stage if cls._sim is not None else None
        if stage is not None and _stage_has_physics(stage):
            return cls.instantiate_builder_from_stage(stage)
        raise RuntimeError(
            "No Newton scene to simulate: call NewtonManager.set_builder(builder) / create_builder(), or author"
            " rigid bodies or articulations on the USD stage (or build an InteractiveScene) before sim.reset()."
        )

    @classmethod
    def _release_solver(cls) -> None:
        if NewtonManager._solver is not None or NewtonManager._model is not None:
            cls._solver_specific_clear()
        NewtonManager._drop_solver_state()

    @staticmethod
    def _drop_solver_state() -> None:
        """Empty the slots and what was made for the solver: graph, observables, collision pipeline, contacts."""
        for name in SLOT_NAMES:
            setattr(NewtonManager, name, None)
        NewtonManager._graph = None
        NewtonManager._graph_deferred = False
        NewtonManager._observable_schedule = None
        NewtonManager._substep_observables = None
        NewtonManager._collision_pipeline = None
        NewtonManager._contacts = None
        NewtonManager._simulation_started = False

    @staticmethod
    def _clear_scene() -> None:
        """Drop the scene, everything built from it (the solver too) and the observable requests."""
        NewtonManager._drop_solver_state()
        NewtonManager._builder = None
        NewtonManager._declared_prims = {}
        NewtonManager._model = None
        NewtonManager._scene_index = None
        NewtonManager._state_0 = None
        NewtonManager._state_1 = None
        NewtonManager._control = None
        NewtonManager._external_body_f = None
        NewtonManager._decimation = None
        NewtonManager._eager_actuators = {}
        NewtonManager._recording_env_step = False
        NewtonManager._recording_clocks = None
        NewtonManager._reset_world_mask = None
        NewtonManager._reset_pending = False
        NewtonManager._pending_fk = None
        NewtonManager._state_stamp += 1
        NewtonManager._world_health = None
        NewtonManager._observable_requests = ObservableRequests()


def _set_substep_observables(observables: Any) -> None:
    NewtonManager._substep_observables = observables


def _stage_has_physics(stage: Any) -> bool:
    from pxr import UsdPhysics

    for prim in stage.Traverse():
        if prim.HasAPI(UsdPhysics.RigidBodyAPI) or prim.HasAPI(UsdPhysics.ArticulationRootAPI):
            return True
    return False
