"""Host cost of one ``env.step()``: wall time per step, Warp launches and torch ops per step, and a cProfile.

For each task (``--task``, default: the direct cartpole, ant and humanoid) the script builds the environment at
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
    ./isaaclab.sh -p scripts/benchmarks/profile_env_step.py --task_kernels --task Isaac-Cartpole-v0 --num_envs 16
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable

import torch
import warp as wp
from torch.utils._python_dispatch import TorchDispatchMode

DEFAULT_TASKS = ("Isaac-Cartpole-Direct-v0", "Isaac-Ant-Direct-v0", "Isaac-Humanoid-Direct-v0")


class _OpCounter(TorchDispatchMode):
    """Counts the ATen operators dispatched while active."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.count += 1
        return func(*args, **(kwargs or {}))


class _LaunchCounter:
    """Counts ``wp.launch`` calls and :meth:`warp.Launch.launch` replays (``count``) and graph replays (``graphs``)."""

    def __init__(self) -> None:
        self.count = 0
        self.graphs = 0
        self._saved: list[tuple[object, str, Callable]] = []

    def __enter__(self) -> _LaunchCounter:
        import warp._src.context as context

        def counted(fn: Callable, counter: str) -> Callable:
            def wrapper(*args, **kwargs):
                setattr(self, counter, getattr(self, counter) + 1)
                return fn(*args, **kwargs)

            return wrapper

        for owner, name, counter in (
            (wp, "launch", "count"),
            (context, "launch", "count"),
            (context.Launch, "launch", "count"),
            (wp, "capture_launch", "graphs"),
            (context, "capture_launch", "graphs"),
        ):
            original = getattr(owner, name)
            self._saved.append((owner, name, original))
            setattr(owner, name, counted(original, counter))
        return self

    def __exit__(self, *exc) -> None:
        for owner, name, original in reversed(self._saved):
            setattr(owner, name, original)
        self._saved.clear()


_NO_KERNEL_OPS = frozenset(
    [
        "view",
        "select",
        "slice",
        "as_strided",
        "expand",
        "unsqueeze",
        "squeeze",
        "t",
        "transpose",
        "_reshape_alias",
        "alias",
        "unbind",
        "detach",
        "empty",
        "empty_like",
        "empty_strided",
        "lift_fresh",
        "lift_fresh_copy",
        "_to_copy",
        "permute",
        "_local_scalar_dense",
        "split",
        "narrow",
        "view_as",
        "_unsafe_view",
        "unsafe_view",
        "split_with_sizes",
        "is_nonzero",
        "set_",
        "resize_",
    ]
)
"""ATen operators that launch no device kernel (views, allocations, host scalars)."""


def _copy_onto_itself(name: str, args: tuple) -> bool:
    """Whether the op is a ``copy_`` of a tensor onto the same memory (torch returns before launching a kernel)."""
    if name != "copy_" or len(args) < 2:
        return False
    dst, src = args[0], args[1]
    return (
        isinstance(src, torch.Tensor)
        and dst.data_ptr() == src.data_ptr()
        and dst.shape == src.shape
        and dst.stride() == src.stride()
        and dst.dtype == src.dtype
    )


class _TaskKernelCounter(TorchDispatchMode):
    """Counts kernel launches outside ``NewtonManager.step()`` by call site: Warp launches and kernel ATen ops."""

    def __init__(self, depth: int) -> None:
        super().__init__()
        self.sites: Counter[tuple[str, str]] = Counter()
        self.physics = 0
        self._depth = depth
        self._in_physics = 0
        self._saved: list[tuple[object, str, Callable]] = []

    def _site(self) -> str:
        frames = [f for f in traceback.extract_stack()[:-3] if "isaaclab" in f.filename]
        return " <- ".join(f"{f.filename.rsplit('/', 1)[-1]}:{f.name}" for f in frames[::-1][: self._depth])

    def _count_launch(self, kernel_key: str) -> None:
        if self._in_physics:
            self.physics += 1
        else:
            self.sites[(f"wp {kernel_key}", self._site())] += 1

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        name = func.__name__.split(".")[0]
        if not self._in_physics and name not in _NO_KERNEL_OPS and not _copy_onto_itself(name, args):
            self.sites[(f"torch {name}", self._site())] += 1
        return func(*args, **(kwargs or {}))

    def __enter__(self) -> _TaskKernelCounter:
        import warp._src.context as context

        from isaaclab_newton.physics import NewtonManager

        def launch(original: Callable) -> Callable:
            def wrapper(kernel, *args, **kwargs):
                self._count_launch(kernel.key)
                return original(kernel, *args, **kwargs)

            return wrapper

        def replay(original: Callable) -> Callable:
            def wrapper(command, *args, **kwargs):
                self._count_launch(command.kernel.key)
                return original(command, *args, **kwargs)

            return wrapper

        step = NewtonManager.step.__func__

        def physics_step(cls, *args, **kwargs):
            self._in_physics += 1
            try:
                return step(cls, *args, **kwargs)
            finally:
                self._in_physics -= 1

        for owner, name, wrapped in (
            (wp, "launch", launch(wp.launch)),
            (context, "launch", launch(context.launch)),
            (context.Launch, "launch", replay(context.Launch.launch)),
            (NewtonManager, "step", classmethod(physics_step)),
        ):
            self._saved.append((owner, name, owner.__dict__[name]))
            setattr(owner, name, wrapped)
        return super().__enter__()

    def __exit__(self, *exc) -> None:
        super().__exit__(*exc)
        for owner, name, original in reversed(self._saved):
            setattr(owner, name, original)
        self._saved.clear()


