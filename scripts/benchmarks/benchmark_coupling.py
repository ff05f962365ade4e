"""Physics throughput of rigid + soft coupling: a 1 kg box resting on a VBD soft block in N worlds.

Each world holds a 0.2 x 0.2 x 0.1 m soft block (E 1e5 Pa, 4 x 4 x 2 cells, 45 nodes) on the ground and a
0.1 m rigid box on top. The same builder is stepped through ``SimulationContext`` + ``NewtonManager.set_builder``
with each coupling path:

* ``custom_two_way`` / ``custom_one_way``: :class:`CoupledMJWarpVBDSolverCfg` (MuJoCo Warp + VBD, one contact pass),
* ``proxy``: :class:`CouplerProxyCfg` (box proxied into VBD),
* ``admm``: :class:`CouplerAdmmCfg` (rho 50).

It reports world-steps per second (physics steps of dt 1/120 s, 2 substeps; CUDA graph on CUDA) and whether the
box is still held above the block at the end (``held``), and writes JSON to ``--out``.

Examples::

    ./isaaclab.sh -p scripts/benchmarks/benchmark_coupling.py --device cuda:0 --num_worlds 4096 --out /tmp/c.json
    ./isaaclab.sh -p scripts/benchmarks/benchmark_coupling.py --device cpu --num_worlds 2 --steps 20 --warmup 5
"""

from __future__ import annotations

import argparse
import json
import pathlib
import platform
import time
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

from isaaclab_contrib.app.args import device_parser, non_negative_int, parse_args, positive_int
from isaaclab_contrib.app.entry import run_script

if TYPE_CHECKING:
    import newton

PHYSICS_DT = 1.0 / 120.0  # [s]
NUM_SUBSTEPS = 2
BLOCK_TOP = 0.1  # [m]
BOX_HALF = 0.05  # [m]
PATHS = ("custom_two_way", "custom_one_way", "proxy", "admm")


@dataclass
class Measurement:
    """One timed coupling path."""

    path: str
    world_steps_per_s: float
    ms_per_step: float
    graph: bool
    setup_s: float
    held: bool
    """Every box still rests above the middle of its block after the timed steps."""


