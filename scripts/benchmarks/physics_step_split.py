"""Where a task's env step goes: the physics step, its collision detection and solver substeps, and the sensors.

For each task (``--tasks``) and env count (``--num_envs``) the script builds the environment on ``--device``, takes
``--warmup`` steps with uniform random actions (so robots stand, walk and fall as in training), then times
``--steps`` calls of each part, with the device synchronized around each block:

* ``env_step_ms``: ``env.step()`` with zero actions (replayed from the env-step graph where the task records one);
* ``physics_step_ms``: ``NewtonManager.step()``, all substeps (the manager's substep graph where it has one);
* ``collide_ms``: one ``collide()`` of the manager's collision pipeline, captured in a graph and replayed (CUDA
  graph, or Warp CPU graph on CPU); absent where the solver collides by itself;
* ``solver_substep_ms``: one substep of the solver, captured and replayed the same way;
* ``sensor_ms``: one forced update of each scene sensor, by name (eager: ray casters and contact sensors).

With ``--kernels N`` (CUDA only) it also times each kernel of an eager ``collide()``, solver substep and sensor
update with Warp's CUDA activity timing (``wp.timing_begin``) over ``--steps`` calls, and lists the ``N`` costliest
of each as ``{kernel: [ms per call, launches per call]}`` (``kernels_ms``). Eager launches run back to back without a
graph, so the sums exceed the replayed figures by the launch gaps; the shares are what they are for.

``--cfg PATH=VALUE`` (repeatable) sets a field of each task's env cfg before the build, the value read as a Python
literal where it parses as one and as a string otherwise, to compare settings in one session, e.g.
``--cfg sim.physics.newton_mjwarp.bvh_constructor_geometry=sah``.

A physics step runs ``collide_ms`` on every ``NewtonCfg.collision_decimation``-th substep and ``solver_substep_ms`` on
each, so ``collisions_per_step * collide_ms + substeps * solver_substep_ms`` is close to ``physics_step_ms``. The
counts after the timed steps are printed with them: rigid contacts and mesh triangle pairs per world, and MuJoCo
Warp's constraint rows per world (mean and max), to compare with the task's ``njmax`` / ``nconmax``.

Examples::

    ./isaaclab.sh -p scripts/benchmarks/physics_step_split.py --device cuda:0 --num_envs 4096 \\
        --tasks Isaac-Velocity-Rough-Unitree-Go1-v0 Isaac-Velocity-Flat-Unitree-Go1-v0 --out /tmp/split.json
    ./isaaclab.sh -p scripts/benchmarks/physics_step_split.py --device cpu --num_envs 16 --steps 10
"""

from __future__ import annotations

import argparse
import ast
import functools
import json
import time
from collections.abc import Callable

from isaaclab_contrib.app.args import non_negative_int, parse_args, positive_int, sweep_parser
from isaaclab_contrib.app.entry import run_script


def _timed_ms(fn: Callable[[], None], steps: int, device: str) -> float:
    """Mean wall time of ``fn`` [ms] over ``steps`` calls, the device synchronized around the block."""
    import warp as wp

    wp.synchronize_device(device)
    start = time.perf_counter()
    for _ in range(steps):
        fn()
    wp.synchronize_device(device)
    return (time.perf_counter() - start) / steps * 1e3


def _kernel_ms(fn: Callable[[], None], steps: int, top: int) -> dict[str, list[float]]:
    """The ``top`` costliest kernels of ``fn`` (eager): ``{name: [ms per call, launches per call]}``."""
    import warp as wp

    fn()  # lazy allocations and module loads stay out of the timing
    wp.timing_begin(cuda_filter=wp.TIMING_KERNEL | wp.TIMING_KERNEL_BUILTIN | wp.TIMING_MEMCPY | wp.TIMING_MEMSET)
    for _ in range(steps):
        fn()
    results = wp.timing_end()
    totals: dict[str, list[float]] = {}
    for result in results:
        entry = totals.setdefault(result.name, [0.0, 0.0])
        entry[0] += result.elapsed / steps
        entry[1] += 1.0 / steps
    ranked = sorted(totals.items(), key=lambda item: -item[1][0])
    return {"total": [sum(v[0] for v in totals.values()), sum(v[1] for v in totals.values())], **dict(ranked[:top])}


def _replayed(fn: Callable[[], None], device: str) -> Callable[[], None]:
    """``fn`` run once eagerly (lazy allocations), then captured; returns the replay."""
    from isaaclab_newton.physics import graph as graph_utils

    fn()
    captured = graph_utils.capture(fn, device)
    return lambda: graph_utils.launch(captured)


def _apply_cfg_overrides(cfg, assignments: list[str]) -> None:
    """Apply ``PATH=VALUE`` assignments to ``cfg`` (values as Python literals where they parse, else strings)."""
    for assignment in assignments:
        path, sep, text = assignment.partition("=")
        if not sep:
            raise ValueError(f"--cfg takes PATH=VALUE, got {assignment!r}")
        *parents, leaf = path.split(".")
        target = functools.reduce(getattr, parents, cfg)
        if not hasattr(target, leaf):
            raise AttributeError(f"--cfg {assignment!r}: {type(target).__name__} has no field {leaf!r}")
        try:
            value = ast.literal_eval(text)
        except (ValueError, SyntaxError):
            value = text
        setattr(target, leaf, value)


