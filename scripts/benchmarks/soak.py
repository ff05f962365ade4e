"""Soak a task: random actions, forced NaN worlds, random per-env resets; check recovery and memory growth.

Runs ``--steps`` env steps of ``--num_envs`` envs with uniform random actions in [-1, 1]. Every ``--nan_every``
steps it writes NaN into the joint velocities of ``--nan_envs`` random envs (what reduced-coordinate solvers such as
MuJoCo Warp and Featherstone integrate; maximal-coordinate XPBD re-derives them); the manager flags those worlds on
the device, the task terminates and resets them in the next step. After that step the script checks that every
injected env was reported in ``extras["nan_envs"]``, terminated, and is finite again (state and observation), and
that the task's non-finite flags named exactly the injected envs (``nan_flagged_others`` counts any other env
flagged on any step: none may be touched). On steps without an injection those checks are summed on the device
and read at the next injection or sample, so the host does not wait for the device after every step.
Every ``--reset_every`` steps ``--reset_envs`` random envs are reset through the env's own ``_reset_idx``. The process
RSS is sampled every ``--rss_every`` steps; growth is measured from the first sample after the warm-up (``--warmup``
steps, default 10% of the run) to the last one. On CUDA the device memory in use (``cudaMemGetInfo``: PyTorch's and
Warp's allocations together, and any other process's on the device: run the soak alone), PyTorch's allocated bytes,
their peak and its reserved segments, and Warp's mempool use and peak are sampled with it, as is the number of times
the env step has been recorded in a CUDA graph (``step_graph_recordings``; ``null`` for envs that do not replay
steps); the device memory in use may grow by at most ``--max_gpu_growth`` after the warm-up. With
``--gpu_memory_scope process`` that limit applies to what this process's allocators hold instead (PyTorch's reserved
segments plus Warp's mempool in use: ``process_used``), which other processes on the device do not change; the
device-wide figure is still reported.
``--torch_memory_snapshot FILE`` records PyTorch's allocations from the warm-up on and writes them to ``FILE``
(PyTorch's memory snapshot, viewed at https://pytorch.org/memory_viz) on the first step after which PyTorch reserves
more memory than at the warm-up, so that the snapshot ends with the allocation that took a new segment
(``torch_snapshot_step`` in the report), or at the end of a run without growth. ``--max_seconds`` ends the run early
(the report says so in ``stopped_early``) to fit a time budget; the run also stops once more than ``--max_failures``
failures (default 20) are recorded.

Tasks with interval pushes (the velocity tasks' ``events.push_robot``) push on their own timers during the run;
``--push_interval_s LOW HIGH`` sets that range [s] to push more often. ``nan_survivors`` in the report counts injected
envs still non-finite after their reset.

Exits with status 1 if any injected NaN survives its reset, an injected env is not detected, a non-injected env
goes non-finite or is flagged, or RSS (or, on CUDA, device memory in use) grows by more than ``--max_rss_growth``
(``--max_gpu_growth``), default 5% (1%).

Example (not a CI test; minutes on CPU)::

    nice ./isaaclab.sh -p scripts/benchmarks/soak.py --task Isaac-Cartpole-Direct-v0 --num_envs 256 \\
        --steps 10000 --device cpu --json soak.json
    ./isaaclab.sh -p scripts/benchmarks/soak.py --task Isaac-Velocity-Rough-Unitree-Go1-v0 --num_envs 4096 \\
        --steps 20000 --device cuda:0 --push_interval_s 1 3 --json soak_go1_rough.json
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from typing import TYPE_CHECKING

from isaaclab_contrib.app.args import env_options, non_negative_int, parse_args, positive_int, shared_parser
from isaaclab_contrib.app.entry import run_script

if TYPE_CHECKING:
    import numpy as np


def _rss_mib() -> float:
    """Resident set size of this process [MiB] (Linux /proc)."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    raise RuntimeError("VmRSS not found in /proc/self/status (the soak needs Linux).")


