"""Step cost of solver observables, raw Newton loop vs. our NewtonManager, on N replicated ants.

Builds ``--num_worlds`` copies of an ant (gymnasium's ``ant.xml`` by default, or Newton's ``nv_ant.xml``)
with :meth:`newton.ModelBuilder.replicate` and measures world-steps per second of

* ``raw``: a plain Newton loop (solver built exactly as the manager builds it, 2 substeps per step,
  captured in one CUDA graph on CUDA devices), and
* ``manager``: ``SimulationContext`` + ``NewtonManager.set_builder`` + ``sim.step()`` on the same builder,

each with no observables, with ``BODY_QDD`` + ``BODY_PARENT_F``, and with ``CONTACT_F``. Observables are
written on the final substep only (the manager's default schedule); earlier substeps pass ``None``.
Prints a table with ratios and writes JSON to ``--out``.

Examples::

    ./isaaclab.sh -p scripts/benchmarks/benchmark_observables.py --out /tmp/observables.json
    ./isaaclab.sh -p scripts/benchmarks/benchmark_observables.py --num_worlds 16 --device cpu --steps 20
"""

from __future__ import annotations

import argparse
import json
import pathlib
import platform
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

from isaaclab_contrib.app import args as script_args
from isaaclab_contrib.app.entry import run_script

if TYPE_CHECKING:
    import newton


VARIANTS: dict[str, tuple[str, ...]] = {
    "none": (),
    "body": ("body_qdd", "body_parent_f"),
    "contact": ("contact_f",),
}
"""Observable sets measured, by name."""

NUM_SUBSTEPS = 2
PHYSICS_DT = 1.0 / 120.0
"""Physics step [s]; with 2 substeps the solver advances 1/240 s per substep."""


@dataclass
class Measurement:
    """One timed loop."""

    loop: str
    variant: str
    kinds: list[str]
    status: str = "ok"
    world_steps_per_s: float | None = None
    ms_per_step: float | None = None
    graph: bool = False
    setup_s: float | None = None
    """Seconds from finalize to the first timed step (model, solver, contacts, observables, graph capture)."""


# -------------------------------------------------------------------------------------------------
# Scene and solver selection
# -------------------------------------------------------------------------------------------------


def _solver_setup(name: str):
    """Return (solver cfg, manager class) for ``--solver``."""
    from isaaclab_newton.physics import FeatherstoneSolverCfg, KaminoSolverCfg, MJWarpSolverCfg, XPBDSolverCfg
    from isaaclab_newton.physics.featherstone_manager import NewtonFeatherstoneManager
    from isaaclab_newton.physics.kamino_manager import NewtonKaminoManager
    from isaaclab_newton.physics.mjwarp_manager import NewtonMJWarpManager
    from isaaclab_newton.physics.xpbd_manager import NewtonXPBDManager

    table = {
        "mjwarp": (MJWarpSolverCfg, NewtonMJWarpManager),
        "xpbd": (XPBDSolverCfg, NewtonXPBDManager),
        "featherstone": (FeatherstoneSolverCfg, NewtonFeatherstoneManager),
        "kamino": (KaminoSolverCfg, NewtonKaminoManager),
    }
    cfg_cls, manager = table[name]
    return cfg_cls(), manager


def _asset_path(asset: str) -> str:
    import newton

    if asset == "gym_ant":
        import gymnasium

        return str(pathlib.Path(gymnasium.__file__).parent / "envs" / "mujoco" / "assets" / "ant.xml")
    if asset == "nv_ant":
        import newton.examples

        return newton.examples.get_asset("nv_ant.xml")
    return asset


def build_scene(asset: str, num_worlds: int, manager) -> newton.ModelBuilder:
    """Ground plane plus ``num_worlds`` replicated ants, each in its own world, with ``manager``'s attributes."""
    import newton

    ant = newton.ModelBuilder(up_axis=newton.Axis.Z, gravity=(0.0, 0.0, -9.81))
    manager._register_builder_attributes(ant)
    ant.add_mjcf(_asset_path(asset), ignore_names=["floor", "ground"])
    scene = newton.ModelBuilder(up_axis=newton.Axis.Z, gravity=(0.0, 0.0, -9.81))
    manager._register_builder_attributes(scene)
    scene.replicate(ant, num_worlds)
    scene.add_ground_plane()
    return scene


# -------------------------------------------------------------------------------------------------
# Timing
# -------------------------------------------------------------------------------------------------


