"""Manager running Newton's partitioned couplers (proxy or ADMM) over entries selected from the scene."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import newton
from isaaclab.utils.string import string_to_callable
from newton.solvers.experimental.coupled import SolverCoupled, SolverCoupledADMM, SolverCoupledProxy

from isaaclab_newton.physics import NewtonManager, NewtonSolverCfg
from isaaclab_newton.physics.mujoco_substep import clear_rne_switch
from isaaclab_newton.physics.newton_manager_cfg import collision_pipeline_kwargs
from isaaclab_newton.physics.observables import ObservableRequests, ObservableSchedule, is_contact_indexed

from .coupler_cfg import CouplerAdmmCfg, CouplerEntryCfg, CouplerProxyCfg, CouplerProxyMappingCfg
from .selection import EntryOwnership, deformable_particles, match_labels, resolve_entries

if TYPE_CHECKING:
    from newton.solvers import SolverBase
    from newton.solvers.experimental.coupled import ModelView

_CONTACT_REFUSAL = (
    "SolverCoupled exposes no contact observables: each entry filters the shared contacts, and Newton 1.8 defines"
    " no contact-index remapping from entry-local rows back to the shared contact rows."
)


class NewtonCouplerManager(NewtonManager):
    """Builds :class:`SolverCoupledProxy` (from :class:`CouplerProxyCfg`) or :class:`SolverCoupledADMM` (from
    :class:`CouplerAdmmCfg`) on the shared model.

    Each entry's solver is made by its own solver configuration's manager class through ``_create_solver()`` on
    the entry's model view; builder hooks of those managers (MuJoCo attributes, VBD coloring) run too. The
    manager owns the shared collision pipeline. Body observables pass through where every body-owning entry
    supports them; contact observables are refused. Per-world resets reach ``SolverCoupled.reset(state,
    world_mask)`` with the ``(world_count + 1,)`` mask of the base manager.
    """

    @classmethod
    def _build_solver(cls, model: newton.Model, solver_cfg: CouplerProxyCfg | CouplerAdmmCfg) -> None:
        NewtonManager._solver = cls._create_solver(model, solver_cfg)
        NewtonManager._use_single_state = False
        NewtonManager._needs_collision_pipeline = True
        NewtonManager._supports_rigid_body_force_input = True

    @classmethod
    def _initialize_contacts(cls) -> None:
        """The shared pipeline's contacts, then every buffer the coupled step grows on first use, sized for them.

        Newton sizes entry contact buffers and some entry-solver state (VBD's body-body contact state and rigid
        contact outputs) on the coupled solver's first step; here that first step may be a graph capture, which must
        not allocate what later replays depend on. ``prepare_contacts`` sizes the former, :func:`_grow_on_first_use`
        the latter.
        """
        super()._initialize_contacts()
        solver = NewtonManager._solver
        solver.prepare_contacts(NewtonManager._contacts)
        _grow_on_first_use(solver, NewtonManager._model, NewtonManager._contacts, NewtonManager._solver_dt)

    @classmethod
    def _create_solver(cls, model: newton.Model, solver_cfg: CouplerProxyCfg | CouplerAdmmCfg) -> SolverCoupled:
        ownership = resolve_entries(model, tuple(solver_cfg.entries))
        entries = [_make_entry(entry, ownership[entry.name]) for entry in solver_cfg.entries]
        if isinstance(solver_cfg, CouplerProxyCfg):
            if solver_cfg.iterations < 1:
                raise ValueError(f"CouplerProxyCfg.iterations must be >= 1, got {solver_cfg.iterations}.")
            names = set(ownership)
            proxies = [_make_proxy(model, mapping, ownership, names) for mapping in solver_cfg.proxies]
            config = SolverCoupledProxy.Config(proxies=proxies, iterations=solver_cfg.iterations)
            return SolverCoupledProxy(model, entries, config)
        if isinstance(solver_cfg, CouplerAdmmCfg):
            return SolverCoupledADMM(model, entries, _admm_config(solver_cfg, entries, set(ownership)))
        raise TypeError(
            f"NewtonCouplerManager needs CouplerProxyCfg or CouplerAdmmCfg, got {type(solver_cfg).__name__}."
        )

    @classmethod
    def _register_builder_attributes(cls, builder: newton.ModelBuilder) -> None:
        for entry_cfg in _entry_solver_cfgs(NewtonManager.get_solver_cfg()):
            with cls._nested_solver_cfg(entry_cfg):
                _manager_class(entry_cfg)._register_builder_attributes(builder)

    @classmethod
    def _prepare_builder_for_finalize(cls, builder: newton.ModelBuilder) -> None:
        for entry_cfg in _entry_solver_cfgs(NewtonManager.get_solver_cfg()):
            with cls._nested_solver_cfg(entry_cfg):
                _manager_class(entry_cfg)._prepare_builder_for_finalize(builder)

    @classmethod
    def _step_solver(
        cls,
        state_0: newton.State,
        state_1: newton.State,
        control: newton.Control,
        contacts: newton.Contacts | None,
        substep_dt: float,
    ) -> None:
        # MuJoCo entries' post-constraint RNE pass off first; Newton sets it again where observables ask for it.
        solver = NewtonManager._solver
        for name in solver.entry_names():
            clear_rne_switch(solver.solver(name))
        super()._step_solver(state_0, state_1, control, contacts, substep_dt)

    @classmethod
    def _allocate_observables(cls, requests: ObservableRequests) -> ObservableSchedule | None:
        solver = NewtonManager.get_solver()
        contact = sorted(k for k in requests.all if k == "contact_f" or is_contact_indexed(solver, k))
        if contact:
            raise ValueError(f"{cls.__name__} cannot provide {contact}: {_CONTACT_REFUSAL}")
        return super()._allocate_observables(requests)

    @classmethod
    def _supports_cuda_graph_capture(cls) -> bool:
        # The coupled step runs every entry's step, so it can be captured only where each entry's can (implicit
        # MPM, for one, sizes its grid on the host and cannot be captured by our manager).
        for entry_cfg in _entry_solver_cfgs(NewtonManager.get_solver_cfg()):
            with cls._nested_solver_cfg(entry_cfg):
                if not _manager_class(entry_cfg)._supports_cuda_graph_capture():
                    return False
        return True

    @classmethod
    def _solver_writes_joint_coordinates(cls) -> bool:
        # Entries may be maximal-coordinate solvers; re-deriving joint coordinates from bodies is always valid.
        return False


def _grow_on_first_use(solver: SolverCoupled, model: newton.Model, contacts: newton.Contacts | None, dt: float) -> None:
    """Run one coupled step of ``dt`` [s] on a scratch copy of the initial state, then reset the solver fully.

    The step grows the buffers entry solvers size on first use (to the contacts' capacity, not their count, so the
    empty contacts suffice); the reset clears the coupling and warm-start state the scratch step left.
    """
    state_in, state_out = model.state(), model.state()
    solver.step(state_in, state_out, model.control(), contacts, dt)
    solver.reset(state_in)


def _entry_solver_cfgs(solver_cfg: NewtonSolverCfg | None) -> list[NewtonSolverCfg]:
    """Solver cfgs of a coupler cfg's entries, in entry order (none for ``None``)."""
    return [entry.solver_cfg for entry in getattr(solver_cfg, "entries", ())]


