"""Environment throughput of every registered task against its physics ceiling, in one process.

For each task (``--tasks``, default: all registered by ``isaaclab_contrib.tasks``) and each environment count
(``--num_envs``; default 1,024 / 4,096 / 16,384 on CUDA, 16 / 64 / 256 on CPU) the script

* builds the environment and times its construction (``setup_s``), its first ``env.step()`` (``first_step_s``:
  kernel compilation and the substep graph's capture, which happen on first use) and its second one
  (``second_step_s``: where whole env steps replay from a CUDA graph, that step is recorded and replayed),
* times ``--steps`` ``env.step()`` calls with zero actions after ``--warmup`` untimed ones (``env_steps_per_s``,
  environments x steps / s); with ``--policy`` (one task) the actions come from an exported policy (``policy.pt``
  of ``play.py``) applied to each step's ``policy`` observations, its inference included in the time: zero actions
  leave a manipulation task's solver converging in one iteration, a policy that grasps makes it take several,
* times the raw solver loop on the same model (``raw_physics_steps_per_s``, worlds x physics steps / s): the
  solver the manager builds (a second one, from the manager's ``_create_solver``: for the custom MuJoCo Warp + VBD
  manager that is the coupled substep with both solvers and its own collision pipeline), the same substeps,
  collision pipeline when the manager owns one (built from the task's ``NewtonCfg.collision_cfg``, colliding on the
  substeps ``collision_decimation`` picks), the control the env's last step left (with zero actions,
  position-controlled robots hold their default pose as in the env; ``model.control()``'s zero targets would drive
  them elsewhere, the Go1's knees to their joint limit at -0.888 rad), one physics step captured in a graph (CUDA
  graph, or Warp CPU graph on CPU) and replayed, like the raw loop of ``benchmark_observables.py``,

and reports ``ratio = env_steps_per_s * decimation / raw_physics_steps_per_s``, the share of the physics ceiling
the environment reaches, with ``env_graph`` (the manager replays its substep graph) and ``env_step_graph`` (whole
env steps replay from a CUDA graph). Results are printed, written as JSON (``--out``) and drawn as a PNG (``--plot``):
throughput against environment count per task, the environment next to its ceiling.

With ``--viewer viser`` (or another live viewer) the envs are drawn while they are timed, and each row also gives
``viewer_frames`` (frames drawn in the timed steps) and ``viewer_draw_share`` (their share of the timed wall time);
running the same command without it gives the viewer's cost.

Examples::

    ./isaaclab.sh -p scripts/benchmarks/benchmark_envs.py --device cuda:0 --out /tmp/envs.json
    ./isaaclab.sh -p scripts/benchmarks/benchmark_envs.py --device cpu --num_envs 16 64 --steps 20
    ./isaaclab.sh -p scripts/benchmarks/benchmark_envs.py --device cuda:0 --tasks Isaac-Ant-Direct-v0 \
        --num_envs 4096 --steps 2000 --viewer viser --out /tmp/envs_viser.json
    ./isaaclab.sh -p scripts/benchmarks/benchmark_envs.py --device cuda:0 --tasks Isaac-Lift-Cube-Franka-v0 \
        --num_envs 4096 --policy logs/rsl_rl/lift_cube_franka/<run>/exported/policy.pt
"""

from __future__ import annotations

import argparse
import json
import pathlib
import platform
import sys
import time
from dataclasses import asdict, dataclass

from isaaclab_contrib.app import args as script_args
from isaaclab_contrib.app.entry import run_script

CUDA_COUNTS = (1024, 4096, 16384)
CPU_COUNTS = (16, 64, 256)


@dataclass
class Result:
    """One task at one environment count."""

    task: str
    num_envs: int
    decimation: int
    status: str = "ok"
    setup_s: float | None = None
    first_step_s: float | None = None
    second_step_s: float | None = None
    env_steps_per_s: float | None = None
    raw_physics_steps_per_s: float | None = None
    ratio: float | None = None
    env_graph: bool = False
    env_step_graph: bool = False
    raw_graph: bool = False
    actions: str = "zero"
    """``zero``, or the TorchScript policy file whose actions drove the timed steps."""
    viewer: str = "none"
    viewer_frames: int | None = None
    viewer_draw_share: float | None = None


def _sync(device: str) -> None:
    import torch
    import warp as wp

    wp.synchronize_device(device)
    if device.startswith("cuda"):
        torch.cuda.synchronize()


