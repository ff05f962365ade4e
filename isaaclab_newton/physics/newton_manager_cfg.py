"""Configuration classes for :class:`~isaaclab_newton.physics.NewtonManager`."""

from __future__ import annotations

import math
import numbers
from typing import TYPE_CHECKING, Any, Literal

from isaaclab.physics import PhysicsCfg
from isaaclab.utils import configclass

from .builder_defaults_cfg import NewtonShapeCfg, NewtonSoftContactCfg
from .mjwarp_manager_cfg import MJWarpSolverCfg
from .newton_solver_cfg import NewtonSolverCfg, cfg_kwargs

if TYPE_CHECKING:
    from .newton_manager import NewtonManager


@configclass
class NewtonCollisionPipelineCfg:
    """Settings of the :class:`newton.CollisionPipeline` owned by the manager.

    Each set field is passed to ``newton.CollisionPipeline`` under the same name; ``None`` keeps Newton's
    default. Only used when the active solver manager sets ``_needs_collision_pipeline`` (e.g.
    ``MJWarpSolverCfg(use_mujoco_contacts=False)``, XPBD, Kamino without its own detector).
    """

    rigid_contact_max: int | None = None
    """Capacity of rigid-rigid contact slots. ``None`` lets Newton estimate it from the model."""

    soft_contact_max: int | None = None
    """Capacity of particle-shape contact slots. ``None`` lets Newton estimate it from the model."""

    soft_contact_margin: float | None = None
    """Margin [m] at which particle-shape contacts are generated. ``None`` keeps Newton's default."""

    broad_phase: Literal["nxn", "sap", "explicit"] | None = None
    """Broad-phase algorithm. ``None`` keeps Newton's default."""

    reduce_contacts: bool = True
    """Whether to reduce mesh-mesh contacts."""

    max_triangle_pairs: int | None = None
    """Capacity of the mesh triangle-pair buffer of the narrow phase. ``None`` keeps Newton's default (an estimate).

    Pairs past the capacity are dropped (Newton prints ``Triangle pair buffer overflowed`` from the device), and with
    them the contacts they would give. Exclusive with :attr:`max_triangle_pairs_per_world`."""

    max_triangle_pairs_per_world: int | None = None
    """Capacity of the triangle-pair buffer per world: the pipeline gets this times the model's world count, so one
    setting fits every env count (the Go1 on core's rough terrain meets about 600 pairs per world with Newton's 10 cm
    shape gap, about 25 with a 1 cm gap). Exclusive with :attr:`max_triangle_pairs`."""

    enable_rigid_soft_full_surface_contact: bool = False
    """Generate particle contacts against the whole surface of rigid shapes, not only the closest point."""


