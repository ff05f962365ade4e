"""Manager running :class:`newton.solvers.SolverKamino`."""

from __future__ import annotations

import dataclasses

import newton
from newton.solvers import SolverKamino

from .kamino_manager_cfg import KaminoSolverCfg
from .newton_manager import NewtonManager


class NewtonKaminoManager(NewtonManager):
    """Runs Kamino, double-buffered, with wrenches from ``State.body_f``.

    Contacts come from the manager's Newton collision pipeline unless ``use_collision_detector`` selects Kamino's
    own detector, in which case the manager owns no pipeline. Kamino attaches per-state scratch buffers the first
    time it sees a ``State``; :meth:`_build_solver` primes both states so no allocation lands inside a captured
    graph, which is why Kamino needs no deferred capture.
    """

    @classmethod
    def _solver_config(cls, model: newton.Model, solver_cfg: KaminoSolverCfg) -> SolverKamino.Config:
        from newton._src.solvers.kamino import config as kamino_config

        if solver_cfg.dynamics_solver_cfg is not None and solver_cfg.dynamics_solver != "padmm":
            raise ValueError(
                f"KaminoSolverCfg.dynamics_solver_cfg is a KaminoPADMMCfg, which only applies to"
                f" dynamics_solver='padmm', got {solver_cfg.dynamics_solver!r}: unset it or switch the backend."
            )
        if solver_cfg.integrator == "moreau" and not solver_cfg.use_collision_detector:
            raise ValueError("KaminoSolverCfg(integrator='moreau') needs use_collision_detector=True.")
        kwargs = {
            "dynamics_solver": solver_cfg.dynamics_solver,
            "sparse_jacobian": solver_cfg.sparse_jacobian,
            "sparse_dynamics": solver_cfg.sparse_dynamics,
            "use_collision_detector": solver_cfg.use_collision_detector,
            "use_fk_solver": solver_cfg.use_fk_solver,
            "integrator": solver_cfg.integrator,
            "rotation_correction": solver_cfg.rotation_correction,
            "angular_velocity_damping": solver_cfg.angular_velocity_damping,
        }
        if solver_cfg.use_collision_detector:
            kwargs["collision_detector"] = kamino_config.CollisionDetectorConfig(
                max_contacts_per_world=solver_cfg.max_contacts_per_world
            )
        config = SolverKamino.Config.from_model(model, **kwargs)
        if solver_cfg.dynamics_solver_cfg is not None:
            # Kamino's from_model() lets the model's (registered or USD-authored) PADMM attributes win over kwargs;
            # values set on the task's configuration must win, so they are written after it.
            padmm = solver_cfg.dynamics_solver_cfg
            for field in dataclasses.fields(padmm):
                value = getattr(padmm, field.name)
                if value is not None:
                    setattr(config.padmm, field.name, value)
            config.padmm.validate()
        return config

    @classmethod
    def _create_solver(cls, model: newton.Model, solver_cfg: KaminoSolverCfg) -> SolverKamino:
        return SolverKamino(model, config=cls._solver_config(model, solver_cfg))

    @classmethod
    def _build_solver(cls, model: newton.Model, solver_cfg: KaminoSolverCfg) -> None:
        if not solver_cfg.use_collision_detector:
            capacity = cls._pipeline_contact_capacity(model, solver_cfg)
            if capacity is not None:
                # Kamino sizes its contact conversion from model.rigid_contact_max; keep it equal to the pipeline's.
                model.rigid_contact_max = capacity
        solver = cls._create_solver(model, solver_cfg)
        preserve = SolverKamino.ResetConfig.preserve()
        for state in (NewtonManager._state_0, NewtonManager._state_1):
            solver.reset(state, config=preserve)
        NewtonManager._solver = solver
        NewtonManager._use_single_state = False
        NewtonManager._needs_collision_pipeline = not solver_cfg.use_collision_detector
        NewtonManager._supports_rigid_body_force_input = True

    @classmethod
    def _pipeline_contact_capacity(cls, model: newton.Model, solver_cfg: KaminoSolverCfg) -> int | None:
        """Rigid contact capacity of the manager's pipeline, from ``collision_cfg`` or ``max_contacts_per_world``."""
        collision_cfg = cls._cfg.collision_cfg
        total = collision_cfg.rigid_contact_max if collision_cfg is not None else None
        per_world = solver_cfg.max_contacts_per_world
        if per_world is not None and total is not None:
            raise ValueError(
                "KaminoSolverCfg.max_contacts_per_world and NewtonCfg.collision_cfg.rigid_contact_max both size the"
                " manager's collision pipeline: set only one."
            )
        if per_world is not None:
            return int(per_world) * max(int(model.world_count), 1)
        return None if total is None else int(total)

    @classmethod
    def _collision_pipeline_kwargs(cls, model: newton.Model) -> dict:
        kwargs = super()._collision_pipeline_kwargs(model)
        capacity = cls._pipeline_contact_capacity(model, NewtonManager.get_solver_cfg())
        if capacity is not None:
            kwargs["rigid_contact_max"] = capacity
        return kwargs

    @classmethod
    def _register_builder_attributes(cls, builder: newton.ModelBuilder) -> None:
        SolverKamino.register_custom_attributes(builder)
