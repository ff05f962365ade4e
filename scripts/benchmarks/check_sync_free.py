"""Check that ``env.step()`` of every registered task runs without host synchronization, resets included.

For each task registered by ``isaaclab_contrib.tasks`` the script builds the environment with ``--num_envs``
environments and an episode length of ``--episode_steps`` env steps (so that time-out resets happen inside the
checked window), runs ``--warmup`` steps, then two checks inside ``torch.cuda.set_sync_debug_mode("error")``
(Warp host reads of CUDA arrays, ``wp.array.numpy()``, and explicit Warp synchronizations are trapped the same way):

* ``env``: ``--steps`` ``env.step()`` calls with random actions, resets included (everything the task, Isaac Lab
  core and this backend do per step);
* ``backend``: ``--steps`` physics steps through the scene (``write_data_to_sim``, ``sim.step``, ``update``) with
  mask resets and writes of every asset (articulations, rigid objects, deformables) and sensor every few steps, and
  reads of derived data: only the Newton backend's step, write, reset and sensor paths.

The one designed periodic host read, of the non-finite world and action counters every
``NewtonCfg.nonfinite_log_interval`` steps (see ``docs/reliability.md``), is moved past the checked window.

It prints ``PASS`` or ``FAIL`` per task and check, with the first offending call and its stack for failures.

``--tasks`` also takes ``isaaclab_tasks``' own ids (without a version, e.g. ``Isaac-Cartpole-Camera-Direct``; their
default presets, built from :func:`isaaclab_contrib.upstream.graph_stepped.graph_stepped_spec`, on Newton's
offline assets, see ``docs/assets.md``). Gymnasium cannot hold both registries in one process: check
upstream ids in a run of their own.

Torch's sync debug mode exists on CUDA only: on CPU the script says so, still runs every step of every task and
reports ``RAN`` (or ``ERROR`` when a step raises).

Examples::

    ./isaaclab.sh -p scripts/benchmarks/check_sync_free.py --device cuda:0
    ./isaaclab.sh -p scripts/benchmarks/check_sync_free.py --device cpu --num_envs 8 --steps 20
    ./isaaclab.sh -p scripts/benchmarks/check_sync_free.py --device cuda:0 \\
        --tasks Isaac-Cartpole-Camera-Direct Isaac-Cartpole-Direct
"""

from __future__ import annotations

import argparse
import contextlib
import traceback
from typing import TYPE_CHECKING

from isaaclab_contrib.app import args as script_args
from isaaclab_contrib.app.entry import run_script

if TYPE_CHECKING:
    import torch


class HostSyncError(RuntimeError):
    """A Warp host read or synchronization inside the checked region."""


@contextlib.contextmanager
def trap_warp_syncs(device: str):
    """Raise :class:`HostSyncError` on ``wp.array.numpy()`` of CUDA arrays and on Warp synchronize calls."""
    import warp as wp

    if not wp.get_device(device).is_cuda:
        yield
        return
    originals = {
        "numpy": wp.array.numpy,
        "synchronize": wp.synchronize,
        "synchronize_device": wp.synchronize_device,
        "synchronize_stream": wp.synchronize_stream,
    }

    def numpy(self, *args, **kwargs):
        if self.device.is_cuda:
            raise HostSyncError(f"wp.array.numpy() on {self.device} (shape {self.shape}) reads device data")
        return originals["numpy"](self, *args, **kwargs)

    def forbid(name):
        def fn(*args, **kwargs):
            raise HostSyncError(f"wp.{name}() synchronizes the host")

        return fn

    wp.array.numpy = numpy
    for name in ("synchronize", "synchronize_device", "synchronize_stream"):
        setattr(wp, name, forbid(name))
    try:
        yield
    finally:
        wp.array.numpy = originals["numpy"]
        for name in ("synchronize", "synchronize_device", "synchronize_stream"):
            setattr(wp, name, originals[name])


def build_env(task: str, num_envs: int, args: argparse.Namespace):
    """The task's environment with ``num_envs`` envs on ``args.device`` and a short episode."""
    from isaaclab_contrib.app.env_factory import load_env_cfg, make_env

    cfg = load_env_cfg(task, solver=args.solver)  # an isaaclab_tasks id gets upstream's cfg and its graph-stepped class
    step_dt = cfg.sim.dt * cfg.decimation
    cfg.episode_length_s = args.episode_steps * step_dt
    # The non-finite world/action warnings read their device counters once per interval by design; place that
    # read after the last checked step so the check sees the per-step paths only.
    cfg.sim.physics.nonfinite_log_interval = (args.warmup + 2 * args.steps) * cfg.decimation + 1
    return make_env(task, cfg=cfg, num_envs=num_envs, device=args.device, seed=args.seed, verbose=args.verbose)


def _random_actions(env) -> torch.Tensor:
    import torch

    space = env.unwrapped.single_action_space
    shape = (env.unwrapped.num_envs, *space.shape)
    return 2.0 * torch.rand(shape, device=env.unwrapped.device) - 1.0


@contextlib.contextmanager
def checked(device: str):
    """Raise on any host synchronization (torch sync debug mode on CUDA, Warp host reads) inside the block."""
    import torch
    import warp as wp

    cuda = wp.get_device(device).is_cuda
    if cuda:
        torch.cuda.synchronize()
        torch.cuda.set_sync_debug_mode("error")
    try:
        with trap_warp_syncs(device):
            yield
    finally:
        if cuda:
            torch.cuda.set_sync_debug_mode("default")


def _failure(exc: BaseException, frames: int) -> str:
    stack = traceback.extract_tb(exc.__traceback__)
    return f"{type(exc).__name__}: {exc}\n" + "".join(traceback.format_list(stack[-frames:]))


