"""Host cost of one ``env.step()``: wall time per step, Warp launches and torch ops per step, and a cProfile.

For each task (``--tasks``, default: the direct cartpole, ant and humanoid) the script builds the environment at
``--num_envs`` on ``--device``, steps it ``--warmup`` times with zero actions, then

* times ``--repeats`` blocks of ``--steps`` steps (device synchronized around each block) and reports the fastest
  block (``ms_per_step``), the median one and the fastest process CPU time per step (``cpu_ms_per_step``; on a
  shared machine the minimum is the least disturbed figure),
* counts, over ``--count_steps`` steps, the ``wp.launch`` calls (``wp_launches_per_step``; replays of recorded
  :class:`warp.Launch` objects count too), the graph replays (``wp_graph_replays_per_step``: the physics graph,
  and on CPU the one-launch graphs recorded launches replay) and the torch operators dispatched
  (``torch_ops_per_step``, ATen ops seen by a ``TorchDispatchMode``),
* profiles ``--steps`` steps with cProfile and prints the ``--top`` entries by cumulative time.

With ``--task_kernels`` it instead counts the kernels an env step launches outside the physics (the task, reset,
action and observation work that a replayed CUDA graph holds next to the solver's substeps), with the call site
of each: the env runs on CPU, eagerly (``NewtonCfg.use_cpu_graph=False``) and with the mask reset of the CUDA
path (``mask_reset_on_cpu``), Warp launches inside ``NewtonManager.step()`` count as physics, and torch operators
that launch no kernel (views, allocations, host scalars, copies of a tensor onto its own memory) are left out. On
the GPU each such kernel is a graph node of a few microseconds, so this count, measured without a GPU, tracks most
of what separates an env step from its physics ceiling.

Resets happen as the episodes end, so the figures include the amortized reset path. On CPU with a few envs the
host Python dominates; on CUDA the same figures show how much host work hides behind the GPU.

Examples::

    ./isaaclab.sh -p scripts/benchmarks/profile_env_step.py --device cpu --num_envs 4
    ./isaaclab.sh -p scripts/benchmarks/profile_env_step.py --device cuda:0 --num_envs 4096 --out /tmp/prof.json
    ./isaaclab.sh -p scripts/benchmarks/profile_env_step.py --task_kernels --tasks Isaac-Cartpole-v0 --num_envs 16
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import time

from isaaclab_contrib.app.args import non_negative_int, positive_int, sweep_parser
from isaaclab_contrib.app.args import parse_args as parse_script_args
from isaaclab_contrib.app.entry import run_script

DEFAULT_TASKS = ("Isaac-Cartpole-Direct-v0", "Isaac-Ant-Direct-v0", "Isaac-Humanoid-Direct-v0")


def count_task_kernels(task: str, num_envs: int, args: argparse.Namespace) -> dict:
    """Kernels per env step outside the physics, by call site, on the CUDA path's code run on CPU (see notes)."""
    import torch
    from _step_counters import TaskKernelCounter

    from isaaclab_contrib.app.env_factory import load_env_cfg, make_env

    cfg = load_env_cfg(task, solver=args.solver)
    cfg.sim.physics.use_cpu_graph = False
    env = make_env(task, cfg=cfg, num_envs=num_envs, device="cpu", seed=args.seed, verbose=args.verbose)
    try:
        unwrapped = env.unwrapped
        unwrapped.mask_reset_on_cpu = True
        env.reset(seed=args.seed)
        reason = unwrapped.mask_reset_unavailable_reason()
        actions = torch.zeros((unwrapped.num_envs, *unwrapped.single_action_space.shape), device=unwrapped.device)
        for _ in range(args.warmup):
            env.step(actions)
        counter = TaskKernelCounter(args.site_depth)
        with counter:
            for _ in range(args.count_steps):
                env.step(actions)
    finally:
        env.close()
    steps = args.count_steps
    sites = [
        {"kernels_per_step": count / steps, "kernel": kernel, "site": site}
        for (kernel, site), count in sorted(counter.sites.items(), key=lambda item: (item[0][1], item[0][0]))
    ]
    return {
        "task": task,
        "num_envs": num_envs,
        "mask_reset_unavailable_reason": reason,
        "task_kernels_per_step": sum(counter.sites.values()) / steps,
        "physics_launches_per_step": counter.physics / steps,
        "sites": sites,
    }


def _sync(device: str) -> None:
    import torch
    import warp as wp

    wp.synchronize_device(device)
    if device.startswith("cuda"):
        torch.cuda.synchronize()


