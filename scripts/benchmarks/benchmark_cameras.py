"""Rendered env-steps/s of upstream's cartpole camera tasks against their ceiling, in one process.

For each camera task (``--tasks``), data type (``--data_types``: ``rgb`` is the default preset, ``depth`` the depth
preset), square resolution (``--resolutions``) and environment count (``--num_envs``) the script times

* ``env_steps_per_s``: ``env.step()`` with zero actions on the camera task (every step renders every env's tile),
* ``raw_views_per_s``: Newton's ``SensorCamera`` alone on the same model and views (BVH refit + render of the data
  type, replayed from one CUDA graph on CUDA, a Warp CPU graph is not used on CPU),

and, once per task and environment count, ``no_camera_env_steps_per_s``: the same task without a camera
(``Isaac-Cartpole-Direct`` for the direct task, ``Isaac-Cartpole`` for the manager-based one). The ceiling is
``1 / (1 / no_camera + 1 / raw)``: stepping the physics and rendering, nothing else; ``ratio`` is the share of it
the camera task reaches. ``ISAACSIM_ASSET_ROOT`` must point at ``scripts/tools/make_offline_assets.py``'s output.

Examples::

    ISAACSIM_ASSET_ROOT=/tmp/isaac_assets ./isaaclab.sh -p scripts/benchmarks/benchmark_cameras.py \\
        --device cuda:0 --resolutions 100 --num_envs 4096 --out /tmp/cameras.json
    ISAACSIM_ASSET_ROOT=/tmp/isaac_assets ./isaaclab.sh -p scripts/benchmarks/benchmark_cameras.py \\
        --device cpu --resolutions 32 --num_envs 4 --steps 3 --warmup 1
"""

from __future__ import annotations

import argparse
import json
import pathlib
import time
from dataclasses import asdict, dataclass

import torch
import warp as wp

NO_CAMERA_TASK = {"Isaac-Cartpole-Camera-Direct": "Isaac-Cartpole-Direct", "Isaac-Cartpole-Camera": "Isaac-Cartpole"}
PRESET = {"rgb": (), "depth": ("depth",)}
IMAGE_ARG = {"rgb": "color_image", "depth": "forward_depth_image"}


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


def _make(task: str, presets: tuple[str, ...], num_envs: int, device: str, resolution: int | None):
    import gymnasium as gym
    from isaaclab_tasks.utils.hydra import resolve_presets
    from isaaclab_tasks.utils.parse_cfg import load_cfg_from_registry

    cfg = resolve_presets(load_cfg_from_registry(task, "env_cfg_entry_point"), presets)
    cfg.scene.num_envs = num_envs
    cfg.sim.device = device
    if resolution is not None:
        cfg.scene.tiled_camera.width = cfg.scene.tiled_camera.height = resolution
    return gym.make(task, cfg=cfg)


def _sync(device: str) -> None:
    wp.synchronize_device(device)
    if device.startswith("cuda"):
        torch.cuda.synchronize()


def time_env(env, steps: int, warmup: int) -> float:
    """Env-steps/s of ``env.step()`` with zero actions."""
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


def time_raw_render(data_type: str, resolution: int, steps: int, warmup: int) -> float:
    """Views/s of Newton's SensorCamera alone on the current model: one view per world, refit + render."""
    from newton.sensors import SensorCamera

    from isaaclab_newton.physics import NewtonManager

    model, state = NewtonManager.get_model(), NewtonManager.get_state_0()
    device = str(model.device)
    n = int(model.world_count)
    camera = SensorCamera(model)
    camera.create_default_light(enable_shadows=False)
    config = SensorCamera.RenderConfig(enable_shadows=False)
    rays = SensorCamera.compute_camera_rays_pinhole(resolution, resolution, camera_fov=0.8, device=device)
    poses = wp.array([wp.transform((-5.0, 0.0, 2.0), wp.quat(0.5, -0.5, -0.5, 0.5))] * n, dtype=wp.transformf)
    poses = poses.to(device)
    image = (
        camera.allocate_image_color(n, resolution, resolution)
        if data_type == "rgb"
        else camera.allocate_image_depth(n, resolution, resolution)
    )
    images = {IMAGE_ARG[data_type]: image}

    def render() -> None:
        model.bvh_refit_shapes(state)
        camera.update(state, poses, rays, render_config=config, **images)

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
    return n * steps / (time.perf_counter() - start)


def run(args: argparse.Namespace) -> list[Result]:
    import isaaclab_tasks  # noqa: F401  (registers upstream's tasks)

    results = []
    for task in args.tasks:
        for num_envs in args.num_envs:
            env = _make(NO_CAMERA_TASK[task], (), num_envs, args.device, None)
            try:
                no_camera = time_env(env, args.steps, args.warmup)
            finally:
                env.close()
            for data_type in args.data_types:
                for resolution in args.resolutions:
                    env = _make(task, PRESET[data_type], num_envs, args.device, resolution)
                    try:
                        rendered = time_env(env, args.steps, args.warmup)
                        raw = time_raw_render(data_type, resolution, args.steps, args.warmup)
                    finally:
                        env.close()
                    ceiling = 1.0 / (1.0 / no_camera + 1.0 / raw)
                    result = Result(
                        task, data_type, resolution, num_envs, rendered, raw, no_camera, ceiling, rendered / ceiling
                    )
                    results.append(result)
                    print(
                        f"{task} {data_type} {resolution}x{resolution} envs={num_envs}:"
                        f" {rendered:,.0f} env-steps/s, raw render {raw:,.0f} views/s, no camera"
                        f" {no_camera:,.0f} env-steps/s, ceiling {ceiling:,.0f}, ratio {rendered / ceiling:.2f}",
                        flush=True,
                    )
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", nargs="+", default=list(NO_CAMERA_TASK), choices=list(NO_CAMERA_TASK))
    parser.add_argument("--data_types", nargs="+", default=["rgb", "depth"], choices=list(PRESET))
    parser.add_argument("--resolutions", nargs="+", type=int, default=[64, 100, 256])
    parser.add_argument("--num_envs", nargs="+", type=int, default=[1024, 4096])
    parser.add_argument("--device", default="cuda:0" if torch.cuda.is_available() else "cpu")
    parser.add_argument("--steps", type=int, default=200, help="Timed env steps (and raw renders).")
    parser.add_argument("--warmup", type=int, default=20, help="Untimed steps before timing.")
    parser.add_argument("--out", type=pathlib.Path, default=None, help="JSON file for the results.")
    args = parser.parse_args()
    results = run(args)
    if args.out is not None:
        args.out.write_text(json.dumps([asdict(r) for r in results], indent=2))
        print(f"[INFO] wrote {args.out}")


if __name__ == "__main__":
    main()