def time_env(task: str, num_envs: int, args: argparse.Namespace, result: Result):
    """Build the env and time setup, the first step and the steady env steps; return the env (left open)."""
    import torch

    from isaaclab_contrib.app.env_factory import load_env_cfg, make_env

    cfg = load_env_cfg(task, solver=args.solver)
    result.decimation = int(cfg.decimation)
    start = time.perf_counter()
    viewer = script_args.viewer_options(args)
    env = make_env(
        task, cfg=cfg, num_envs=num_envs, device=args.device, seed=args.seed, viewer=viewer, verbose=args.verbose
    )
    obs, _ = env.reset()
    _sync(args.device)
    result.setup_s = time.perf_counter() - start
    unwrapped = env.unwrapped
    zeros = torch.zeros((unwrapped.num_envs, *unwrapped.single_action_space.shape), device=unwrapped.device)
    policy = None
    if args.policy is not None:
        policy = torch.jit.load(str(args.policy), map_location=unwrapped.device)
        result.actions = str(args.policy)

    def step() -> None:
        nonlocal obs
        obs = env.step(zeros if policy is None else policy(obs["policy"]))[0]

    # the policy's inference as rsl-rl runs it (zero actions: as before, no autograd mode)
    with torch.inference_mode(policy is not None):
        start = time.perf_counter()
        step()
        _sync(args.device)
        result.first_step_s = time.perf_counter() - start
        start = time.perf_counter()
        step()
        _sync(args.device)
        result.second_step_s = time.perf_counter() - start
        for _ in range(args.warmup):
            step()
        _sync(args.device)
        budget = getattr(env, "budget", None)  # the live viewer's frame budget (--viewer)
        frames, drawing = (budget.drawn, budget.draw_time) if budget is not None else (0, 0.0)
        start = time.perf_counter()
        for _ in range(args.steps):
            step()
        _sync(args.device)
    elapsed = time.perf_counter() - start
    result.env_steps_per_s = num_envs * args.steps / elapsed
    if budget is not None:
        result.viewer = viewer.backend
        result.viewer_frames = budget.drawn - frames
        result.viewer_draw_share = (budget.draw_time - drawing) / elapsed
    from isaaclab_newton.physics import NewtonManager

    result.env_graph = NewtonManager.uses_graph()
    result.env_step_graph = getattr(unwrapped, "step_graph_recorded", False)
    return env


def time_raw(env, args: argparse.Namespace, result: Result) -> None:
    """Time the raw solver loop on the env's model: one physics step captured and replayed."""
    import newton

    from isaaclab_newton.physics import NewtonManager
    from isaaclab_newton.physics import graph as graph_utils

    manager = env.unwrapped.sim.physics_manager
    model = NewtonManager.get_model()
    solver = manager._create_solver(model, NewtonManager.get_solver_cfg())
    state_0, state_1 = model.state(), model.state()
    state_0.assign(NewtonManager.get_state_0())
    control = NewtonManager.get_control()  # the env's last joint targets
    pipeline = None
    if NewtonManager._needs_collision_pipeline:  # the task's own pipeline settings (triangle-pair budget, reduction)
        pipeline = newton.CollisionPipeline(model, **manager._collision_pipeline_kwargs(model))
    contacts = pipeline.contacts() if pipeline is not None else None
    substeps = NewtonManager.get_num_substeps()
    collision_every = int(manager._cfg.collision_decimation)
    dt = NewtonManager.get_physics_dt() / substeps
    single = NewtonManager._use_single_state

    def physics_step() -> None:
        nonlocal state_0, state_1
        for substep in range(substeps):
            if pipeline is not None and substep % collision_every == 0:
                pipeline.collide(state_0, contacts)
            out = state_0 if single else state_1
            solver.step(state_0, out, control, contacts, dt)
            if not single:
                if substep == substeps - 1 and substeps % 2 == 1:
                    state_0.assign(state_1)
                else:
                    state_0, state_1 = state_1, state_0

    physics_step()  # eager first step: lazy solver allocations happen outside any capture
    step = physics_step
    if not args.no_graph:
        try:
            captured = graph_utils.capture(physics_step, args.device)
            result.raw_graph = True

            def step() -> None:
                graph_utils.launch(captured)

        except Exception as exc:  # report and time the eager loop instead
            print(f"  raw loop: graph capture failed ({exc}); timing it eagerly", flush=True)
    raw_steps = args.steps * result.decimation
    for _ in range(args.warmup):
        step()
    _sync(args.device)
    start = time.perf_counter()
    for _ in range(raw_steps):
        step()
    _sync(args.device)
    result.raw_physics_steps_per_s = result.num_envs * raw_steps / (time.perf_counter() - start)


def run(task: str, num_envs: int, args: argparse.Namespace) -> Result:
    result = Result(task=task, num_envs=num_envs, decimation=0)
    env = None
    try:
        env = time_env(task, num_envs, args, result)
        time_raw(env, args, result)
        result.ratio = result.env_steps_per_s * result.decimation / result.raw_physics_steps_per_s
    except Exception as exc:  # one failing configuration must not lose the others
        result.status = f"error: {type(exc).__name__}: {exc}"
    finally:
        if env is not None:
            env.close()
    return result


def versions() -> dict[str, str]:
    import importlib.metadata as md

    out = {"python": platform.python_version(), "platform": platform.platform()}
    for name in ("torch", "newton", "warp-lang", "mujoco-warp", "isaaclab"):
        try:
            out[name] = md.version(name)
        except md.PackageNotFoundError:
            out[name] = "not installed"
    return out