def profile_task(task: str, num_envs: int, args: argparse.Namespace) -> dict:
    """Build ``task``, time, count and profile its steps; return the figures."""
    import torch
    from _step_counters import LaunchCounter, OpCounter

    from isaaclab_contrib.app.env_factory import make_env

    env = make_env(
        task, num_envs=num_envs, device=args.device, seed=args.seed, solver=args.solver, verbose=args.verbose
    )
    try:
        env.reset(seed=args.seed)
        unwrapped = env.unwrapped
        actions = torch.zeros((unwrapped.num_envs, *unwrapped.single_action_space.shape), device=unwrapped.device)
        for _ in range(args.warmup):
            env.step(actions)
        wall, cpu = [], []
        for _ in range(args.repeats):
            _sync(args.device)
            start, start_cpu = time.perf_counter(), time.process_time()
            for _ in range(args.steps):
                env.step(actions)
            _sync(args.device)
            wall.append(1e3 * (time.perf_counter() - start) / args.steps)
            cpu.append(1e3 * (time.process_time() - start_cpu) / args.steps)
        launches, ops = LaunchCounter(), OpCounter()
        with launches, ops:
            for _ in range(args.count_steps):
                env.step(actions)
        _sync(args.device)
        profiler = cProfile.Profile()
        profiler.enable()
        for _ in range(args.steps):
            env.step(actions)
        _sync(args.device)
        profiler.disable()
    finally:
        env.close()
    if args.pstats:
        profiler.dump_stats(f"{args.pstats}{task}.prof")
    text = io.StringIO()
    pstats.Stats(profiler, stream=text).sort_stats(args.sort).print_stats(args.top)
    return {
        "task": task,
        "device": args.device,
        "num_envs": num_envs,
        "ms_per_step": min(wall),
        "ms_per_step_median": sorted(wall)[len(wall) // 2],
        "cpu_ms_per_step": min(cpu),
        "wp_launches_per_step": launches.count / args.count_steps,
        "wp_graph_replays_per_step": launches.graphs / args.count_steps,
        "torch_ops_per_step": ops.count / args.count_steps,
        "profile": text.getvalue(),
    }


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line, refused before torch, Warp and Newton load."""
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], parents=[sweep_parser(tasks=DEFAULT_TASKS, num_envs=[4])]
    )
    parser.add_argument("--warmup", type=non_negative_int, default=20, help="Untimed steps first.")
    parser.add_argument("--steps", type=positive_int, default=300, help="Timed steps, and profiled steps.")
    parser.add_argument("--repeats", type=positive_int, default=5, help="Timed blocks of --steps; the fastest counts.")
    parser.add_argument(
        "--count_steps", type=positive_int, default=20, help="Steps over which launches and ops are counted."
    )
    parser.add_argument("--top", type=positive_int, default=40, help="cProfile entries to print.")
    parser.add_argument("--sort", default="cumulative", help="pstats sort key (cumulative, tottime, ncalls).")
    parser.add_argument("--no_profile", action="store_true", help="Do not print the cProfile tables.")
    parser.add_argument("--out", default=None, help="JSON file for the figures (profiles included).")
    parser.add_argument("--pstats", default=None, help="Prefix for raw cProfile dumps, one '<prefix><task>.prof' each.")
    parser.add_argument(
        "--task_kernels", action="store_true", help="Count kernels outside the physics per env step (CPU, see notes)."
    )
    parser.add_argument(
        "--site_depth", type=positive_int, default=3, help="Call-site frames shown with --task_kernels."
    )
    parser.set_defaults(device="cpu", seed=0)
    return parse_script_args(parser, argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    runs = [(task, num_envs) for task in args.tasks for num_envs in args.num_envs]
    if args.task_kernels:
        return _report_task_kernels([count_task_kernels(task, num_envs, args) for task, num_envs in runs], args)
    results = [profile_task(task, num_envs, args) for task, num_envs in runs]
    for result in results:
        if not args.no_profile:
            print(f"==== {result['task']} ====\n{result['profile']}")
    header = f"{'task':26s} {'device':7s} {'envs':>6s} {'ms/step':>8s} {'median':>8s} {'cpu ms':>8s}"
    print(f"{header} {'wp.launch':>10s} {'graphs':>7s} {'torch ops':>10s}")
    for r in results:
        print(
            f"{r['task']:26s} {r['device']:7s} {r['num_envs']:6d} {r['ms_per_step']:8.3f}"
            f" {r['ms_per_step_median']:8.3f} {r['cpu_ms_per_step']:8.3f}"
            f" {r['wp_launches_per_step']:10.1f} {r['wp_graph_replays_per_step']:7.1f} {r['torch_ops_per_step']:10.1f}"
        )
    if args.out:
        with open(args.out, "w") as f:
            json.dump(results, f, indent=2)
    return 0


def _report_task_kernels(results: list[dict], args: argparse.Namespace) -> int:
    for r in results:
        print(f"==== {r['task']} ({r['num_envs']} envs; mask reset: {r['mask_reset_unavailable_reason'] or 'yes'})")
        for site in r["sites"]:
            print(f"  {site['kernels_per_step']:5.1f}  {site['kernel']:40s} {site['site']}")
    print(f"{'task':26s} {'envs':>6s} {'task kernels':>13s} {'physics launches':>17s}")
    for r in results:
        print(
            f"{r['task']:26s} {r['num_envs']:6d} {r['task_kernels_per_step']:13.1f}"
            f" {r['physics_launches_per_step']:17.1f}"
        )
    if args.out:
        with open(args.out, "w") as f:
            json.dump(results, f, indent=2)
    return 0


if __name__ == "__main__":
    run_script(main)
