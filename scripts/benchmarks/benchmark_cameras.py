"""Rendered env-steps/s of upstream's cartpole camera tasks against their ceiling, in one process.

For each camera task (``--tasks``), data type (``--data_types``: ``rgb`` is the default preset, ``depth`` and
``albedo`` the presets of those names), square resolution (``--resolutions``) and environment count (``--num_envs``)
the script times

* ``env_steps_per_s``: ``env.step()`` with zero actions on the camera task (every step renders every env's tile);
* ``raw_views_per_s``: Newton's ``SensorCamera`` alone, the camera's own sensor, views, rays, render settings and
  output buffers: BVH refit + render, replayed from one CUDA graph on CUDA (eager on CPU);

and, once per task and environment count, ``no_camera_env_steps_per_s``: the same task without a camera
(``Isaac-Cartpole-Direct`` for the direct task, ``Isaac-Cartpole`` for the manager-based one). The ceiling is
``1 / (1 / no_camera + 1 / raw)``: stepping the physics and rendering, nothing else; ``ratio`` is the share of it
the camera task reaches. Direct tasks are built from their graph-stepped spec
(:func:`isaaclab_contrib.upstream.graph_stepped.graph_stepped_spec`): on CUDA their whole env step, rendering
included, is replayed from one CUDA graph; ``graph_step`` in the output says why where it is not (``null`` where it
is).

With ``--kernels N`` (CUDA only) the script also profiles ``--steps`` more steps of each camera task with
``torch.profiler`` and reports ``kernel_ms_per_step``, the device time of every kernel of an env step, and ``kernels``,
the ``N`` kernels that take the most of it (name, microseconds and launches per step): what separates the step from
its ceiling.

Each env is stepped ``--warmup`` times (the first step runs eagerly, the second is recorded) before ``--steps``
timed steps. The cartpole comes from Newton's offline assets (``docs/assets.md``: made into the cache on first use,
or ``ISAACSIM_ASSET_ROOT``'s folder where it is set). The defaults
(direct task, rgb and depth, 64/100/256 px, 1,024 and 4,096 envs: 14 env builds) fit in about 4 minutes on one H200,
kernel compilation included.

Examples::

    ./isaaclab.sh -p scripts/benchmarks/benchmark_cameras.py --device cuda:0 --out /tmp/cameras.json
    ./isaaclab.sh -p scripts/benchmarks/benchmark_cameras.py --device cpu --resolutions 16 --num_envs 2 \\
        --data_types depth --steps 2 --warmup 3
    ./isaaclab.sh -p scripts/benchmarks/benchmark_cameras.py --device cuda:0 --resolutions 100 --num_envs 4096 \\
        --data_types depth --kernels 12
"""

from __future__ import annotations

import argparse
import json
import pathlib
import time
from collections import Counter
from dataclasses import asdict, dataclass

from isaaclab_contrib.app.args import parse_args, positive_int, sweep_parser
from isaaclab_contrib.app.devices import default_device
from isaaclab_contrib.app.entry import run_script

NO_CAMERA_TASK = {"Isaac-Cartpole-Camera-Direct": "Isaac-Cartpole-Direct", "Isaac-Cartpole-Camera": "Isaac-Cartpole"}
PRESET = {"rgb": (), "depth": ("depth",), "albedo": ("albedo",)}
"""Presets of the camera task per ``--data_types`` choice (Newton's renderer writes each of them)."""


@dataclass
class Result:
    """One camera task at one data type, resolution and environment count."""

    task: str
    data_type: str
    resolution: int
    num_envs: int
    env_steps_per_s: float
    raw_views_per_s: float
    no_camera_env_steps_per_s: float
    ceiling: float
    ratio: float
    graph_step: str | None
    """Why the camera task's step is not replayed from a CUDA graph, ``None`` where it is."""
    no_camera_graph_step: str | None
    """The same for the task without a camera."""
    kernel_ms_per_step: float | None = None
    """Device time of all kernels of one camera-task env step [ms] (``--kernels``), else ``None``."""
    kernels: list[dict] | None = None
    """The kernels taking the most device time per env step (``--kernels``): name, us and launches per step."""