def _manager_class(solver_cfg: NewtonSolverCfg) -> type[NewtonManager]:
    manager = solver_cfg.class_type
    if isinstance(manager, str):
        manager = string_to_callable(manager)
    if not (isinstance(manager, type) and issubclass(manager, NewtonManager)):
        raise TypeError(f"{type(solver_cfg).__name__}.class_type must name a NewtonManager subclass, got {manager!r}.")
    return manager


def _make_entry(entry: CouplerEntryCfg, own: EntryOwnership) -> SolverCoupled.Entry:
    manager = _manager_class(entry.solver_cfg)
    solver_cfg = entry.solver_cfg
    if entry.substeps < 1:
        raise ValueError(f"Coupler entry {entry.name!r}: substeps must be >= 1, got {entry.substeps}.")

    def factory(view) -> SolverBase:
        return manager._create_solver(view, solver_cfg)

    return SolverCoupled.Entry(
        name=entry.name,
        solver=factory,
        bodies=own.bodies,
        particles=own.particles,
        joints=own.joints,
        shapes=own.shapes,
        substeps=entry.substeps,
        in_place=entry.in_place,
    )


def _make_proxy(
    model: newton.Model, mapping: CouplerProxyMappingCfg, ownership: dict[str, EntryOwnership], names: set[str]
) -> SolverCoupledProxy.Proxy:
    label = f"proxy {mapping.source!r} -> {mapping.destination!r}"
    for role, name in (("source", mapping.source), ("destination", mapping.destination)):
        if name not in names:
            raise ValueError(f"Coupler {label}: {role} {name!r} is not an entry name ({sorted(names)}).")
    source = ownership[mapping.source]
    bodies: list[int] = []
    for pattern in mapping.bodies:
        found = match_labels(list(model.body_label), pattern)
        if not found:
            raise ValueError(f"Coupler {label}: bodies {pattern!r} matches no body.")
        foreign = sorted(set(found) - set(source.bodies))
        if foreign:
            raise ValueError(f"Coupler {label}: bodies {pattern!r} selects bodies {foreign} not owned by the source.")
        bodies += found
    particles: list[int] = []
    for prim_path in mapping.deformables:
        found = deformable_particles(prim_path)
        if set(found) - set(source.particles):
            raise ValueError(f"Coupler {label}: deformables {prim_path!r} are not owned by the source entry.")
        particles += found
    if not bodies and not particles:
        raise ValueError(f"Coupler {label} maps nothing: set bodies or deformables.")
    if mapping.mass_scale <= 0.0:
        raise ValueError(f"Coupler {label}: mass_scale must be > 0, got {mapping.mass_scale}.")
    pipeline = _proxy_pipeline_factory(mapping, label)
    joints = [j for j in source.joints if j in set(_joints_of(model, bodies))]
    return SolverCoupledProxy.Proxy(
        source=mapping.source,
        destination=mapping.destination,
        bodies=sorted(set(bodies)),
        joints=joints,
        mass_scale=mapping.mass_scale,
        mode=mapping.mode,
        proxy_relaxation=mapping.relaxation,
        proxy_relaxation_mode=mapping.relaxation_mode,
        proxy_relaxation_min=mapping.relaxation_min,
        proxy_relaxation_max=mapping.relaxation_max,
        particles=sorted(set(particles)),
        collision_pipeline=pipeline,
        collide_interval=mapping.collide_interval,
    )


