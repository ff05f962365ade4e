"""Manager running :class:`newton.solvers.SolverKamino`."""

from __future__ import annotations

import newton
from newton.solvers import SolverKamino

from .kamino_manager_cfg import KaminoSolverCfg
from .newton_manager import NewtonManager

_PADMM_FIELDS = ("padmm_max_iterations", "padmm_tolerance", "padmm_rho_0")


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

        padmm_set = [name for name in _PADMM_FIELDS if getattr(solver_cfg, name) is not None]
        if padmm_set and solver_cfg.dynamics_solver != "padmm":
            raise ValueError(
                f"KaminoSolverCfg fields {padmm_set} only apply to dynamics_solver='padmm', got"
                f" {solver_cfg.dynamics_solver!r}: unset them or switch the backend."
            )
        if solver_cfg.max_contacts_per_world is not None and not solver_cfg.use_collision_detector:
            raise ValueError(
                "KaminoSolverCfg.max_contacts_per_world sizes Kamino's own detector; set use_collision_detector=True,"
                " or size the manager's pipeline with NewtonCfg.collision_cfg.rigid_contact_max instead."
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
        if padmm_set:
            padmm = {}
            if solver_cfg.padmm_max_iterations is not None:
                padmm["max_iterations"] = solver_cfg.padmm_max_iterations
            if solver_cfg.padmm_tolerance is not None:
                for name in ("primal_tolerance", "dual_tolerance", "compl_tolerance"):
                    padmm[name] = solver_cfg.padmm_tolerance
            if solver_cfg.padmm_rho_0 is not None:
                padmm["rho_0"] = solver_cfg.padmm_rho_0
            kwargs["padmm"] = kamino_config.PADMMSolverConfig(**padmm)
        if solver_cfg.use_collision_detector:
            kwargs["collision_detector"] = kamino_config.CollisionDetectorConfig(
                max_contacts_per_world=solver_cfg.max_contacts_per_world
            )
        return SolverKamino.Config.from_model(model, **kwargs)

    @classmethod
    def _create_solver(cls, model: newton.Model, solver_cfg: KaminoSolverCfg) -> SolverKamino:
        return SolverKamino(model, config=cls._solver_config(model, solver_cfg))

    @classmethod
    def _build_solver(cls, model: newton.Model, solver_cfg: KaminoSolverCfg) -> None:
        collision_cfg = cls._cfg.collision_cfg if cls._cfg is not None else None
        if not solver_cfg.use_collision_detector and collision_cfg is not None and collision_cfg.rigid_contact_max:
            # Kamino sizes its contact conversion from model.rigid_contact_max; keep it equal to the pipeline's.
            model.rigid_contact_max = int(collision_cfg.rigid_contact_max)
        NewtonManager._solver = cls._create_solver(model, solver_cfg)
        NewtonManager._use_single_state = False
        NewtonManager._needs_collision_pipeline = not solver_cfg.use_collision_detector
        NewtonManager._supports_rigid_body_force_input = True
        preserve = SolverKamino.ResetConfig.preserve()
        for state in (NewtonManager._state_0, NewtonManager._state_1):
            NewtonManager._solver.reset(state, config=preserve)

    @classmethod
    def _register_builder_attributes(cls, builder: newton.ModelBuilder) -> None:
        SolverKamino.register_custom_attributes(builder)