def _time_loop(step: Callable[[], None], *, steps: int, warmup: int, device: str) -> float:
    """Return seconds per call of ``step`` after ``warmup`` calls."""
    import warp as wp

    for _ in range(warmup):
        step()
    wp.synchronize_device(device)
    start = time.perf_counter()
    for _ in range(steps):
        step()
    wp.synchronize_device(device)
    return (time.perf_counter() - start) / steps


def _finish(measure: Measurement, seconds: float, num_worlds: int) -> Measurement:
    measure.ms_per_step = seconds * 1e3
    measure.world_steps_per_s = num_worlds / seconds
    return measure


def run_raw(args, builder: newton.ModelBuilder, kinds: tuple[str, ...], variant: str) -> Measurement:
    """Plain Newton loop: the solver the manager would build, 2 substeps, graph-captured on CUDA."""
    import newton
    import warp as wp

    solver_cfg, manager = _solver_setup(args.solver)
    measure = Measurement("raw", variant, sorted(kinds))
    setup_start = time.perf_counter()
    model = builder.finalize(device=args.device)
    solver = manager._create_solver(model, solver_cfg)
    unsupported = set(kinds) - set(solver.supported_observables)
    if unsupported:
        measure.status = f"unsupported: {sorted(unsupported)}"
        return measure
    native = args.solver == "mjwarp" and solver_cfg.use_mujoco_contacts
    if native:  # MuJoCo collides itself; the pipeline only sizes the export storage and never runs
        pipeline = None
        contacts = newton.CollisionPipeline(
            model, rigid_contact_max=solver.get_max_contact_count(), soft_contact_max=0
        ).contacts()
    else:
        pipeline = newton.CollisionPipeline(model)
        contacts = pipeline.contacts()
    observables = solver.observables(kinds, contacts=contacts) if kinds else None
    state_0, state_1, control = model.state(), model.state(), model.control()
    newton.eval_fk(model, model.joint_q, model.joint_qd, state_0)
    substep_dt = PHYSICS_DT / NUM_SUBSTEPS

    def simulate() -> None:
        nonlocal state_0, state_1
        for substep in range(NUM_SUBSTEPS):
            if pipeline is not None:
                pipeline.collide(state_0, contacts)
            passed = observables if substep == NUM_SUBSTEPS - 1 else None
            solver.step(state_0, state_1, control, contacts, substep_dt, observables=passed)
            state_0, state_1 = state_1, state_0  # an even substep count leaves the buffers in place

    simulate()  # eager first step: lazy solver allocations happen outside any capture
    step = simulate
    if wp.get_device(args.device).is_cuda and not args.no_graph:
        with wp.ScopedCapture(device=args.device) as capture:
            simulate()
        graph = capture.graph
        measure.graph = True

        def step() -> None:
            wp.capture_launch(graph)

    wp.synchronize_device(args.device)
    measure.setup_s = time.perf_counter() - setup_start
    return _finish(measure, _time_loop(step, steps=args.steps, warmup=args.warmup, device=args.device), args.num_worlds)


def run_manager(args, builder: newton.ModelBuilder, kinds: tuple[str, ...], variant: str) -> Measurement:
    """Our manager: SimulationContext + set_builder + sim.step(render=False)."""
    import warp as wp
    from isaaclab.sim import SimulationCfg, SimulationContext

    from isaaclab_newton.physics import NewtonCfg, NewtonManager

    solver_cfg, _ = _solver_setup(args.solver)
    measure = Measurement("manager", variant, sorted(kinds))
    setup_start = time.perf_counter()
    SimulationContext.clear_instance()
    physics = NewtonCfg(
        solver_cfg=solver_cfg,
        num_substeps=NUM_SUBSTEPS,
        observables=kinds,
        use_cuda_graph=not args.no_graph,
    )
    sim = SimulationContext(SimulationCfg(dt=PHYSICS_DT, device=args.device, physics=physics))
    try:
        NewtonManager.set_builder(builder)
        try:
            sim.reset()
        except ValueError as exc:  # unsupported kinds fail at allocation with the manager's error
            if "supported_observables" not in str(exc):
                raise
            measure.status = f"unsupported: {exc}"
            return measure
        measure.graph = NewtonManager.uses_graph()
        wp.synchronize_device(args.device)
        measure.setup_s = time.perf_counter() - setup_start

        def step() -> None:
            sim.step(render=False)

        seconds = _time_loop(step, steps=args.steps, warmup=args.warmup, device=args.device)
        return _finish(measure, seconds, args.num_worlds)
    finally:
        SimulationContext.clear_instance()


# -------------------------------------------------------------------------------------------------
# Report
# -------------------------------------------------------------------------------------------------