@configclass
class NewtonCfg(PhysicsCfg):
    """Configuration of the Newton physics backend.

    The solver is chosen through :attr:`solver_cfg`; its ``class_type`` is copied into
    :attr:`class_type` so that the simulation context instantiates the matching manager.
    """

    class_type: type[NewtonManager] | Any = None
    """Physics manager class. Copied from :attr:`solver_cfg` in ``__post_init__``; do not set it by hand."""

    solver_cfg: NewtonSolverCfg = None
    """Solver configuration. Defaults to MuJoCo Warp (:class:`MJWarpSolverCfg`)."""

    num_substeps: int = 1
    """Solver substeps per physics step. The substep size is ``sim.dt / num_substeps`` [s]."""

    use_cuda_graph: bool = True
    """Capture the substep loop in a CUDA graph on CUDA devices when the solver supports it."""

    use_cpu_graph: bool = True
    """Capture and replay the substep loop with Warp's CPU graphs on CPU devices.

    Replaying removes the Python and launch overhead of the substep loop (the direct cartpole at 64 CPU envs
    steps about 6x faster) and gives the same results as eager execution, bit for bit, for every solver that can
    be captured (``test/physics/test_cpu_graph.py``). Set ``False`` to step eagerly, e.g. to debug a solver;
    solvers that cannot be captured (MPM) always step eagerly.
    """

    fold_decimation: bool = False
    """Let :meth:`NewtonManager.step` run the env's whole decimation loop (one graph per env step).

    Takes effect when the env announces its decimation (``set_decimation``, called by Isaac Lab's envs after the
    first reset) and every articulation's actuators run in the solver (implicit PD: their targets stay in
    ``Control`` for the whole env step). The env then writes actions once and steps the simulation once per env
    step, and sensors update once per env step with the env step's ``dt``. Explicit actuator models need the
    joint state of every physics step, so an articulation with one keeps the env-driven loop (logged once).
    """

    collision_cfg: NewtonCollisionPipelineCfg = NewtonCollisionPipelineCfg()
    """Collision pipeline settings."""

    collision_decimation: int = 1
    """Run collision detection on every ``collision_decimation``-th substep, counted from the first substep of
    each physics step (1 = every substep). Contacts found are reused by the substeps in between."""

    default_shape_cfg: NewtonShapeCfg = NewtonShapeCfg()
    """Contact and material defaults of shapes the builder creates without authored values."""

    soft_contact_cfg: NewtonSoftContactCfg = NewtonSoftContactCfg()
    """Particle-shape contact parameters written on the finalized model."""

    load_visual_shapes: bool = True
    """Import visual-only shapes (USD and MJCF). ``False`` keeps only collision shapes in the model."""

    bvh_constructor_geometry: str | None = None
    """Warp BVH constructor of mesh geometry (``"sah"``, ``"median"``, ``"lbvh"``, ``"cubql"``)."""

    bvh_constructor_gaussian: str | None = None
    """Warp BVH constructor of Gaussian-splat geometry."""

    bvh_constructor_scene: str | None = None
    """Warp BVH constructor of the per-world shape BVH."""

    observables: tuple[str, ...] = ()
    """Solver observable kinds the task always wants, written on the final substep of each step."""

    observables_every_substep: tuple[str, ...] = ()
    """Solver observable kinds the task wants written on every substep."""

    nonfinite_log_interval: int = 100
    """Physics steps between the host copies of the non-finite world flags.

    Every step flags, on the device, the worlds whose body or joint state is not finite; the flags accumulate
    there, and every ``nonfinite_log_interval`` steps the manager copies them to the host (on CUDA asynchronously,
    read once landed: no host sync) and logs a warning with the count and the first world ids. See
    :meth:`NewtonManager.get_nonfinite_worlds`.
    """

    nonfinite_speed_limit: float = 1.0e4
    """Speed [m/s or rad/s] above which a world's state counts as diverged and the world is flagged as non-finite.

    A solver that diverges passes through huge finite velocities before it reaches inf; rewards of such a world
    (e.g. a joint-velocity penalty of 1e16) wreck a training run before any NaN appears. A body's linear [m/s] or
    angular [rad/s] velocity, or a joint velocity, above this limit flags its world like a NaN does (the
    ``nonfinite_state`` termination resets it). ``math.inf`` checks finiteness only.
    """

    debug_mode: bool = False
    """Log solver diagnostics after every step (slow: synchronizes with the device)."""

    def __post_init__(self):
        if self.solver_cfg is None:
            self.solver_cfg = MJWarpSolverCfg()
        if not isinstance(self.solver_cfg, NewtonSolverCfg):
            raise TypeError(
                f"NewtonCfg.solver_cfg must be a NewtonSolverCfg (e.g. MJWarpSolverCfg()), got"
                f" {type(self.solver_cfg).__name__}."
            )
        if self.solver_cfg.class_type is None:
            raise ValueError(
                f"{type(self.solver_cfg).__name__}.class_type is not set: point it at the NewtonManager subclass"
                " that builds the solver, e.g. '{DIR}.my_solver_manager:NewtonMySolverManager'."
            )
        if isinstance(self.observables, str) or isinstance(self.observables_every_substep, str):
            raise TypeError("NewtonCfg.observables must be a collection of kind strings, e.g. ('body_qdd',).")
        if self.collision_decimation < 1:
            raise ValueError(f"NewtonCfg.collision_decimation must be >= 1, got {self.collision_decimation}.")
        check_num_substeps(self.num_substeps)
        check_nonfinite_log_interval(self.nonfinite_log_interval)
        check_nonfinite_speed_limit(self.nonfinite_speed_limit)
        self.class_type = self.solver_cfg.class_type