def print_table(results: list[Result]) -> None:
    print(
        f"{'task':<34} {'envs':>6} {'dec':>3} {'setup s':>8} {'1st step s':>10} {'2nd step s':>10} {'env-steps/s':>13}"
        f" {'raw phys-steps/s':>17} {'ratio':>6}  status"
    )
    for r in results:
        fmt = lambda v, spec: "-" if v is None else format(v, spec)  # noqa: E731
        print(
            f"{r.task:<34} {r.num_envs:>6} {r.decimation:>3} {fmt(r.setup_s, '.1f'):>8}"
            f" {fmt(r.first_step_s, '.2f'):>10} {fmt(r.second_step_s, '.2f'):>10}"
            f" {fmt(r.env_steps_per_s, ',.0f'):>13} {fmt(r.raw_physics_steps_per_s, ',.0f'):>17}"
            f" {fmt(r.ratio, '.3f'):>6}  {r.status}"
        )


def plot(results: list[Result], path: pathlib.Path, title: str) -> None:
    """Per task: env-steps/s and the ceiling (raw physics-steps/s / decimation) against environment count."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    tasks = sorted({r.task for r in results})
    fig, axes = plt.subplots(1, len(tasks), figsize=(4.5 * len(tasks), 4.0), squeeze=False)
    for ax, task in zip(axes[0], tasks, strict=True):
        rows = sorted((r for r in results if r.task == task and r.ratio is not None), key=lambda r: r.num_envs)
        ax.set_title(task, fontsize=9)
        if not rows:  # every count of this task failed: its status is in the table and the JSON
            ax.text(0.5, 0.5, "no measurement", ha="center", va="center", transform=ax.transAxes)
            continue
        envs = [r.num_envs for r in rows]
        ax.plot(envs, [r.env_steps_per_s for r in rows], "o-", label="env")
        ax.plot(envs, [r.raw_physics_steps_per_s / r.decimation for r in rows], "s--", label="physics ceiling")
        for r in rows:
            ax.annotate(f"{r.ratio:.2f}", (r.num_envs, r.env_steps_per_s), textcoords="offset points", xytext=(4, -12))
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("environments")
        ax.set_ylabel("env-steps/s")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line, refused before torch, Warp and Newton load; per-device defaults filled in."""
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], parents=[script_args.sweep_parser(), script_args.viewer_parser()]
    )
    parser.add_argument(
        "--steps", type=script_args.positive_int, default=None, help="Timed env steps (default 200 CUDA, 20 CPU)."
    )
    parser.add_argument(
        "--warmup", type=script_args.non_negative_int, default=None, help="Untimed steps (default 20 CUDA, 3 CPU)."
    )
    parser.add_argument("--no_graph", action="store_true", help="Time the raw loop eagerly.")
    parser.add_argument(
        "--policy",
        type=script_args.existing_file,
        default=None,
        help="Exported TorchScript policy (play.py's policy.pt) whose actions drive the timed steps (one task).",
    )
    parser.add_argument("--out", type=pathlib.Path, default=pathlib.Path("benchmark_envs.json"), help="JSON path.")
    parser.add_argument("--plot", type=pathlib.Path, default=None, help="PNG path (default: --out with .png).")
    parser.set_defaults(seed=0)
    args = script_args.parse_args(parser, argv)
    from isaaclab_contrib.app.task_ids import our_task_ids

    cuda = args.device.startswith("cuda")
    if args.policy is not None and (args.tasks is None or len(args.tasks) != 1):
        parser.error("--policy drives one task: name it with --tasks TASK")
    args.tasks = args.tasks or list(our_task_ids())
    args.num_envs = args.num_envs or list(CUDA_COUNTS if cuda else CPU_COUNTS)
    args.steps = args.steps if args.steps is not None else (200 if cuda else 20)
    args.warmup = args.warmup if args.warmup is not None else (20 if cuda else 3)
    args.plot = args.plot or args.out.with_suffix(".png")
    return args


def write_report(results: list[Result], args: argparse.Namespace, argv: list[str] | None) -> str:
    """Write the JSON report and the PNG of ``results`` (after every measurement: a cut-off run keeps its figures)."""
    import warp as wp

    device_name = wp.get_device(args.device).name
    actions = "zero actions" if args.policy is None else f"actions of {args.policy}"
    header = f"device {args.device} ({device_name}), {args.steps} timed env steps, {actions}"
    report = {
        "command": " ".join([pathlib.Path(sys.argv[0]).name, *(argv if argv is not None else sys.argv[1:])]),
        "device": args.device,
        "device_name": device_name,
        "steps": args.steps,
        "warmup": args.warmup,
        "versions": versions(),
        "results": [asdict(r) for r in results],
    }
    args.out.write_text(json.dumps(report, indent=2))
    plot(results, args.plot, header)
    return header


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    results = []
    for task in args.tasks:
        for num_envs in args.num_envs:
            print(f"{task} at {num_envs} envs ...", flush=True)
            results.append(run(task, num_envs, args))
            write_report(results, args, argv)
    header = write_report(results, args, argv)
    print(header)
    print_table(results)
    print(f"wrote {args.out} and {args.plot}")
    return 0 if all(r.status == "ok" for r in results) else 1


if __name__ == "__main__":
    run_script(main)