def _ratios(results: list[Measurement]) -> dict[str, float]:
    """Speed ratios: each variant vs. no observables (per loop), and manager vs. raw (per variant)."""
    rate = {(m.loop, m.variant): m.world_steps_per_s for m in results if m.world_steps_per_s}
    ratios = {}
    for loop in ("raw", "manager"):
        for variant in VARIANTS:
            if variant != "none" and (loop, variant) in rate and (loop, "none") in rate:
                ratios[f"{loop}:{variant}/none"] = rate[(loop, variant)] / rate[(loop, "none")]
    for variant in VARIANTS:
        if ("manager", variant) in rate and ("raw", variant) in rate:
            ratios[f"manager/raw:{variant}"] = rate[("manager", variant)] / rate[("raw", variant)]
    return ratios


def _print_table(results: list[Measurement], ratios: dict[str, float], header: str) -> None:
    print(header)
    print(f"{'loop':<8} {'observables':<12} {'graph':<6} {'world-steps/s':>15} {'ms/step':>9} {'setup s':>8}  status")
    for m in results:
        rate = f"{m.world_steps_per_s:,.0f}" if m.world_steps_per_s else "-"
        ms = f"{m.ms_per_step:.3f}" if m.ms_per_step else "-"
        setup = f"{m.setup_s:.1f}" if m.setup_s is not None else "-"
        print(f"{m.loop:<8} {m.variant:<12} {str(m.graph):<6} {rate:>15} {ms:>9} {setup:>8}  {m.status}")
    print("ratios (world-steps/s, >1 is faster):")
    for name, value in ratios.items():
        print(f"  {name:<28} {value:.3f}")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], parents=[script_args.device_parser()])
    parser.add_argument("--num_worlds", type=script_args.positive_int, default=4096, help="Replicated ants.")
    parser.add_argument(
        "--solver",
        default="mjwarp",
        choices=("mjwarp", "xpbd", "featherstone", "kamino"),
        help="Newton solver of the raw model (no task, so no physics preset).",
    )
    parser.add_argument("--asset", default="gym_ant", help="gym_ant, nv_ant, or a path to an MJCF file.")
    parser.add_argument("--steps", type=script_args.positive_int, default=200, help="Timed physics steps.")
    parser.add_argument("--warmup", type=script_args.non_negative_int, default=20, help="Untimed steps first.")
    parser.add_argument("--variants", nargs="+", default=list(VARIANTS), choices=list(VARIANTS))
    parser.add_argument("--loops", nargs="+", default=["raw", "manager"], choices=["raw", "manager"])
    parser.add_argument("--no_graph", action="store_true", help="Run both loops eagerly (no CUDA graph).")
    parser.add_argument(
        "--no_process_warmup", action="store_true", help="Skip the discarded first raw run that loads all modules."
    )
    parser.add_argument("--out", type=pathlib.Path, default=None, help="Write the results as JSON here.")
    return script_args.parse_args(parser, argv)  # before Warp and Newton load


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    import newton
    import warp as wp

    wp.init()
    device = wp.get_device(args.device)
    solver_cfg, manager = _solver_setup(args.solver)
    builder = build_scene(args.asset, args.num_worlds, manager)
    if not args.no_process_warmup:  # first loop of a process pays one-time module loads: run one and discard it
        run_raw(args, builder, (), "none")
    results = []
    for loop in args.loops:
        for variant in args.variants:
            run = run_raw if loop == "raw" else run_manager
            results.append(run(args, builder, VARIANTS[variant], variant))
            print(f"[benchmark] {loop}/{variant}: {results[-1].world_steps_per_s or results[-1].status}", flush=True)
    ratios = _ratios(results)
    header = (
        f"solver observables, {args.solver}, {args.asset}, {args.num_worlds} worlds, {NUM_SUBSTEPS} substeps of"
        f" {PHYSICS_DT / NUM_SUBSTEPS:.5f} s, on {device.name} ({args.device}); observables on the final substep"
    )
    _print_table(results, ratios, header)
    report = {
        "config": {
            "solver": args.solver,
            "asset": args.asset,
            "num_worlds": args.num_worlds,
            "device": args.device,
            "device_name": device.name,
            "num_substeps": NUM_SUBSTEPS,
            "physics_dt": PHYSICS_DT,
            "steps": args.steps,
            "warmup": args.warmup,
            "graph_requested": not args.no_graph,
            "schedule": "observables on the final substep, None before",
        },
        "versions": {"newton": newton.__version__, "warp": wp.config.version, "python": platform.python_version()},
        "results": [asdict(m) for m in results],
        "ratios": ratios,
    }
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(report, indent=2))
        print(f"[benchmark] wrote {args.out}")


if __name__ == "__main__":
    run_script(main)