def check_num_substeps(value: Any) -> int:
    """Return ``value`` as an int when it is a valid :attr:`NewtonCfg.num_substeps`.

    Raises:
        ValueError: If it is not an integer >= 1.
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
        raise ValueError(
            f"NewtonCfg.num_substeps must be an integer >= 1 (solver substeps per physics step), got {value!r};"
            " set e.g. NewtonCfg(num_substeps=2)."
        )
    return int(value)


def check_physics_dt(value: Any) -> float:
    """Return ``value`` as a float when it is a valid physics time step [s].

    Raises:
        ValueError: If it is not a finite number > 0.
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value) or value <= 0:
        raise ValueError(
            f"SimulationCfg.dt must be a finite physics time step > 0 s, got {value!r}; set e.g."
            " SimulationCfg(dt=1 / 120)."
        )
    return float(value)


def check_nonfinite_log_interval(value: Any) -> int:
    """Return ``value`` as an int when it is a valid :attr:`NewtonCfg.nonfinite_log_interval`.

    Raises:
        ValueError: If it is not an integer >= 1.
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
        raise ValueError(
            f"NewtonCfg.nonfinite_log_interval must be an integer >= 1 (physics steps between host reads of the"
            f" non-finite world flags), got {value!r}."
        )
    return int(value)


def check_nonfinite_speed_limit(value: Any) -> float:
    """Return ``value`` as a float when it is a valid :attr:`NewtonCfg.nonfinite_speed_limit`.

    Raises:
        ValueError: If it is not a number > 0 (``math.inf`` allowed).
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not value > 0:
        raise ValueError(
            f"NewtonCfg.nonfinite_speed_limit must be a speed > 0 [m/s or rad/s] (math.inf: finiteness only), got"
            f" {value!r}; set e.g. NewtonCfg(nonfinite_speed_limit=1.0e4)."
        )
    return float(value)


_PIPELINE_FIELDS = ("reduce_contacts", "enable_rigid_soft_full_surface_contact")
_PIPELINE_OPTIONAL_FIELDS = (
    "rigid_contact_max",
    "soft_contact_max",
    "soft_contact_margin",
    "broad_phase",
    "max_triangle_pairs",
)


def collision_pipeline_kwargs(cfg: NewtonCollisionPipelineCfg, *, world_count: int) -> dict[str, Any]:
    """Keyword arguments of ``newton.CollisionPipeline`` from ``cfg`` (the optional fields only where set).

    Args:
        cfg: The pipeline settings.
        world_count: Worlds of the model the pipeline collides (scales :attr:`~NewtonCollisionPipelineCfg.
            max_triangle_pairs_per_world`).

    Raises:
        ValueError: If both triangle-pair capacities are set, or the per-world one is below 1.
    """
    kwargs = cfg_kwargs(cfg, _PIPELINE_FIELDS, optional=_PIPELINE_OPTIONAL_FIELDS)
    per_world = cfg.max_triangle_pairs_per_world
    if per_world is None:
        return kwargs
    if cfg.max_triangle_pairs is not None:
        raise ValueError(
            f"NewtonCollisionPipelineCfg sets both max_triangle_pairs={cfg.max_triangle_pairs} and"
            f" max_triangle_pairs_per_world={per_world}; set one of them (the other to None)."
        )
    if per_world < 1:
        raise ValueError(f"NewtonCollisionPipelineCfg.max_triangle_pairs_per_world must be >= 1, got {per_world}.")
    kwargs["max_triangle_pairs"] = int(per_world) * max(int(world_count), 1)
    return kwargs