def _make(task: str, presets: tuple[str, ...], num_envs: int, args: argparse.Namespace, resolution: int | None):
    from isaaclab_contrib.app.env_factory import load_env_cfg, make_env

    cfg = load_env_cfg(task, solver=args.solver, presets=presets)
    if resolution is not None:
        cfg.scene.tiled_camera.width = cfg.scene.tiled_camera.height = resolution
    return make_env(task, cfg=cfg, num_envs=num_envs, device=args.device, seed=args.seed, verbose=args.verbose)


def _graph_step(env) -> str | None:
    """Why ``env`` steps eagerly (``None`` when its steps replay from a CUDA graph)."""
    reason = getattr(env.unwrapped, "step_graph_unavailable_reason", None)
    return f"{type(env.unwrapped).__name__} has no graph-stepped form" if reason is None else reason()


def _sync(device: str) -> None:
    import torch
    import warp as wp

    wp.synchronize_device(device)
    if device.startswith("cuda"):
        torch.cuda.synchronize()


def time_env_or_eager(env, steps: int, warmup: int) -> tuple[float, str | None]:
    """:func:`time_env`, and why the step is not replayed from a graph; eager timing where recording it failed."""
    try:
        return time_env(env, steps, warmup), _graph_step(env)
    except RuntimeError as err:
        if "could not be recorded" not in str(err):
            raise
        print(f"[WARN] {err}; timing eager steps instead", flush=True)
        env.unwrapped.capture_env_step = False
        return time_env(env, steps, warmup), f"recording failed: {err}"


def time_env(env, steps: int, warmup: int) -> float:
    """Env-steps/s of ``env.step()`` with zero actions."""
    import torch

    unwrapped = env.unwrapped
    action = torch.zeros(env.action_space.shape, device=unwrapped.device)
    env.reset(seed=0)
    for _ in range(warmup):
        env.step(action)
    _sync(unwrapped.device)
    start = time.perf_counter()
    for _ in range(steps):
        env.step(action)
    _sync(unwrapped.device)
    return unwrapped.num_envs * steps / (time.perf_counter() - start)


def profile_kernels(env, steps: int, top: int) -> tuple[float, list[dict]]:
    """Device time per env step [ms] of all CUDA kernels over ``steps`` steps, and the ``top`` kernels by time."""
    import torch
    from torch.profiler import ProfilerActivity, profile

    unwrapped = env.unwrapped
    action = torch.zeros(env.action_space.shape, device=unwrapped.device)
    _sync(unwrapped.device)
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as profiler:
        for _ in range(steps):
            env.step(action)
        _sync(unwrapped.device)
    device_us, launches = Counter(), Counter()
    for event in profiler.events():
        if event.device_type == torch.autograd.DeviceType.CUDA:
            device_us[event.name] += event.device_time_total
            launches[event.name] += 1
    rows = [
        {"kernel": name, "us_per_step": us / steps, "launches_per_step": launches[name] / steps}
        for name, us in device_us.most_common(top)
    ]
    return sum(device_us.values()) / steps / 1e3, rows


def time_raw_render(env, steps: int, warmup: int) -> float:
    """Views/s of the camera's Newton ``SensorCamera`` alone: BVH refit + render of its views into its buffers."""
    import warp as wp

    from isaaclab_newton.physics import NewtonManager

    camera = env.unwrapped.scene["tiled_camera"]
    data = camera._render_data  # the renderer's state of this camera: sensor, view poses, rays, output views
    model, state = NewtonManager.get_model(), NewtonManager.get_state_0()
    device = str(model.device)

    def render() -> None:
        model.bvh_refit_shapes(state)
        data.sensor.update(state, data.transforms, data.rays, **data.images)

    for _ in range(max(1, warmup)):
        render()
    graph = None
    if device.startswith("cuda"):
        with wp.ScopedCapture(device=device) as capture:
            render()
        graph = capture.graph
    _sync(device)
    start = time.perf_counter()
    for _ in range(steps):
        if graph is not None:
            wp.capture_launch(graph)
        else:
            render()
    _sync(device)
    return data.transforms.shape[0] * steps / (time.perf_counter() - start)


