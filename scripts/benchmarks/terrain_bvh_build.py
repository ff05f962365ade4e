"""Build time of Warp's mesh BVH over a task's generated terrain, per BVH constructor.

The velocity tasks build the terrain's BVH with SAH (``NewtonCfg.bvh_constructor_geometry="sah"``), which Warp does
on the host, where its CUDA default (LBVH) builds on the device. This script generates the task's terrain with core's
``TerrainGenerator`` (the cfg's seed, or ``--seed``), moves its vertices and triangles to ``--device`` and times
``wp.Mesh`` with each constructor of ``--constructors``, ``--repeats`` times, the device synchronized around each
build. It reports the triangle count, the generation time and the fastest build of each constructor [s].

Example::

    ./isaaclab.sh -p scripts/benchmarks/terrain_bvh_build.py --device cuda:0 --out /tmp/bvh.json
"""

from __future__ import annotations

import argparse
import json
import time
from typing import TYPE_CHECKING

from isaaclab_contrib.app.args import parse_args, positive_int, shared_parser
from isaaclab_contrib.app.entry import run_script

if TYPE_CHECKING:
    import warp as wp


def build_s(points: wp.array, indices: wp.array, constructor: str, device: str) -> float:
    """Wall time [s] of one ``wp.Mesh`` build with ``constructor``, the device synchronized around it."""
    import warp as wp

    wp.synchronize_device(device)
    start = time.perf_counter()
    mesh = wp.Mesh(points=points, indices=indices, bvh_constructor=constructor)
    wp.synchronize_device(device)
    elapsed = time.perf_counter() - start
    del mesh
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], parents=[shared_parser(task="Isaac-Velocity-Rough-Unitree-Go1-v0")]
    )
    parser.add_argument("--constructors", nargs="+", default=["lbvh", "sah"], help="Warp BVH constructors.")
    parser.add_argument("--repeats", type=positive_int, default=3, help="Builds per constructor; the fastest counts.")
    parser.add_argument("--out", default=None, help="JSON file for the results.")
    parser.set_defaults(seed=0)
    args = parse_args(parser)  # before Warp and Newton load
    import numpy as np
    import warp as wp
    from isaaclab.terrains import TerrainGenerator

    from isaaclab_contrib.app.env_factory import load_env_cfg

    generator_cfg = load_env_cfg(args.task, solver=args.solver, presets=args.presets).scene.terrain.terrain_generator
    if generator_cfg is None:
        raise ValueError(f"{args.task} has no generated terrain (scene.terrain.terrain_generator is None)")
    generator_cfg.seed = args.seed
    start = time.perf_counter()
    terrain = TerrainGenerator(generator_cfg, device="cpu").terrain_mesh
    result = {"task": args.task, "device": args.device, "generate_s": time.perf_counter() - start}
    result["triangles"] = len(terrain.faces)
    points = wp.array(np.asarray(terrain.vertices, dtype=np.float32), dtype=wp.vec3, device=args.device)
    indices = wp.array(np.asarray(terrain.faces, dtype=np.int32).ravel(), dtype=wp.int32, device=args.device)
    result["build_s"] = {}
    for name in args.constructors:
        result["build_s"][name] = min(build_s(points, indices, name, args.device) for _ in range(args.repeats))
    print(json.dumps(result, indent=1))
    if args.out:
        with open(args.out, "w") as f:
            json.dump(result, f, indent=1)


if __name__ == "__main__":
    run_script(main)