def _proxy_pipeline_factory(mapping: CouplerProxyMappingCfg, label: str) -> Callable[[ModelView], object] | None:
    """Factory of the destination's proxy-contact pipeline from ``mapping.collision_pipeline`` (``None``: none)."""
    if mapping.collision_pipeline is None:
        if mapping.collide_interval is not None:
            raise ValueError(
                f"Coupler {label}: collide_interval={mapping.collide_interval} needs a collision_pipeline; set"
                " collision_pipeline=NewtonCollisionPipelineCfg(...) or collide_interval=None."
            )
        return None
    if mapping.collide_interval is not None and mapping.collide_interval < 1:
        raise ValueError(f"Coupler {label}: collide_interval must be >= 1 or None, got {mapping.collide_interval}.")
    cfg = mapping.collision_pipeline
    return lambda view: newton.CollisionPipeline(view, **collision_pipeline_kwargs(cfg, world_count=view.world_count))


_PROXY_JOINT_TYPES = (int(newton.JointType.FIXED), int(newton.JointType.PRISMATIC), int(newton.JointType.REVOLUTE))


def _joints_of(model: newton.Model, bodies: list[int]) -> list[int]:
    """Joints of ``bodies`` a proxy can carry (fixed, prismatic, revolute; free bodies need none)."""
    if not model.joint_count or not bodies:
        return []
    child, kind = model.joint_child.numpy(), model.joint_type.numpy()
    wanted = set(bodies)
    return [int(j) for j in range(model.joint_count) if int(child[j]) in wanted and int(kind[j]) in _PROXY_JOINT_TYPES]


def _admm_config(cfg: CouplerAdmmCfg, entries: list[SolverCoupled.Entry], names: set[str]) -> SolverCoupledADMM.Config:
    if cfg.contact_pairs is None:
        pairs = SolverCoupledADMM.auto_detect_contact_pairs(entries)
    else:
        pairs = []
        for source, destination in cfg.contact_pairs:
            for name in (source, destination):
                if name not in names:
                    raise ValueError(f"CouplerAdmmCfg.contact_pairs: {name!r} is not an entry name ({sorted(names)}).")
            pairs.append(SolverCoupledADMM.ContactPair(source=source, destination=destination))
    return SolverCoupledADMM.Config(
        iterations=cfg.iterations,
        rho=cfg.rho,
        gamma=cfg.gamma,
        baumgarte=cfg.baumgarte,
        joint_stiffness=cfg.joint_stiffness,
        joint_damping=cfg.joint_damping,
        joint_angular_stiffness=cfg.joint_angular_stiffness,
        joint_angular_damping=cfg.joint_angular_damping,
        contact_pairs=pairs,
    )