def run(args: argparse.Namespace) -> list[Result]:
    results = []
    for task in args.tasks:
        for num_envs in args.num_envs:
            env = _make(NO_CAMERA_TASK[task], (), num_envs, args, None)
            try:
                no_camera, no_camera_graph = time_env_or_eager(env, args.steps, args.warmup)
            finally:
                env.close()
            for data_type in args.data_types:
                for resolution in args.resolutions:
                    env = _make(task, PRESET[data_type], num_envs, args, resolution)
                    try:
                        rendered, graph = time_env_or_eager(env, args.steps, args.warmup)
                        kernel_ms, kernels = (
                            profile_kernels(env, args.steps, args.kernels) if args.kernels else (None, None)
                        )
                        raw = time_raw_render(env, args.steps, args.warmup)
                    finally:
                        env.close()
                    ceiling = 1.0 / (1.0 / no_camera + 1.0 / raw)
                    result = Result(
                        task,
                        data_type,
                        resolution,
                        num_envs,
                        rendered,
                        raw,
                        no_camera,
                        ceiling,
                        rendered / ceiling,
                        graph,
                        no_camera_graph,
                        kernel_ms,
                        kernels,
                    )
                    results.append(result)
                    print(
                        f"{task} {data_type} {resolution}x{resolution} envs={num_envs}:"
                        f" {rendered:,.0f} env-steps/s, raw render {raw:,.0f} views/s, no camera"
                        f" {no_camera:,.0f} env-steps/s, ceiling {ceiling:,.0f}, ratio {rendered / ceiling:.2f}"
                        f" (graph step: {graph or 'yes'})",
                        flush=True,
                    )
                    for row in kernels or ():
                        print(f"  {row['us_per_step']:9.1f} us x{row['launches_per_step']:5.1f}  {row['kernel'][:110]}")
                    if args.out is not None:  # partial results survive a run cut short
                        _write(args.out, results)
    return results


def _write(path: pathlib.Path, results: list[Result]) -> None:
    path.write_text(json.dumps([asdict(r) for r in results], indent=2))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        parents=[sweep_parser(tasks=["Isaac-Cartpole-Camera-Direct"], num_envs=[1024, 4096])],
    )
    parser.add_argument("--data_types", nargs="+", default=["rgb", "depth"], choices=list(PRESET))
    parser.add_argument("--resolutions", nargs="+", type=positive_int, default=[64, 100, 256])
    parser.add_argument("--steps", type=positive_int, default=100, help="Timed env steps (and raw renders).")
    parser.add_argument("--warmup", type=int, default=5, help="Untimed steps before timing (at least 3 on CUDA).")
    parser.add_argument("--out", type=pathlib.Path, default=None, help="JSON file for the results.")
    parser.add_argument(
        "--kernels",
        type=positive_int,
        default=None,
        metavar="N",
        help="CUDA: also profile the camera task's steps and report the N kernels taking the most device time.",
    )
    args = parse_args(parser, check=_check_args)  # before torch, Warp and Newton load
    start = time.perf_counter()
    results = run(args)
    if args.out is not None:
        _write(args.out, results)
        print(f"[INFO] wrote {args.out}")
    print(f"[INFO] {len(results)} measurements in {time.perf_counter() - start:.0f} s")


def _check_args(args: argparse.Namespace) -> None:
    """Refuse a task this benchmark has no camera-less twin for, and a kernel profile off CUDA."""
    unknown = [task for task in args.tasks if task not in NO_CAMERA_TASK]
    if unknown:
        raise SystemExit(
            f"--tasks {' '.join(unknown)}: not a camera task timed here; choose from {list(NO_CAMERA_TASK)}"
        )
    if args.kernels and not (args.device or default_device()).startswith("cuda"):
        raise SystemExit("--kernels profiles CUDA kernels: run with --device cuda:N.")


if __name__ == "__main__":
    run_script(main)