def _gpu_memory_mib(device: str) -> dict[str, float] | None:
    """Device memory figures [MiB] on CUDA (``None`` on CPU): in use on the device, PyTorch's, Warp's mempool.

    ``device_used`` is the device's total less its free memory (every allocation of the process, PyTorch's caching
    allocator and Warp's mempool included, plus the CUDA context); ``torch_*`` and ``warp_*`` are those allocators'
    current and peak use (``torch_reserved``: the segments PyTorch's caching allocator holds).
    """
    if not device.startswith("cuda"):
        return None
    import torch
    import warp as wp

    mib = 1024.0**2
    free, total = torch.cuda.mem_get_info(device)
    figures = {
        "device_used": (total - free) / mib,
        "torch_allocated": torch.cuda.memory_allocated(device) / mib,
        "torch_peak": torch.cuda.max_memory_allocated(device) / mib,
        "torch_reserved": torch.cuda.memory_reserved(device) / mib,
    }
    figures["process_used"] = figures["torch_reserved"]
    if wp.is_mempool_enabled(device):
        figures["warp_mempool"] = wp.get_mempool_used_mem_current(device) / mib
        figures["warp_mempool_peak"] = wp.get_mempool_used_mem_high(device) / mib
        figures["process_used"] += figures["warp_mempool"]
    return {name: round(value, 1) for name, value in figures.items()}


class _DeviceTally:
    """The checks of steps without an injection, summed on the device and read on the host at each flush.

    Per step: env resets, non-finite envs reported in ``extras["nan_envs"]``, envs flagged non-finite and envs with a
    non-finite observation (each of the last three must stay 0 when nothing was injected). Reading them once per flush
    instead of after every step keeps the host from waiting on the device.

    Args:
        device: Device of the sums.
    """

    _NAMES = ("env resets", "NaN env(s) reported", "env(s) flagged non-finite", "env(s) with non-finite observations")

    def __init__(self, device: str):
        import torch

        self._torch = torch
        self._sums = torch.zeros(len(self._NAMES), dtype=torch.int64, device=device)
        self._since = 1  # first step summed since the last flush

    def add(self, resets, reported, flagged, nonfinite_obs) -> None:
        """Add one step's 0-d device counts."""
        self._sums += self._torch.stack([resets, reported, flagged, nonfinite_obs]).to(self._sums.dtype)

    def flush(self, step: int, report: dict) -> None:
        """Move the sums of steps ``[since, step]`` into ``report``: resets counted, anything else a failure."""
        resets, *unexpected = self._sums.tolist()
        self._sums.zero_()
        report["env_resets"] += resets
        report["nan_detected"] += unexpected[0]
        report["nan_flagged_others"] += unexpected[1]
        for name, count in zip(self._NAMES[1:], unexpected, strict=True):
            if count:
                report["failures"].append(f"steps {self._since}-{step} (nothing injected): {count} {name}")
        self._since = step + 1


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], parents=[shared_parser(task="Isaac-Cartpole-Direct-v0")]
    )
    parser.add_argument("--steps", type=positive_int, default=10_000, help="Env steps to run.")
    parser.add_argument("--nan_every", type=positive_int, default=100, help="Steps between NaN injections.")
    parser.add_argument("--nan_envs", type=positive_int, default=4, help="Envs poisoned per injection.")
    parser.add_argument("--reset_every", type=positive_int, default=50, help="Steps between forced resets.")
    parser.add_argument("--reset_envs", type=positive_int, default=8, help="Envs reset per forced reset.")
    parser.add_argument("--rss_every", type=positive_int, default=500, help="Steps between RSS samples.")
    parser.add_argument(
        "--warmup", type=non_negative_int, default=None, help="Steps before the RSS baseline (default 10%%)."
    )
    parser.add_argument("--max_rss_growth", type=float, default=0.05, help="Allowed RSS growth after warm-up.")
    parser.add_argument(
        "--max_gpu_growth", type=float, default=0.01, help="Allowed device-memory growth after warm-up (CUDA)."
    )
    parser.add_argument(
        "--gpu_memory_scope",
        choices=("device", "process"),
        default="device",
        help="CUDA: the memory --max_gpu_growth limits: in use on the whole device, or held by this process's"
        " allocators (PyTorch reserved + Warp mempool in use; for a soak beside other processes).",
    )
    parser.add_argument(
        "--max_seconds", type=float, default=None, help="Stop stepping after this many seconds (report stopped_early)."
    )
    parser.add_argument(
        "--push_interval_s",
        type=float,
        nargs=2,
        default=None,
        metavar=("LOW", "HIGH"),
        help="Interval range [s] of the task's push_robot event (default: the task's own).",
    )
    parser.add_argument(
        "--mask_reset_on_cpu",
        action="store_true",
        help="On CPU, reset by mask as on CUDA (the env's mask_reset_on_cpu) instead of through core's index path.",
    )
    parser.add_argument(
        "--max_failures",
        type=non_negative_int,
        default=20,
        help="Stop stepping once more failures than this are recorded (the run still exits with status 1).",
    )
    parser.add_argument(
        "--torch_memory_snapshot",
        default=None,
        metavar="FILE",
        help="CUDA: record PyTorch's allocations from the warm-up on and write the snapshot to FILE when its reserved"
        " memory first grows, else at the end (open it at https://pytorch.org/memory_viz).",
    )
    parser.add_argument("--json", default=None, help="Write the report as JSON to this path.")
    parser.set_defaults(num_envs=256, device="cpu", seed=0)  # the seed also draws actions, injections and resets
    return parser


