"""Export a training run's TensorBoard scalars (the env's logged episode terms among them) to one CSV.

rsl-rl writes every ``extras["log"]`` entry of the env (``Episode_Reward/<term>``, ``Episode_Termination/<term>``,
``Curriculum/<term>``, ``Metrics/<command>/<metric>``) and its own ``Train/``, ``Loss/`` and ``Perf/`` values to the
run folder's TensorBoard events; ``progress.csv`` keeps only the mean return and length. This script writes the
chosen tags, one row per iteration, and prints each tag's last value (and, with ``--threshold``, the first iteration
at which it reached that value):

    ./isaaclab.sh -p scripts/tools/export_scalars.py logs/rsl_rl/unitree_go1_flat/<run> \\
        --tags Episode_Reward/track_lin_vel_xy_exp Curriculum/terrain_levels --threshold 1.2
"""

from __future__ import annotations

import argparse
import csv
from pathlib import Path


def main(argv: list[str] | None = None) -> None:
    """Read the run's event files and write ``<run>/scalars.csv`` (or ``--out``)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path, help="Run folder holding events.out.tfevents.* files.")
    parser.add_argument("--tags", nargs="*", default=None, help="Tags (or tag prefixes ending in '/'); default all.")
    parser.add_argument("--threshold", type=float, default=None, help="Report the first iteration at this value.")
    parser.add_argument("--out", type=Path, default=None, help="CSV to write (default: <run>/scalars.csv).")
    args = parser.parse_args(argv)
    if not any(args.run.glob("events.out.tfevents.*")):
        raise SystemExit(f"{args.run} holds no TensorBoard event files; pass a run folder of train.py.")

    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    events = EventAccumulator(str(args.run), size_guidance={"scalars": 0})
    events.Reload()
    available = events.Tags()["scalars"]
    wanted = args.tags or available
    tags = [t for t in available if any(t == w or (w.endswith("/") and t.startswith(w)) for w in wanted)]
    missing = [w for w in wanted if not any(t == w or (w.endswith("/") and t.startswith(w)) for t in available)]
    if missing:
        raise SystemExit(f"No scalars {missing} in {args.run}; it has: {', '.join(sorted(available))}")
    rows: dict[int, dict[str, float]] = {}
    for tag in tags:
        for event in events.Scalars(tag):
            rows.setdefault(event.step, {})[tag] = event.value
    out = args.out or args.run / "scalars.csv"
    with open(out, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=["iteration", *tags])
        writer.writeheader()
        for step in sorted(rows):
            writer.writerow({"iteration": step, **rows[step]})
    for tag in tags:
        series = events.Scalars(tag)
        line = f"{tag}: last={series[-1].value:.4f} at iteration {series[-1].step}"
        if args.threshold is not None:
            first = next((e.step for e in series if e.value >= args.threshold), None)
            line += f", first >= {args.threshold} at iteration {first}" if first is not None else ", never reached"
        print(line)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
