"""One physics step of the Newton manager: the substep loop, its graph, recorded env steps."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import newton
import numpy as np
import warp as wp
from isaaclab.physics import PhysicsManager

from . import graph as _graph
from .manager_state import NewtonManagerState
from .newton_solver_cfg import NewtonSolverCfg

if TYPE_CHECKING:
    from newton.solvers import SolverBase

logger = logging.getLogger(__name__)

_MAXIMAL_COORDINATE_SOLVERS = frozenset({"SolverSemiImplicit", "SolverVBD", "SolverXPBD"})
"""Newton solvers that advance bodies only (their ``State.joint_q`` / ``joint_qd`` are re-derived after a step)."""


class NewtonStepping(NewtonManagerState):
    """The stepping part of :class:`~.newton_manager.NewtonManager`.

    Substeps, graph capture and replay, recorded env steps, and the step hooks of the extension contract.
    """

    @classmethod
    def step(cls) -> None:
        """Advance the simulation by one physics step: pending resets and FK, then the substeps."""
        if NewtonManagerState._slots is None:
            raise RuntimeError("NewtonManager.step() called before the solver exists: call sim.reset() first.")
        recording = NewtonManagerState._recording_env_step
        cls.update_kinematics()
        schedule = NewtonManagerState._observable_schedule
        if schedule is not None:
            contacts = NewtonManagerState._contacts
            if contacts is None:  # a solver that owns its pipeline resolves its own contacts
                contacts = NewtonManagerState._slots.solver.contacts
            schedule.check_contacts(contacts, NewtonManagerState._collision_pipeline, NewtonManagerState._model)
        if NewtonManagerState._graph_deferred and not recording:
            NewtonManagerState._graph_deferred = False
            cls._capture_graph()
        if NewtonManagerState._graph is not None and not recording:
            _graph.launch(NewtonManagerState._graph)
        else:
            cls._simulate_physics_only()
        NewtonManagerState._state_stamp += 1
        PhysicsManager._sim_time += cls.get_physics_dt()
        if not recording:
            cls._count_steps(1)

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
        if NewtonManagerState._graph_deferred:
            raise RuntimeError("Step the simulation once before recording env steps: the substep graph is pending.")
        sim_time = PhysicsManager._sim_time
        clocks = _graph.ReplayedClocks()
        NewtonManagerState._recording_env_step = True
        NewtonManagerState._recording_clocks = clocks
        try:
            yield clocks
        finally:
            NewtonManagerState._recording_env_step = False
            NewtonManagerState._recording_clocks = None
            PhysicsManager._sim_time = sim_time
            NewtonManagerState._state_stamp += 1  # reads cached during the recording hold values never computed

    @classmethod
    def recording_clocks(cls) -> _graph.ReplayedClocks | None:
        """The clocks of the env step being recorded (work that stores a host time registers it), else ``None``."""
        return NewtonManagerState._recording_clocks

    @classmethod
    def note_replayed_steps(cls, num_steps: int) -> None:
        """Host bookkeeping of ``num_steps`` physics steps whose device work an enclosing graph replayed.

        Advances the simulation time, marks cached reads stale and advances the non-finite-world counter, as
        :meth:`step` does for each step it runs.

        Args:
            num_steps: Physics steps the replayed graph contains.
        """
        NewtonManagerState._state_stamp += 1
        PhysicsManager._sim_time += num_steps * cls.get_physics_dt()
        cls._count_steps(num_steps)

    @classmethod
    def _count_steps(cls, num_steps: int) -> None:
        NewtonManagerState._world_health.count_steps(num_steps, manager_name=cls.__name__)
        cls._check_solver_status()
        if cls._cfg.debug_mode:
            cls._log_solver_debug()

    @classmethod
    def uses_graph(cls) -> bool:
        """Whether steps replay a captured graph."""
        return NewtonManagerState._graph is not None

    @classmethod
    def cpu_graphs_enabled(cls) -> bool:
        """Whether Warp CPU graphs may be replayed on CPU (``NewtonCfg.use_cpu_graph``, on by default)."""
        return bool(getattr(cls._cfg, "use_cpu_graph", True))

    @classmethod
    def get_num_substeps(cls) -> int:
        """Return the number of solver substeps per physics step."""
        return NewtonManagerState._num_substeps

    @classmethod
    def get_solver_dt(cls) -> float:
        """Return the substep size [s]."""
        return NewtonManagerState._solver_dt

    @classmethod
    def _step_solver(
        cls,
        state_0: newton.State,
        state_1: newton.State,
        control: newton.Control,
        contacts: newton.Contacts | None,
        substep_dt: float,
        *,
        observables: SolverBase.Observables | None = None,
    ) -> None:
        """Advance one substep (:meth:`SolverSlots.step`). Override to wrap every substep while keeping the loop."""
        NewtonManagerState._slots.step(state_0, state_1, control, contacts, substep_dt, observables=observables)

    @classmethod
    def _simulate_physics_only(cls) -> None:
        """Run ``num_substeps`` solver substeps (collision, wrench restore, solver step, state swap)."""
        num_substeps = NewtonManagerState._num_substeps
        schedule = NewtonManagerState._observable_schedule
        pipeline = NewtonManagerState._collision_pipeline
        collision_every = int(cls._cfg.collision_decimation)
        slots = NewtonManagerState._slots
        external_f = NewtonManagerState._external_body_f if slots.supports_rigid_body_force_input else None
        for substep in range(num_substeps):
            state_0 = NewtonManagerState._state_0
            state_1 = state_0 if slots.use_single_state else NewtonManagerState._state_1
            if external_f is not None:
                wp.copy(state_0.body_f, external_f)
            if state_0.particle_f is not None:
                state_0.particle_f.zero_()
            if pipeline is not None and substep % collision_every == 0:
                pipeline.collide(state_0, NewtonManagerState._contacts)
            observables = None if schedule is None else schedule.for_substep(substep, num_substeps)
            cls._step_solver(
                state_0,
                state_1,
                NewtonManagerState._control,
                NewtonManagerState._contacts,
                NewtonManagerState._solver_dt,
                observables=observables,
            )
            if slots.use_single_state:
                continue
            if substep == num_substeps - 1 and num_substeps % 2 == 1:
                state_0.assign(state_1)
            else:
                NewtonManagerState._state_0, NewtonManagerState._state_1 = state_1, state_0
        model = NewtonManagerState._model
        if model.joint_count and not cls._solver_writes_joint_coordinates():
            # Maximal-coordinate solvers advance bodies only: re-derive joint coordinates so joint reads and
            # forward() (which runs FK from them) see the stepped state instead of the initial one.
            state = NewtonManagerState._state_0
            newton.eval_ik(model, state, state.joint_q, state.joint_qd)
        NewtonManagerState._world_health.flag(NewtonManagerState._state_0)

    @classmethod
    def _solver_writes_joint_coordinates(cls) -> bool:
        """Whether the solver updates ``State.joint_q`` / ``joint_qd`` itself.

        Maximal-coordinate solvers (XPBD, VBD, semi-implicit) only advance bodies; for them the base manager
        re-derives joint coordinates with inverse kinematics after the substeps. Override when the default guess
        from the solver type is wrong for a new solver. The guess reads the class names of the solver's type, so
        that the check imports none of those solvers' modules (VBD's alone takes seconds to import).
        """
        solver_type = type(NewtonManagerState._slots.solver)
        return not any(
            klass.__module__.startswith("newton.") and klass.__name__ in _MAXIMAL_COORDINATE_SOLVERS
            for klass in solver_type.__mro__
        )

    @classmethod
    def _supports_cuda_graph_capture(cls, solver_cfg: NewtonSolverCfg) -> bool:
        """Whether the substep loop of this solver can be captured in a graph."""
        return True

    @classmethod
    def _requires_initial_reset_before_graph_capture(cls) -> bool:
        """Whether capture must wait until the first post-reset step."""
        return False

    @classmethod
    def _check_solver_status(cls) -> None:
        """Inspect solver status after a step (must not synchronize unless debugging)."""

    @classmethod
    def _log_solver_debug(cls) -> None:
        """Log solver diagnostics after a step when ``NewtonCfg.debug_mode`` is set."""
        state = NewtonManagerState._state_0
        if state is not None and state.body_q is not None and state.body_q.shape[0]:
            finite = bool(np.isfinite(state.body_q.numpy()).all())
            logger.debug("[%s] t=%.4f s, body_q finite: %s", cls.__name__, cls.get_simulation_time(), finite)

    @classmethod
    def _graph_unavailable_reason(cls) -> str | None:
        if not cls._supports_cuda_graph_capture(NewtonManagerState._solver_cfg):
            return f"{cls.__name__}._supports_cuda_graph_capture() is False"
        cfg = cls._cfg
        return _graph.graph_unavailable_reason(
            cls.get_device(),
            use_cuda_graph=bool(getattr(cfg, "use_cuda_graph", True)),
            use_cpu_graph=bool(getattr(cfg, "use_cpu_graph", True)),
        )

    @classmethod
    def _capture_graph(cls) -> None:
        """Capture the substep loop of one physics step (eagerly, with the reason logged once, where it cannot be).

        Raises:
            RuntimeError: If the capture itself fails. A failed capture can leave solver buffers half-written, so
                the run does not go on eagerly with them; the message names the settings that step eagerly.
        """
        NewtonManagerState._graph = None
        reason = cls._graph_unavailable_reason()
        if reason is not None:
            _graph.report_eager_fallback(reason, NewtonManagerState._eager_reasons_logged)
            return

        try:
            captured = _graph.capture(cls._simulate_physics_only, cls.get_device())
        except Exception as exc:
            flag = "use_cuda_graph" if wp.get_device(cls.get_device()).is_cuda else "use_cpu_graph"
            raise RuntimeError(
                f"Graph capture of {cls.__name__}'s substep loop failed ({type(exc).__name__}: {exc}); the solver may"
                f" be left half-initialized by the failed capture. Set NewtonCfg.{flag}=False to step eagerly, or make"
                f" {cls.__name__}._supports_cuda_graph_capture() return False for this solver."
            ) from exc
        NewtonManagerState._graph = captured