def _check(args: argparse.Namespace) -> None:
    """Refuse counts the run cannot honour (more envs poisoned or reset than there are, warm-up past the end)."""
    if args.nan_envs > args.num_envs or args.reset_envs > args.num_envs:
        raise SystemExit("--nan_envs and --reset_envs must not exceed --num_envs.")
    if args.warmup is not None and args.warmup >= args.steps:
        raise SystemExit(f"--warmup must be below --steps, got {args.warmup}.")
    if args.gpu_memory_scope == "process" and not args.device.startswith("cuda"):
        raise SystemExit("--gpu_memory_scope process limits CUDA memory growth: run with --device cuda:N.")
    if args.torch_memory_snapshot and not args.device.startswith("cuda"):
        raise SystemExit("--torch_memory_snapshot records PyTorch's CUDA allocations: run with --device cuda:N.")


def _write_torch_snapshot(path: str) -> None:
    """Write PyTorch's recorded allocation history to ``path`` and stop recording."""
    import torch

    torch.cuda.memory._dump_snapshot(path)
    torch.cuda.memory._record_memory_history(enabled=None)


def _world_dofs(model) -> np.ndarray:
    return model.joint_dof_world_start.numpy()


def main() -> int:
    args = parse_args(_parser(), check=_check)  # before torch, Warp and Newton load
    warmup = args.warmup if args.warmup is not None else args.steps // 10
    import numpy as np
    import torch
    import warp as wp

    from isaaclab_contrib.app.env_factory import load_env_cfg, make_env
    from isaaclab_newton.physics import NewtonManager

    options = env_options(args)
    cfg = load_env_cfg(args.task, solver=options.pop("solver"), presets=options.pop("presets"))
    if args.push_interval_s is not None:
        push = getattr(getattr(cfg, "events", None), "push_robot", None)
        if push is None:
            raise SystemExit(f"{args.task} has no events.push_robot term; drop --push_interval_s.")
        push.interval_range_s = tuple(args.push_interval_s)
    env = make_env(args.task, cfg=cfg, **options)
    unwrapped = env.unwrapped
    if args.mask_reset_on_cpu:
        unwrapped.mask_reset_on_cpu = True
    rng = np.random.default_rng(args.seed)
    torch.manual_seed(args.seed)
    model = NewtonManager.get_model()
    dof_start = _world_dofs(model)
    shape = (unwrapped.num_envs, *unwrapped.single_action_space.shape)

    report = {
        "task": args.task,
        "num_envs": args.num_envs,
        "steps": 0,
        "device": args.device,
        "machine": f"{platform.node()} ({os.cpu_count()} CPUs), {platform.platform()}",
        "env_resets": 0,
        "forced_resets": 0,
        "nan_injected": 0,
        "nan_detected": 0,
        "nan_recovered": 0,
        "nan_survivors": 0,
        "nan_flagged_others": 0,
        "stopped_early": None,
        "torch_snapshot_step": None,
        "failures": [],
        "rss_mib": [],
        "gpu_mib": [],
    }
    world_flags = None
    tally = _DeviceTally(unwrapped.device)
    env.reset(seed=args.seed)
    start = time.perf_counter()
    pending: np.ndarray | None = None
    baseline = None
    gpu_baseline = None
    snapshot_reserved = None  # PyTorch's reserved bytes at the warm-up while its allocations are recorded
    with torch.inference_mode():
        for step in range(1, args.steps + 1):
            if step % args.nan_every == 0:
                pending = rng.choice(args.num_envs, size=args.nan_envs, replace=False)
                qd = wp.to_torch(NewtonManager.get_state_0().joint_qd)
                for world in pending:
                    qd[dof_start[world] : dof_start[world + 1]] = float("nan")
                report["nan_injected"] += len(pending)
            action = 2.0 * torch.rand(shape, device=unwrapped.device) - 1.0
            obs, _, terminated, truncated, extras = env.step(action)
            done = terminated | truncated
            if world_flags is None:
                world_flags = getattr(unwrapped, "_nonfinite_world_flags", None)
                if world_flags is None:
                    raise SystemExit(f"{args.task} keeps no non-finite world flags: the soak cannot check recovery.")
            finite_obs = torch.isfinite(obs["policy"]).all(dim=-1)
            if pending is None:
                # nothing injected: the step's checks accumulate on the device, read at the next flush
                tally.add(done.sum(), extras["nan_envs"], world_flags.mask.sum(), (~finite_obs).sum())
            else:
                tally.flush(step - 1, report)
                done = done.cpu().numpy()
                finite_obs = finite_obs.cpu().numpy()
                report["env_resets"] += int(done.sum())
                detected = int(extras["nan_envs"])
                report["nan_detected"] += detected
                flagged = set(np.flatnonzero(world_flags.mask.cpu().numpy()).tolist())
                injected = {int(world) for world in pending}
                report["nan_flagged_others"] += len(flagged - injected)
                if flagged != injected:
                    report["failures"].append(
                        f"step {step}: flagged envs {sorted(flagged)[:8]}, injected {sorted(injected)[:8]}"
                    )
                if detected != len(pending):
                    report["failures"].append(f"step {step}: {detected} NaN env(s) reported, {len(pending)} injected")
                flags = wp.to_torch(NewtonManager.get_nonfinite_worlds()).cpu().numpy()
                qd_now = wp.to_torch(NewtonManager.get_state_0().joint_qd).cpu().numpy()
                for world in pending:
                    state_ok = np.isfinite(qd_now[dof_start[world] : dof_start[world + 1]]).all()
                    if done[world] and finite_obs[world] and state_ok and not flags[world]:
                        report["nan_recovered"] += 1
                    else:
                        report["failures"].append(f"step {step}: injected env {world} still non-finite after reset")
                if not finite_obs.all():
                    bad = np.flatnonzero(~finite_obs)[:8].tolist()
                    report["failures"].append(f"step {step}: non-finite observations in envs {bad}")
                pending = None
            if step % args.reset_every == 0:
                ids = rng.choice(args.num_envs, size=args.reset_envs, replace=False)
                unwrapped._reset_idx(torch.as_tensor(ids, device=unwrapped.device))
                report["forced_resets"] += len(ids)
            out_of_time = args.max_seconds is not None and time.perf_counter() - start > args.max_seconds
            if step == warmup or step % args.rss_every == 0 or step == args.steps or out_of_time:
                tally.flush(step, report)
                sample = {
                    "step": step,
                    "rss_mib": round(_rss_mib(), 1),
                    "elapsed_s": round(time.perf_counter() - start, 1),
                }
                report["rss_mib"].append(sample)
                gpu = _gpu_memory_mib(args.device)
                if gpu is not None:
                    recordings = getattr(unwrapped, "step_graph_recordings", None)
                    report["gpu_mib"].append({"step": step, **gpu, "step_graph_recordings": recordings})
                if step == warmup:
                    baseline = sample["rss_mib"]
                    gpu_baseline = gpu
                    if args.torch_memory_snapshot:
                        torch.cuda.memory._record_memory_history(max_entries=200_000)
                        snapshot_reserved = torch.cuda.memory_reserved(args.device)
                gpu_text = ""
                if gpu is not None:
                    gpu_text = (
                        f", device memory in use {gpu['device_used']} MiB (PyTorch allocated {gpu['torch_allocated']},"
                        f" reserved {gpu['torch_reserved']})"
                    )
                    if recordings is not None:
                        gpu_text += f", env step recorded {recordings} time(s)"
                print(f"[soak] step {step}: RSS {sample['rss_mib']} MiB{gpu_text}, {sample['elapsed_s']} s", flush=True)
            if snapshot_reserved is not None and torch.cuda.memory_reserved(args.device) > snapshot_reserved:
                _write_torch_snapshot(args.torch_memory_snapshot)
                snapshot_reserved = None
                report["torch_snapshot_step"] = step
                print(f"[soak] step {step}: PyTorch reserved a new segment; snapshot written", flush=True)
            report["steps"] = step
            if len(report["failures"]) > args.max_failures:
                break
            if out_of_time:
                report["stopped_early"] = f"--max_seconds {args.max_seconds} reached after {step} of {args.steps} steps"
                break
    elapsed = time.perf_counter() - start
    if args.torch_memory_snapshot and baseline is None:
        print(f"[soak] no memory snapshot: the run ended before the warm-up ({warmup} steps)")
    elif snapshot_reserved is not None:
        _write_torch_snapshot(args.torch_memory_snapshot)
    env.close()

    if baseline is None:
        baseline = report["rss_mib"][0]["rss_mib"]
    final = report["rss_mib"][-1]["rss_mib"]
    growth = (final - baseline) / baseline
    report.update(
        rss_baseline_mib=baseline,
        rss_final_mib=final,
        rss_growth=round(growth, 4),
        elapsed_s=round(elapsed, 1),
        env_steps_per_s=round(report["steps"] * args.num_envs / elapsed, 1),
    )
    if growth > args.max_rss_growth:
        report["failures"].append(f"RSS grew {100 * growth:.2f}% after warm-up (limit {100 * args.max_rss_growth}%)")
    gpu_text = ""
    if report["gpu_mib"]:
        gpu_baseline = gpu_baseline or report["gpu_mib"][0]
        gpu_final = report["gpu_mib"][-1]
        key = "device_used" if args.gpu_memory_scope == "device" else "process_used"
        gpu_growth = (gpu_final[key] - gpu_baseline[key]) / gpu_baseline[key]
        report.update(gpu_baseline_mib=gpu_baseline, gpu_final_mib=gpu_final, gpu_growth=round(gpu_growth, 4))
        gpu_text = (
            f"; device memory in use {gpu_baseline['device_used']} -> {gpu_final['device_used']} MiB,"
            f" this process's allocators {gpu_baseline['process_used']} -> {gpu_final['process_used']} MiB"
            f" ({key}: {100 * gpu_growth:+.2f}%),"
            f" torch peak {gpu_baseline['torch_peak']} -> {gpu_final['torch_peak']} MiB"
        )
        if gpu_growth > args.max_gpu_growth:
            report["failures"].append(
                f"{key} grew {100 * gpu_growth:.2f}% after warm-up (limit {100 * args.max_gpu_growth}%)"
            )
    report["nan_survivors"] = report["nan_injected"] - report["nan_recovered"]
    if report["nan_recovered"] != report["nan_injected"]:
        report["failures"].append(
            f"{report['nan_injected'] - report['nan_recovered']} injected NaN env(s) not recovered"
        )

    print(
        f"[soak] {report['steps']} steps x {args.num_envs} envs in {elapsed:.1f} s; env resets {report['env_resets']}"
        f" (forced {report['forced_resets']}); NaN injected {report['nan_injected']},"
        f" detected {report['nan_detected']},"
        f" recovered {report['nan_recovered']}, survivors {report['nan_survivors']},"
        f" other envs flagged {report['nan_flagged_others']};"
        f" RSS {baseline} -> {final} MiB ({100 * growth:+.2f}%){gpu_text}"
    )
    if report["stopped_early"]:
        print(f"[soak] stopped early: {report['stopped_early']}")
    for failure in report["failures"]:
        print(f"[soak] FAIL {failure}")
    if args.json:
        with open(args.json, "w") as out:
            json.dump(report, out, indent=2)
    return 1 if report["failures"] else 0


if __name__ == "__main__":
    run_script(main)
