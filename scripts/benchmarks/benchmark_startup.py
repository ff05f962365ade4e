"""Time from a fresh interpreter to the first env step, per task and device, warm and cold Warp kernel cache.

Each start runs in its own process and is split into:

* ``imports``: torch, Warp, Newton, Isaac Lab core and the task's config modules, and the config itself;
* ``scene``: the rest of ``gym.make``: env and scene classes (and what they import), spawning, cloning, solver set-up;
* ``finalize``: ``newton.ModelBuilder.finalize``;
* ``kernels``: Warp module loads (compiled on a cold cache, loaded from the cache on a warm one), wherever they
  happen (scene build, finalize, capture, first step);
* ``capture``: CUDA / Warp-CPU graph captures (``wp.capture_begin`` .. ``wp.capture_end``);
* ``step``: the rest of ``env.reset()`` and the first ``env.step()``.

No phase counts the kernel loads inside it (they are in ``kernels``). ``cpu`` is the process's CPU time to the
first step: on a shared machine wall time grows with the load, CPU time much less.

A cold start points ``WARP_CACHE_PATH`` at an empty folder; the warm start after it reuses that folder, now
filled. Without ``--cold`` one unmeasured start fills the user's kernel cache first. Prints a Markdown table
(``--out`` writes the rows as JSON)::

    ./isaaclab.sh -p scripts/benchmarks/benchmark_startup.py --device cpu --num_envs 16
    ./isaaclab.sh -p scripts/benchmarks/benchmark_startup.py --device cuda:0 --num_envs 1024 --cold \\
        --tasks Isaac-Cartpole-Direct-v0 --out s.json
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

from isaaclab_contrib.app.args import parse_args, sweep_parser
from isaaclab_contrib.app.entry import run_script
from isaaclab_contrib.app.task_ids import our_task_ids

PHASES = ("imports", "scene", "finalize", "kernels", "capture", "step")


def _child(task: str, device: str, num_envs: int) -> dict:
    """One measured start in this process; returns the phases [s], compiled-module count, wall and CPU totals."""
    start, start_cpu = time.perf_counter(), time.process_time()
    import newton
    import torch
    import warp as wp

    import isaaclab_contrib.tasks  # noqa: F401
    from isaaclab_contrib.app.console import held_prints
    from isaaclab_contrib.app.env_factory import load_env_cfg, make_env

    cfg = load_env_cfg(task)
    imported = time.perf_counter()

    kernel = {"s": 0.0, "compiled": 0}

    class LoadClock:
        def debug(self, message):
            pass

        def info(self, message):
            if message.startswith("Module ") and " took " in message:
                kernel["s"] += float(message.rsplit(" took ", 1)[1].split(" ms", 1)[0]) / 1000.0
                kernel["compiled"] += message.rstrip().endswith("(compiled)")

        def warning(self, message, category=None, stacklevel=1):
            pass

        def error(self, message):
            print(message, file=sys.stderr)

    wp.config.log_level = wp.LOG_INFO
    wp.set_logger(LoadClock())
    spans = {"finalize": 0.0, "capture": 0.0}

    def timed(key, fn):
        def wrapper(*args, **kwargs):
            t, k = time.perf_counter(), kernel["s"]
            try:
                return fn(*args, **kwargs)
            finally:
                spans[key] += time.perf_counter() - t - (kernel["s"] - k)

        return wrapper

    newton.ModelBuilder.finalize = timed("finalize", newton.ModelBuilder.finalize)
    begin, end = wp.capture_begin, wp.capture_end
    capture_start = {}

    def capture_begin(*args, **kwargs):
        capture_start["t"], capture_start["k"] = time.perf_counter(), kernel["s"]
        return begin(*args, **kwargs)

    def capture_end(*args, **kwargs):
        graph = end(*args, **kwargs)
        spans["capture"] += time.perf_counter() - capture_start["t"] - (kernel["s"] - capture_start["k"])
        return graph

    wp.capture_begin, wp.capture_end = capture_begin, capture_end
    with held_prints(verbose=False):
        env = make_env(task, cfg=cfg, num_envs=num_envs, device=device, seed=0)
    made = time.perf_counter()
    in_make = {"kernels": kernel["s"], **spans}
    unwrapped = env.unwrapped
    env.reset()
    actions = torch.zeros((unwrapped.num_envs, *unwrapped.single_action_space.shape), device=unwrapped.device)
    env.step(actions)
    wp.synchronize()
    stepped, stepped_cpu = time.perf_counter(), time.process_time()
    env.close()
    phases = {
        "imports": imported - start,
        "scene": made - imported - sum(in_make.values()),
        "finalize": spans["finalize"],
        "kernels": kernel["s"],
        "capture": spans["capture"],
    }
    after_make = kernel["s"] - in_make["kernels"] + spans["capture"] - in_make["capture"]
    phases["step"] = stepped - made - after_make - (spans["finalize"] - in_make["finalize"])
    return {
        "phases": phases,
        "compiled_modules": kernel["compiled"],
        "total_s": stepped - start,
        "cpu_s": stepped_cpu - start_cpu,
    }


def _measure(task: str, device: str, num_envs: int, *, cache: str | None) -> dict:
    env = dict(os.environ)
    if cache is not None:
        env["WARP_CACHE_PATH"] = cache
    argv = [sys.executable, os.path.abspath(__file__), "--child", task, "--device", device, "--num_envs", str(num_envs)]
    started = time.perf_counter()
    result = subprocess.run(argv, capture_output=True, text=True, env=env, check=False)
    wall = time.perf_counter() - started
    if result.returncode != 0:
        raise SystemExit(f"{task} on {device} failed:\n{result.stderr[-3000:]}")
    row = json.loads(result.stdout.strip().splitlines()[-1])
    row.update(task=task, device=device, num_envs=num_envs, process_s=wall)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], parents=[sweep_parser(num_envs=[16])])
    parser.add_argument("--cold", action="store_true", help="Also time a start on an empty Warp kernel cache.")
    parser.add_argument("--out", default=None, help="Write the rows as JSON here.")
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    parser.set_defaults(device="cpu")
    args = parse_args(parser)  # before torch, Warp and Newton load
    if args.child:
        print(json.dumps(_child(args.child, args.device, args.num_envs[0])))
        return
    rows = []
    for task, num_envs in [(task, n) for task in args.tasks or our_task_ids() for n in args.num_envs]:
        if args.cold:
            with tempfile.TemporaryDirectory(prefix="warp-cold-") as cache:
                rows.append({**_measure(task, args.device, num_envs, cache=cache), "cache": "cold"})
                rows.append({**_measure(task, args.device, num_envs, cache=cache), "cache": "warm"})
        else:
            _measure(task, args.device, num_envs, cache=None)  # fills the user's cache
            rows.append({**_measure(task, args.device, num_envs, cache=None), "cache": "warm"})
        print(f"[INFO] {task}: done", file=sys.stderr, flush=True)
    header = " | ".join(f"{phase} [s]" for phase in PHASES)
    print(f"| task | device | envs | cache | {header} | first step [s] | cpu [s] | modules compiled |")
    print("|---|---|---:|---|" + "---:|" * (len(PHASES) + 3))
    for row in rows:
        cells = " | ".join(f"{row['phases'][phase]:.1f}" for phase in PHASES)
        print(
            f"| {row['task']} | {row['device']} | {row['num_envs']} | {row['cache']} | {cells}"
            f" | {row['total_s']:.1f} | {row['cpu_s']:.1f} | {row['compiled_modules']} |"
        )
    if args.out:
        with open(args.out, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    run_script(main)
