"""Class-level physics manager that runs Newton solvers inside Isaac Lab's simulation context."""

from __future__ import annotations

import logging
from abc import abstractmethod
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import newton
import warp as wp
from isaaclab.physics import PhysicsEvent, PhysicsManager

from .builder_defaults import apply_builder_defaults, apply_soft_contact
from .manager_observables import NewtonObservables
from .manager_resets import NewtonResets
from .manager_state import NewtonManagerState
from .manager_stepping import NewtonStepping
from .newton_manager_cfg import (
    NewtonCfg,
    check_nonfinite_log_interval,
    check_num_substeps,
    check_physics_dt,
    collision_pipeline_kwargs,
)
from .newton_solver_cfg import NewtonSolverCfg
from .pending_kinematics import PendingKinematics
from .scene_data import NewtonSceneDataBackend
from .scene_index import PrimEntities, SceneIndex
from .solver_slots import SolverSlots, check_slots
from .world_health import WorldHealth

if TYPE_CHECKING:
    from isaaclab.sim import SimulationContext
    from newton.solvers import SolverBase

logger = logging.getLogger(__name__)


class NewtonManager(NewtonStepping, NewtonResets, NewtonObservables):
    """Newton physics manager: owns the model, states, contacts and the substep loop.

    All state lives on :class:`~.manager_state.NewtonManagerState`; the stepping, resets and observables parts are the
    classes this one is composed of (``manager_stepping.py``, ``manager_resets.py``, ``manager_observables.py``).
    Subclasses (one per Newton solver, e.g. ``NewtonMJWarpManager``) build the
    solver in :meth:`_build_solver`, which returns a :class:`~.solver_slots.SolverSlots` (the solver and how the
    substep loop drives it). Every hook receives the solver cfg it needs as an argument.

    Public lifecycle, in order: :meth:`initialize`, :meth:`create_builder` / :meth:`set_builder` /
    :meth:`instantiate_builder_from_stage`, :meth:`start_simulation`, :meth:`initialize_solver`,
    :meth:`reset`, :meth:`step`, :meth:`forward`, :meth:`pre_render`, :meth:`close` / :meth:`clear`.
    """

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
        NewtonManagerState._clear_scene()
        NewtonManagerState._gravity = tuple(float(g) for g in sim_context.cfg.gravity)
        NewtonManagerState._solver_cfg = cfg.solver_cfg
        NewtonManagerState._num_substeps = check_num_substeps(cfg.num_substeps)
        check_physics_dt(sim_context.cfg.dt)
        if cfg.observables:
            NewtonManagerState._observable_requests.add(cfg.observables)
        if cfg.observables_every_substep:
            NewtonManagerState._observable_requests.add(cfg.observables_every_substep, every_substep=True)
        NewtonManagerState._scene_data_backend = NewtonSceneDataBackend(cls)

    @classmethod
    def create_builder(cls) -> newton.ModelBuilder:
        """Create an empty builder with the simulation's gravity and register solver attributes.

        Returns:
            The new builder, also stored as the manager's builder.
        """
        builder = newton.ModelBuilder(up_axis=newton.Axis.Z, gravity=cls._gravity)
        if isinstance(cls._cfg, NewtonCfg):
            apply_builder_defaults(builder, cls._cfg)
        cls._register_builder_attributes(builder, NewtonManagerState._solver_cfg)
        NewtonManagerState._builder = builder
        NewtonManagerState._declared_prims = {}
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
        NewtonManagerState._builder = builder
        NewtonManagerState._declared_prims = dict(prims or {})

    @classmethod
    def get_builder(cls) -> newton.ModelBuilder | None:
        """Return the builder the next hard reset finalizes (``None`` before one is created or set)."""
        return NewtonManagerState._builder

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
        if NewtonManagerState._builder is None:
            NewtonManagerState._builder = cls._builder_from_stage_or_fail()
        builder = NewtonManagerState._builder
        cls.dispatch_event(PhysicsEvent.MODEL_INIT, builder)
        cls._register_builder_attributes(builder, NewtonManagerState._solver_cfg)
        cls._prepare_builder_for_finalize(builder, NewtonManagerState._solver_cfg)
        model = builder.finalize(device=cls.get_device())
        model.set_gravity(cls._gravity)
        apply_soft_contact(model, cls._cfg)
        NewtonManagerState._model = model
        NewtonManagerState._scene_index = SceneIndex(model, NewtonManagerState._declared_prims)
        NewtonManagerState._state_0 = model.state()
        NewtonManagerState._state_1 = model.state()
        NewtonManagerState._control = model.control()
        newton.eval_fk(model, model.joint_q, model.joint_qd, NewtonManagerState._state_0)
        NewtonManagerState._state_1.assign(NewtonManagerState._state_0)
        NewtonManagerState._external_body_f = (
            wp.zeros_like(NewtonManagerState._state_0.body_f) if model.body_count else None
        )
        NewtonManagerState._reset_world_mask = wp.zeros(model.world_count + 1, dtype=wp.bool, device=model.device)
        NewtonManagerState._reset_pending = False
        NewtonManagerState._pending_fk = PendingKinematics(model)
        NewtonManagerState._state_stamp += 1
        interval = check_nonfinite_log_interval(cls._cfg.nonfinite_log_interval)
        NewtonManagerState._world_health = WorldHealth(model, log_interval=interval)
        PhysicsManager._sim_time = 0.0
        NewtonManagerState._simulation_started = True
        cls.dispatch_event(PhysicsEvent.PHYSICS_READY, model)

    @classmethod
    def initialize_solver(cls) -> None:
        """Build the solver, check its slots, allocate contacts and observables, then capture the graph."""
        if NewtonManagerState._model is None:
            raise RuntimeError("initialize_solver() needs a finalized model: call start_simulation() first.")
        NewtonManagerState._slots = None
        solver_cfg = NewtonManagerState._solver_cfg
        NewtonManagerState._slots = check_slots(cls.__name__, cls._build_solver(NewtonManagerState._model, solver_cfg))
        # Re-read the stepping settings: they may have been changed on the cfg since construction.
        dt = check_physics_dt(cls.get_physics_dt())
        NewtonManagerState._num_substeps = check_num_substeps(cls._cfg.num_substeps)
        NewtonManagerState._solver_dt = dt / NewtonManagerState._num_substeps
        NewtonManagerState._collision_pipeline, NewtonManagerState._contacts = cls._initialize_contacts(solver_cfg)
        try:
            NewtonManagerState._observable_schedule = cls._allocate_observables(NewtonManagerState._observable_requests)
        except Exception:
            # Do not leave a solver that would step without the requested observables.
            cls._release_solver()
            raise
        NewtonManagerState._graph = None
        NewtonManagerState._graph_deferred = cls._requires_initial_reset_before_graph_capture()
        if not NewtonManagerState._graph_deferred:
            cls._capture_graph()

    @classmethod
    def reset(cls, soft: bool = False) -> None:
        """Reset the simulation.

        A hard reset re-finalizes the model from the builder and rebuilds solver, contacts, observables and
        graph; a soft reset keeps all of them (it only applies pending per-world resets).

        Args:
            soft: Keep model, solver, contacts and graph.
        """
        if soft and NewtonManagerState._slots is not None:
            cls.update_kinematics()
            return
        if NewtonManagerState._simulation_started:
            cls.dispatch_event(PhysicsEvent.STOP)
            cls._release_solver()
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
        cls._release_solver()
        NewtonManagerState._clear_scene()

    @classmethod
    def get_model(cls) -> newton.Model | None:
        """Return the finalized model."""
        return NewtonManagerState._model

    @classmethod
    def get_scene_index(cls) -> SceneIndex:
        """Return the index of which model entities belong to which prim in which world.

        Raises:
            RuntimeError: If the model is not finalized yet (before ``sim.reset()``).
        """
        if NewtonManagerState._scene_index is None:
            raise RuntimeError("The scene index exists once the model is finalized: call sim.reset() first.")
        return NewtonManagerState._scene_index

    @classmethod
    def get_state_0(cls) -> newton.State | None:
        """Return the current state (the result of the last step)."""
        return NewtonManagerState._state_0

    @classmethod
    def get_state_1(cls) -> newton.State | None:
        """Return the scratch output state (``None`` for single-state solvers' purposes, still allocated)."""
        return NewtonManagerState._state_1

    @classmethod
    def get_control(cls) -> newton.Control | None:
        """Return the control the solver reads."""
        return NewtonManagerState._control

    @classmethod
    def get_contacts(cls) -> newton.Contacts | None:
        """Return the contacts passed to the solver."""
        return NewtonManagerState._contacts

    @classmethod
    def get_collision_pipeline(cls) -> newton.CollisionPipeline | None:
        """Return the collision pipeline the manager runs before the substeps (``None`` where the solver collides
        itself or has no contacts)."""
        return NewtonManagerState._collision_pipeline

    @classmethod
    def get_solver(cls) -> SolverBase | None:
        """Return the active solver (``None`` before ``sim.reset()``)."""
        slots = NewtonManagerState._slots
        return None if slots is None else slots.solver

    @classmethod
    def get_solver_slots(cls) -> SolverSlots | None:
        """Return what the solver manager's ``_build_solver`` returned (``None`` before ``sim.reset()``)."""
        return NewtonManagerState._slots

    @classmethod
    def get_solver_cfg(cls) -> NewtonSolverCfg | None:
        """Return the solver configuration of :attr:`NewtonCfg.solver_cfg` (``None`` before ``initialize``)."""
        return NewtonManagerState._solver_cfg

    @classmethod
    def get_gravity(cls) -> tuple[float, float, float]:
        """Return the gravity vector [m/s^2] of the simulation (``SimulationCfg.gravity``)."""
        return NewtonManagerState._gravity

    @classmethod
    def get_external_wrench(cls) -> wp.array | None:
        """Return the per-body external wrench buffer applied on every substep.

        Layout matches ``State.body_f``: world-frame spatial vector (force [N], torque [N m]) at the body's
        center of mass. Values persist until overwritten.

        Raises:
            RuntimeError: If the solver does not consume ``State.body_f``.
        """
        slots = NewtonManagerState._slots
        if slots is not None and not slots.supports_rigid_body_force_input:
            raise RuntimeError(
                f"{type(slots.solver).__name__} ignores State.body_f; external wrenches cannot be applied."
                " Pick a solver whose manager returns SolverSlots(supports_rigid_body_force_input=True) (e.g. MuJoCo"
                " Warp, XPBD)."
            )
        return NewtonManagerState._external_body_f

    @classmethod
    def load_visual_shapes(cls) -> bool:
        """Whether importers add visual-only shapes (:attr:`NewtonCfg.load_visual_shapes`; ``True`` without a cfg)."""
        return bool(cls._cfg.load_visual_shapes) if isinstance(cls._cfg, NewtonCfg) else True

    @classmethod
    def get_scene_data_backend(cls):
        """Return the scene data backend publishing body transforms."""
        return NewtonManagerState._scene_data_backend

    @classmethod
    def video_capture_backend(cls) -> str | None:
        """Newton renders perspective video with its GL viewer."""
        return "newton_gl"

    @classmethod
    @abstractmethod
    def _build_solver(cls, model: newton.Model, solver_cfg: NewtonSolverCfg) -> SolverSlots:
        """Construct the solver on the finalized ``model`` and return it with its slot settings.

        Raise here on unsupported configurations rather than degrading silently.

        Args:
            model: The finalized model (its states exist: :meth:`get_state_0`, :meth:`get_state_1`).
            solver_cfg: The solver configuration (:attr:`NewtonCfg.solver_cfg`).

        Returns:
            The solver and how the substep loop drives it.
        """

    @classmethod
    def _create_solver(cls, model: newton.Model, solver_cfg: NewtonSolverCfg) -> SolverBase:
        """Construct and return a solver without touching manager state (lets couplers nest solvers)."""
        raise NotImplementedError(f"{cls.__name__} does not implement _create_solver().")

    @classmethod
    def _initialize_contacts(
        cls, solver_cfg: NewtonSolverCfg
    ) -> tuple[newton.CollisionPipeline | None, newton.Contacts | None]:
        """Return the collision pipeline the manager runs and the contacts it passes to the solver.

        The default creates a pipeline (and its contacts) when the solver's slots ask for one, else neither.
        """
        if not NewtonManagerState._slots.needs_collision_pipeline:
            return None, None
        pipeline = newton.CollisionPipeline(NewtonManagerState._model, **cls._collision_pipeline_kwargs(solver_cfg))
        return pipeline, pipeline.contacts()

    @classmethod
    def _collision_pipeline_kwargs(cls, solver_cfg: NewtonSolverCfg) -> dict[str, Any]:
        """Keyword arguments of ``newton.CollisionPipeline`` from :attr:`NewtonCfg.collision_cfg` (set fields only)."""
        return collision_pipeline_kwargs(cls._cfg.collision_cfg, world_count=NewtonManagerState._model.world_count)

    @classmethod
    def _register_builder_attributes(cls, builder: newton.ModelBuilder, solver_cfg: NewtonSolverCfg | None) -> None:
        """Register Newton custom attributes the solver needs (before particles are added and finalize).

        ``solver_cfg`` is ``None`` for a builder created before the manager was initialized.
        """

    @classmethod
    def _prepare_builder_for_finalize(cls, builder: newton.ModelBuilder, solver_cfg: NewtonSolverCfg) -> None:
        """Normalize imported or replicated builder data right before ``finalize()``."""

    @classmethod
    def _solver_specific_clear(cls) -> None:
        """Release class-level state owned by the subclass."""

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
        if NewtonManagerState._slots is not None or NewtonManagerState._model is not None:
            cls._solver_specific_clear()
        NewtonManagerState._drop_solver_state()


def _stage_has_physics(stage: Any) -> bool:
    from pxr import UsdPhysics

    for prim in stage.Traverse():
        if prim.HasAPI(UsdPhysics.RigidBodyAPI) or prim.HasAPI(UsdPhysics.ArticulationRootAPI):
            return True
    return False