def build_scene(num_worlds: int, manager) -> newton.ModelBuilder:
    """Ground in the shared world, one soft block and one box per world, 1 m apart."""
    import newton
    import numpy as np
    import warp as wp

    from isaaclab_newton.sim import DeformableMaterialCfg, SoftGridCfg
    from isaaclab_newton.sim.spawners.deformable_spawners import add_deformable

    proto = manager.create_builder()
    block = SoftGridCfg(
        size=(0.2, 0.2, BLOCK_TOP),
        resolution=(4, 4, 2),
        material=DeformableMaterialCfg(youngs_modulus=1.0e5, density=500.0, damping=1.0),
    )
    add_deformable(proto, block, wp.transform((-0.1, -0.1, 0.0), wp.quat_identity()), label="Block")
    box = proto.add_body(xform=wp.transform((0.0, 0.0, BLOCK_TOP + BOX_HALF + 0.01), wp.quat_identity()), label="Box")
    proto.add_shape_box(box, hx=BOX_HALF, hy=BOX_HALF, hz=BOX_HALF, cfg=newton.ModelBuilder.ShapeConfig(density=1000.0))
    builder = manager.create_builder()
    builder.add_ground_plane()
    side = int(np.ceil(np.sqrt(num_worlds)))
    xforms = [wp.transform((float(i % side), float(i // side), 0.0), wp.quat_identity()) for i in range(num_worlds)]
    builder.replicate(
        proto, num_worlds, xforms=xforms, label_prefixes=[f"/World/envs/env_{i}" for i in range(num_worlds)]
    )
    return builder


def solver_cfg(path: str):
    """The solver configuration of one coupling path."""
    from isaaclab_contrib.coupling import CouplerAdmmCfg, CouplerEntryCfg, CouplerProxyCfg, CouplerProxyMappingCfg
    from isaaclab_contrib.custom_coupling import CoupledMJWarpVBDSolverCfg
    from isaaclab_newton.physics import MJWarpSolverCfg, VBDSolverCfg

    if path.startswith("custom_"):
        soft = VBDSolverCfg(integrate_with_external_rigid_solver=True, iterations=10)
        return CoupledMJWarpVBDSolverCfg(soft_solver_cfg=soft, coupling_mode=path.removeprefix("custom_"))
    box = "/World/envs/env_.*/Box"
    rigid = CouplerEntryCfg(
        name="rigid", solver_cfg=MJWarpSolverCfg(use_mujoco_contacts=False), bodies=[box], include_static_shapes=True
    )
    soft = CouplerEntryCfg(name="soft", solver_cfg=VBDSolverCfg(iterations=10), all_particles=True)
    if path == "proxy":
        mapping = CouplerProxyMappingCfg(source="rigid", destination="soft", bodies=[box], collision_pipeline=None)
        return CouplerProxyCfg(entries=[rigid, soft], proxies=[mapping])
    return CouplerAdmmCfg(entries=[rigid, soft], rho=50.0)


def run(args, path: str) -> Measurement:
    """Time ``args.steps`` physics steps of one coupling path after ``args.warmup`` untimed ones."""
    import numpy as np
    import warp as wp
    from isaaclab.sim import SimulationCfg, SimulationContext

    from isaaclab_newton.physics import NewtonCfg, NewtonManager

    SimulationContext.clear_instance()
    physics = NewtonCfg(solver_cfg=solver_cfg(path), num_substeps=NUM_SUBSTEPS, use_cuda_graph=not args.no_graph)
    sim = SimulationContext(SimulationCfg(dt=PHYSICS_DT, device=args.device, physics=physics))
    try:
        start = time.perf_counter()
        NewtonManager.set_builder(build_scene(args.num_worlds, NewtonManager))
        sim.reset()
        for _ in range(args.warmup):
            sim.step(render=False)
        wp.synchronize_device(args.device)
        setup = time.perf_counter() - start
        start = time.perf_counter()
        for _ in range(args.steps):
            sim.step(render=False)
        wp.synchronize_device(args.device)
        seconds = (time.perf_counter() - start) / args.steps
        box_z = NewtonManager.get_state_0().body_q.numpy()[:, 2]
        held = bool(np.isfinite(box_z).all() and (box_z > BLOCK_TOP + 0.5 * BOX_HALF).all())
        return Measurement(path, args.num_worlds / seconds, 1e3 * seconds, NewtonManager.uses_graph(), setup, held)
    finally:
        SimulationContext.clear_instance()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], parents=[device_parser()])
    parser.add_argument("--num_worlds", type=positive_int, default=4096, help="Worlds (Newton's, no env).")
    parser.add_argument("--steps", type=positive_int, default=200, help="Timed physics steps.")
    parser.add_argument("--warmup", type=non_negative_int, default=20, help="Untimed physics steps before them.")
    parser.add_argument("--paths", nargs="+", default=list(PATHS), choices=PATHS)
    parser.add_argument("--no_graph", action="store_true", help="Run eagerly (no CUDA graph).")
    parser.add_argument("--out", type=pathlib.Path, default=None, help="Write the results as JSON here.")
    args = parse_args(parser)  # before Warp and Newton load
    results = [run(args, path) for path in args.paths]
    print(f"{'path':<16} {'world-steps/s':>14} {'ms/step':>9} {'graph':>6} {'setup s':>8} {'held':>5}")
    for m in results:
        rate = f"{m.world_steps_per_s:>14.0f} {m.ms_per_step:>9.2f}"
        print(f"{m.path:<16} {rate} {m.graph!s:>6} {m.setup_s:>8.1f} {m.held!s:>5}")
    if args.out is not None:
        meta = {"device": args.device, "num_worlds": args.num_worlds, "steps": args.steps, "host": platform.node()}
        args.out.write_text(json.dumps({"meta": meta, "results": [asdict(m) for m in results]}, indent=2))


if __name__ == "__main__":
    run_script(main)