def env_steps(env, args: argparse.Namespace) -> tuple[str, str]:
    """``env.step()`` with random actions (resets happen by time-out); return (status, detail)."""
    import torch
    import warp as wp

    actions = [_random_actions(env) for _ in range(4)]  # allocated outside the checked region
    resets = torch.zeros((), dtype=torch.long, device=env.unwrapped.device)
    try:
        with checked(args.device):
            for i in range(args.steps):
                _, _, terminated, truncated, _ = env.step(actions[i % 4])
                resets += (terminated | truncated).sum()
    except (RuntimeError, HostSyncError) as exc:
        return "FAIL", _failure(exc, args.frames)
    total = int(resets.item())
    if total == 0:
        return "FAIL", f"no env reset happened in {args.steps} steps; lower --episode_steps"
    return ("PASS" if wp.get_device(args.device).is_cuda else "RAN"), f"{args.steps} steps, {total} env resets"


def backend_steps(env, args: argparse.Namespace) -> tuple[str, str]:
    """Scene-level physics steps with mask resets/writes and data reads; return (status, detail)."""
    import torch
    import warp as wp

    base = env.unwrapped
    scene, sim, n = base.scene, base.sim, base.num_envs
    envs = torch.arange(n, device=base.device)
    masks = [envs % 5 == k for k in range(5)]  # allocated outside the checked region
    wp_masks = [wp.from_torch(m) for m in masks]
    articulations = list(scene.articulations.values())
    objects = list(scene.rigid_objects.values())
    deformables = list(scene.deformable_objects.values())
    sensors = list(scene.sensors.values())
    try:
        with checked(args.device):
            for i in range(args.steps):
                if i % 4 == 0:
                    mask, wp_mask = masks[i % 5], wp_masks[i % 5]
                    for asset in articulations:
                        asset.reset(env_mask=mask)
                        asset.write_joint_position_to_sim_mask(
                            position=asset.data.default_joint_pos.torch, env_mask=mask
                        )
                        asset.write_joint_velocity_to_sim_mask(
                            velocity=asset.data.default_joint_vel.torch, env_mask=mask
                        )
                        asset.write_root_pose_to_sim_mask(root_pose=asset.data.root_link_pose_w.torch, env_mask=mask)
                    for asset in objects:
                        asset.reset(env_mask=mask)
                        asset.write_root_velocity_to_sim_mask(
                            root_velocity=asset.data.root_com_vel_w.torch, env_mask=mask
                        )
                    for asset in deformables:
                        asset.reset(env_mask=mask)
                        asset.write_nodal_state_to_sim_index(nodal_state=asset.data.nodal_state_w.torch)
                    for sensor in sensors:
                        sensor.reset(env_mask=wp_mask)
                scene.write_data_to_sim()
                sim.step(render=False)
                scene.update(sim.get_physics_dt())
                for asset in articulations + objects:
                    _ = asset.data.projected_gravity_b, asset.data.body_link_pose_w, asset.data.root_com_lin_vel_b
                for asset in deformables:
                    _ = asset.data.root_pos_w, asset.data.nodal_vel_w
                for sensor in sensors:
                    _ = sensor.data
    except (RuntimeError, HostSyncError) as exc:
        return "FAIL", _failure(exc, args.frames)
    status = "PASS" if wp.get_device(args.device).is_cuda else "RAN"
    assets = len(articulations + objects + deformables)
    return status, f"{args.steps} physics steps, {assets} assets, {len(sensors)} sensors"


def check_task(task: str, num_envs: int, args: argparse.Namespace) -> list[tuple[str, str, str]]:
    """Run both checks of one task at ``num_envs`` envs; return (check, status, detail) rows."""
    env = build_env(task, num_envs, args)
    try:
        env.reset()
        warm = _random_actions(env)
        for _ in range(args.warmup):
            env.step(warm)
        return [("env", *env_steps(env, args)), ("backend", *backend_steps(env, args))]
    finally:
        env.close()


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line, refused before torch, Warp and Newton load; the device and tasks filled in."""
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], parents=[script_args.sweep_parser(num_envs=[256])]
    )
    parser.add_argument("--steps", type=script_args.positive_int, default=100, help="Checked env steps per task.")
    parser.add_argument(
        "--warmup", type=script_args.non_negative_int, default=3, help="Unchecked env steps first (graph capture)."
    )
    parser.add_argument(
        "--episode_steps", type=script_args.positive_int, default=30, help="Episode length in env steps (resets)."
    )
    parser.add_argument("--frames", type=script_args.positive_int, default=6, help="Stack frames printed per failure.")
    parser.set_defaults(seed=0)
    args = script_args.parse_args(parser, argv)
    from isaaclab_contrib.app.task_ids import our_task_ids

    args.tasks = args.tasks or list(our_task_ids())
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if not args.device.startswith("cuda"):
        print(
            f"note: torch.cuda.set_sync_debug_mode is CUDA-only; on {args.device} the steps run (with resets) but"
            " host syncs are not detected. Run with --device cuda:0 to check."
        )
    failed = 0
    for task in args.tasks:
        for num_envs in args.num_envs:
            try:
                rows = check_task(task, num_envs, args)
            except Exception as exc:  # a task that cannot be built or stepped is reported, the others still run
                rows = [("build", "ERROR", _failure(exc, args.frames))]
            failed += any(status in ("FAIL", "ERROR") for _, status, _ in rows)
            for check, status, detail in rows:
                print(f"{status:<5} {task} at {num_envs} envs [{check}]: {detail}", flush=True)
    runs = len(args.tasks) * len(args.num_envs)
    print(f"{runs - failed}/{runs} task runs without failures")
    return 1 if failed else 0


if __name__ == "__main__":
    run_script(main)