def split(task: str, num_envs: int, args: argparse.Namespace) -> dict:
    """Build ``task`` at ``num_envs`` envs, step it, and time its parts; return the figures and counts."""
    import torch

    from isaaclab_contrib.app.env_factory import load_env_cfg, make_env
    from isaaclab_newton.physics import NewtonManager

    cfg = load_env_cfg(task, solver=args.solver)
    _apply_cfg_overrides(cfg, args.cfg)
    env = make_env(task, cfg=cfg, num_envs=num_envs, device=args.device, seed=args.seed, verbose=args.verbose)
    try:
        env.reset()
        unwrapped = env.unwrapped
        shape = (unwrapped.num_envs, *unwrapped.single_action_space.shape)
        for _ in range(args.warmup):
            env.step(2.0 * torch.rand(shape, device=unwrapped.device) - 1.0)
        zeros = torch.zeros(shape, device=unwrapped.device)
        result = {"task": task, "num_envs": num_envs, "decimation": int(unwrapped.cfg.decimation), "cfg": args.cfg}
        result["substeps"] = NewtonManager.get_num_substeps()
        result["collisions_per_step"] = -(-result["substeps"] // int(NewtonManager._cfg.collision_decimation))
        result["env_step_ms"] = _timed_ms(lambda: env.step(zeros), args.steps, args.device)
        result["physics_step_ms"] = _timed_ms(NewtonManager.step, args.steps, args.device)
        state_0, state_1 = NewtonManager.get_state_0(), NewtonManager.get_state_1()
        control, contacts = NewtonManager.get_control(), NewtonManager.get_contacts()
        pipeline, solver = NewtonManager.get_collision_pipeline(), NewtonManager.get_solver()
        if pipeline is not None:
            collide = _replayed(lambda: pipeline.collide(state_0, contacts), args.device)
            result["collide_ms"] = _timed_ms(collide, args.steps, args.device)
        substep_dt = NewtonManager.get_physics_dt() / result["substeps"]
        substep = _replayed(lambda: solver.step(state_0, state_1, control, contacts, substep_dt), args.device)
        result["solver_substep_ms"] = _timed_ms(substep, args.steps, args.device)
        result["sensor_ms"] = {
            name: _timed_ms(lambda s=sensor: s.update(unwrapped.step_dt, force_recompute=True), args.steps, args.device)
            for name, sensor in unwrapped.scene.sensors.items()
        }
        result["env_steps_per_s"] = num_envs / result["env_step_ms"] * 1e3
        if args.kernels:
            parts = {"solver_substep": lambda: solver.step(state_0, state_1, control, contacts, substep_dt)}
            if pipeline is not None:
                parts["collide"] = lambda: pipeline.collide(state_0, contacts)
            for name, sensor in unwrapped.scene.sensors.items():
                parts[f"sensor {name}"] = lambda s=sensor: s.update(unwrapped.step_dt, force_recompute=True)
            result["kernels_ms"] = {part: _kernel_ms(fn, args.steps, args.kernels) for part, fn in parts.items()}
        result.update(_counts(pipeline, contacts, solver, num_envs))
        return result
    finally:
        env.close()


def _counts(pipeline, contacts, solver, num_envs: int) -> dict:
    """Contacts, triangle pairs and constraint rows per world after the last timed call (setup-style host reads)."""
    counts = {}
    if contacts is not None:
        counts["rigid_contacts_per_world"] = int(contacts.rigid_contact_count.numpy()[0]) / num_envs
    narrow = getattr(pipeline, "narrow_phase", None)
    if getattr(narrow, "triangle_pairs_count", None) is not None:
        counts["triangle_pairs_per_world"] = int(narrow.triangle_pairs_count.numpy()[0]) / num_envs
    data = getattr(solver, "mjw_data", None)
    if data is not None:
        rows = data.nefc.numpy()
        counts.update(constraint_rows_mean=float(rows.mean()), constraint_rows_max=int(rows.max()), njmax=data.njmax)
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        parents=[sweep_parser(tasks=["Isaac-Velocity-Rough-Unitree-Go1-v0"], num_envs=[4096])],
    )
    parser.add_argument("--warmup", type=non_negative_int, default=30, help="Random-action steps before timing.")
    parser.add_argument("--steps", type=positive_int, default=50, help="Timed calls of each part.")
    parser.add_argument("--cfg", action="append", default=[], help="PATH=VALUE set on the env cfg (repeatable).")
    parser.add_argument(
        "--kernels", type=non_negative_int, default=0, help="List this many costliest kernels per part (CUDA)."
    )
    parser.add_argument("--out", default=None, help="JSON file for the results.")
    parser.set_defaults(seed=0)
    args = parse_args(parser)  # before torch, Warp and Newton load
    results = [split(task, num_envs, args) for task in args.tasks for num_envs in args.num_envs]
    for result in results:
        print(json.dumps(result, indent=1))
    if args.out:
        with open(args.out, "w") as f:
            json.dump(
                {"device": args.device, "steps": args.steps, "warmup": args.warmup, "results": results}, f, indent=1
            )


if __name__ == "__main__":
    run_script(main)