def count_task_kernels(task: str, args: argparse.Namespace) -> dict:
    """Kernels per env step outside the physics, by call site, on the CUDA path's code run on CPU (see notes)."""
    from isaaclab_contrib.app.env_factory import load_env_cfg, make_env

    cfg = load_env_cfg(task)
    cfg.sim.physics.use_cpu_graph = False
    env = make_env(task, cfg=cfg, num_envs=args.num_envs, device="cpu", seed=args.seed)
    try:
        unwrapped = env.unwrapped
        unwrapped.mask_reset_on_cpu = True
        env.reset(seed=args.seed)
        reason = unwrapped.mask_reset_unavailable_reason()
        actions = torch.zeros((unwrapped.num_envs, *unwrapped.single_action_space.shape), device=unwrapped.device)
        for _ in range(args.warmup):
            env.step(actions)
        counter = _TaskKernelCounter(args.site_depth)
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
        "num_envs": args.num_envs,
        "mask_reset_unavailable_reason": reason,
        "task_kernels_per_step": sum(counter.sites.values()) / steps,
        "physics_launches_per_step": counter.physics / steps,
        "sites": sites,
    }


def _sync(device: str) -> None:
    wp.synchronize_device(device)
    if device.startswith("cuda"):
        torch.cuda.synchronize()


def profile_task(task: str, args: argparse.Namespace) -> dict:
    """Build ``task``, time, count and profile its steps; return the figures."""
    from isaaclab_contrib.app.env_factory import make_env

    env = make_env(task, num_envs=args.num_envs, device=args.device, seed=args.seed)
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
        launches, ops = _LaunchCounter(), _OpCounter()
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
        "num_envs": args.num_envs,
        "ms_per_step": min(wall),
        "ms_per_step_median": sorted(wall)[len(wall) // 2],
        "cpu_ms_per_step": min(cpu),
        "wp_launches_per_step": launches.count / args.count_steps,
        "wp_graph_replays_per_step": launches.graphs / args.count_steps,
        "torch_ops_per_step": ops.count / args.count_steps,
        "profile": text.getvalue(),
    }


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--task", nargs="+", default=list(DEFAULT_TASKS), help="Registered task ids.")
    parser.add_argument("--device", default="cpu", help="Simulation device, e.g. cpu or cuda:0.")
    parser.add_argument("--num_envs", type=int, default=4, help="Number of environments.")
    parser.add_argument("--warmup", type=int, default=20, help="Untimed steps first.")
    parser.add_argument("--steps", type=int, default=300, help="Timed steps, and profiled steps.")
    parser.add_argument("--repeats", type=int, default=5, help="Timed blocks of --steps; the fastest is reported.")
    parser.add_argument("--count_steps", type=int, default=20, help="Steps over which launches and ops are counted.")
    parser.add_argument("--seed", type=int, default=0, help="Environment seed.")
    parser.add_argument("--top", type=int, default=40, help="cProfile entries to print.")
    parser.add_argument("--sort", default="cumulative", help="pstats sort key (cumulative, tottime, ncalls).")
    parser.add_argument("--no_profile", action="store_true", help="Do not print the cProfile tables.")
    parser.add_argument("--out", default=None, help="JSON file for the figures (profiles included).")
    parser.add_argument("--pstats", default=None, help="Prefix for raw cProfile dumps, one '<prefix><task>.prof' each.")
    parser.add_argument(
        "--task_kernels", action="store_true", help="Count kernels outside the physics per env step (CPU, see notes)."
    )
    parser.add_argument("--site_depth", type=int, default=3, help="Call-site frames shown with --task_kernels.")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    import isaaclab_contrib.tasks  # noqa: F401  (registers the tasks)

    if args.task_kernels:
        return _report_task_kernels([count_task_kernels(task, args) for task in args.task], args)
    results = [profile_task(task, args) for task in args.task]
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
    sys.exit(main())
