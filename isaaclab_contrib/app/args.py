"""The scripts' command line: one shared parser, its types and checks, answered before torch, Warp or Newton load.

Every script builds its parser with :func:`shared_parser` (one task), :func:`sweep_parser` (the benchmarks' several
tasks and env counts) or :func:`device_parser` (no task) as a parent, adds only its own arguments and parses with
:func:`parse_args`, so a bad argument is refused in well under 2 s. Only the standard library and gymnasium's
registry (through :mod:`isaaclab_contrib.tasks`) are imported here.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from pathlib import Path

from ..viewer_backends import VIEWER_BACKENDS, check_backend_runs_here
from .devices import default_device, device_arg
from .task_ids import UnknownTaskError, is_upstream, our_task_ids, registration_kwargs


def int_at_least(minimum: int) -> Callable[[str], int]:
    """An argparse type accepting integers of at least ``minimum`` (argparse names the flag in its error)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an integer of at least {minimum}, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {value}")
        return value

    return parse


positive_int = int_at_least(1)
"""An integer of at least 1 (argparse type)."""

non_negative_int = int_at_least(0)
"""An integer of at least 0 (argparse type)."""


def existing_file(text: str) -> Path:
    """A path to a file that exists (argparse type)."""
    path = Path(text).expanduser()
    if not path.is_file():
        raise argparse.ArgumentTypeError(f"no such file: {text}")
    return path


def preset_token(text: str) -> tuple[str, ...]:
    """``presets=a,b`` -> ``("a", "b")`` (argparse type)."""
    key, sep, value = text.partition("=")
    names = tuple(name for name in value.split(",") if name)
    if key != "presets" or not sep or not names:
        raise argparse.ArgumentTypeError(f"expected presets=NAME[,NAME...], got {text!r}")
    return names


def device_parser() -> argparse.ArgumentParser:
    """``--device`` and ``--verbose``: the arguments of every script that runs on a device; a parent.

    :func:`shared_parser` and :func:`sweep_parser` hold it; scripts that build no env (raw Newton benchmarks) take it
    alone.
    """
    parser = argparse.ArgumentParser(add_help=False)
    group = parser.add_argument_group("device")
    group.add_argument(
        "--device", type=device_arg, default=None, help="cpu or cuda:<index> (default: cuda:0 if present)."
    )
    group.add_argument(
        "--verbose", action="store_true", help="Also print Warp's module loads, Isaac Lab's setup and rsl-rl's report."
    )
    return parser


def shared_parser(*, task: str | None = None) -> argparse.ArgumentParser:
    """The arguments every script that runs a task takes; pass it as a parent (``parents=[shared_parser()]``).

    ``--task``, ``--num_envs``, ``--device``, ``--seed``, ``--solver``, upstream ``presets=...``, ``--verbose``
    and ``--headless`` (accepted as upstream's scripts take it; there is no Kit window here, the live viewer is
    :func:`viewer_parser`'s ``--viewer``). A script adds only
    the arguments of its own.

    Args:
        task: The task run without ``--task`` (default: ``--task`` is required).
    """
    parser = argparse.ArgumentParser(add_help=False, parents=[device_parser()])
    group = parser.add_argument_group("task")
    group.add_argument(
        "--task",
        required=task is None,
        default=task,
        help="Task id, e.g. Isaac-Cartpole-Direct-v0 (list_envs.py lists them)"
        + (f"; default: {task}." if task else "."),
    )
    group.add_argument("--num_envs", type=positive_int, default=None, help="Environments (default: the task's).")
    _add_seed_and_solver(group)
    group.add_argument(
        "presets",
        nargs="?",
        type=preset_token,
        default=(),
        metavar="presets=NAME[,NAME...]",
        help="isaaclab_tasks presets (as upstream's scripts take them), e.g. presets=depth.",
    )
    group.add_argument(
        "--headless", action="store_true", help="Accepted as upstream's scripts take it (no Kit window; see --viewer)."
    )
    return parser


def sweep_parser(
    *, tasks: Sequence[str] | None = None, num_envs: Sequence[int] | None = None
) -> argparse.ArgumentParser:
    """The arguments of scripts that run several tasks and env counts (the benchmarks); a parent.

    ``--tasks`` and ``--num_envs`` take one or more values; ``--device``, ``--seed``, ``--solver`` and ``--verbose``
    are those of :func:`shared_parser`.

    Args:
        tasks: Tasks run without ``--tasks`` (default: ``None``, every task we register, as the script reads it).
        num_envs: Env counts run without ``--num_envs`` (default: ``None``, the script's choice per device).
    """
    parser = argparse.ArgumentParser(add_help=False, parents=[device_parser()])
    group = parser.add_argument_group("tasks")
    group.add_argument(
        "--tasks",
        nargs="+",
        default=None if tasks is None else list(tasks),
        help=f"Task ids (default: {' '.join(tasks) if tasks else 'every task we register'}).",
    )
    counts = " ".join(map(str, num_envs)) if num_envs else "per device, see the description"
    group.add_argument(
        "--num_envs",
        type=positive_int,
        nargs="+",
        default=None if num_envs is None else list(num_envs),
        help=f"Env counts (default: {counts}).",
    )
    _add_seed_and_solver(group)
    return parser


def _add_seed_and_solver(group: argparse._ArgumentGroup) -> None:
    """``--seed`` and ``--solver``, the same in :func:`shared_parser` and :func:`sweep_parser`."""
    group.add_argument("--seed", type=int, default=None, help="Environment seed (default: the task's or agent's).")
    group.add_argument(
        "--solver",
        default=None,
        help="Physics preset: mjwarp (default), featherstone, xpbd where the task offers it; upstream ids: the"
        " <solver> of their newton_<solver> presets (mjwarp, kamino).",
    )


def video_parser() -> argparse.ArgumentParser:
    """Recording arguments of the scripts that record rollouts; a parent like :func:`shared_parser`."""
    parser = argparse.ArgumentParser(add_help=False)
    group = parser.add_argument_group("video")
    group.add_argument(
        "--video", action="store_true", help="Record rollouts (MP4 clips by Newton's ray tracer; no display needed)."
    )
    group.add_argument(
        "--video_format", choices=("mp4", "usd"), default="mp4", help="mp4 (default) or animated USD (Newton's viewer)."
    )
    group.add_argument("--video_length", type=positive_int, default=200, help="Env steps per recorded clip.")
    group.add_argument("--video_num_envs", type=positive_int, default=4, help="Environments shown in a clip.")
    return parser


def positive_float(text: str) -> float:
    """A finite number above 0 (argparse type)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number above 0, got {text!r}") from None
    if not 0.0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"must be a number above 0, got {text}")
    return value


def port_number(text: str) -> int:
    """A TCP port, 1 to 65535 (argparse type)."""
    value = int_at_least(1)(text)
    if value > 65535:
        raise argparse.ArgumentTypeError(f"a port is at most 65535, got {value}")
    return value


def viewer_parser() -> argparse.ArgumentParser:
    """Live-viewer arguments (Newton's viewers, drawn between env steps); a parent like :func:`shared_parser`.

    ``--viewer viser`` serves a web page (the script prints its URL; the choice on a headless machine), ``gl``
    opens a window (needs a display), ``rerun`` streams to Rerun, ``usd`` writes ``--record FILE.usd``.
    """
    parser = argparse.ArgumentParser(add_help=False)
    group = parser.add_argument_group("viewer")
    group.add_argument(
        "--viewer",
        choices=VIEWER_BACKENDS,
        default="none",
        help="Live viewer: viser (web page, headless machines), gl (window), rerun, usd (--record FILE.usd) or none"
        " (default).",
    )
    group.add_argument(
        "--viewer_envs", type=positive_int, default=4, help="Envs drawn, those nearest the origin (default 4)."
    )
    group.add_argument(
        "--viewer_rate",
        type=positive_float,
        default=30.0,
        help="Most frames per wall-clock second [Hz] (default 30); drawing never takes over 3 %% of wall time.",
    )
    group.add_argument("--viewer_contacts", action="store_true", help="Also draw contact points and normals.")
    group.add_argument("--viewer_port", type=port_number, default=8080, help="Port of the viser page (default 8080).")
    group.add_argument(
        "--record",
        type=Path,
        default=None,
        metavar="FILE",
        help="--viewer viser: write a .viser recording (replays offline in a browser); --viewer usd: the USD file.",
    )
    return parser


def check_viewer_args(args: argparse.Namespace) -> None:
    """Refuse viewer arguments that do not fit together, or a GL viewer on a machine without a display.

    Raises:
        SystemExit: Naming the fix.
    """
    if args.record is not None and args.viewer not in ("viser", "usd"):
        raise SystemExit(f"--record writes a viser or USD recording; add --viewer viser (or usd), not {args.viewer}.")
    if args.viewer == "viser" and args.record is not None and args.record.suffix != ".viser":
        raise SystemExit(f"--viewer viser records a .viser file, got --record {args.record}.")
    if args.viewer == "usd" and args.record is None:
        raise SystemExit("--viewer usd writes an animated USD file: add --record FILE.usd.")
    check_backend_runs_here(args.viewer)


def viewer_options(args: argparse.Namespace):
    """The :func:`viewer_parser` arguments as a :class:`~isaaclab_contrib.viewer.LiveViewerCfg` (``None``: none).

    Imports Isaac Lab's config machinery; call it after :func:`parse_args`.
    """
    if args.viewer == "none":
        return None
    from ..viewer.live_viewer_cfg import LiveViewerCfg

    return LiveViewerCfg(
        backend=args.viewer,
        num_envs=args.viewer_envs,
        rate_hz=args.viewer_rate,
        contacts=args.viewer_contacts,
        port=args.viewer_port,
        record=None if args.record is None else str(args.record),
    )


def parse_args(
    parser: argparse.ArgumentParser,
    argv: list[str] | None = None,
    *,
    agent: str | None = None,
    check: Callable[[argparse.Namespace], None] | None = None,
) -> argparse.Namespace:
    """Parse a script's arguments, check its ``--task`` or ``--tasks`` before anything heavy loads, quiet the output.

    Once the arguments pass, ``args.device`` is the device the run uses (``--device``, else ``cuda:0`` where the
    driver reports a GPU, else ``cpu``; the one place a script's device is chosen) and
    :func:`~isaaclab_contrib.app.console.configure_output` sets the run's output (Warp at warning level and no
    CUDA-driver warning on a CPU-only machine unless ``--verbose``).

    Args:
        parser: The script's parser, built with :func:`shared_parser`, :func:`sweep_parser` or
            :func:`device_parser` as a parent.
        argv: Arguments (default: ``sys.argv[1:]``).
        agent: RL library whose agent cfg the task must register (``"rsl_rl"`` for train/play), or ``None``.
        check: The script's own light checks of the parsed arguments (raising ``SystemExit``), run before the
            default device is filled in (a check may set ``args.device``, as ``--distributed`` does per rank).

    Raises:
        SystemExit: On any bad argument, with a message that names the fix.
    """
    args = parser.parse_args(argv)
    for task in _named_tasks(args):
        check_task(task, agent=agent)
    if "viewer" in vars(args):
        check_viewer_args(args)
    if check is not None:
        check(args)
    args.device = args.device or default_device()
    from .console import configure_output

    configure_output(verbose=args.verbose)  # before the heavy imports: Warp's banner and module loads held back
    return args


def env_options(args: argparse.Namespace) -> dict:
    """The shared arguments as :func:`~isaaclab_contrib.app.env_factory.make_env`'s keywords."""
    return {
        "num_envs": args.num_envs,
        "device": args.device,
        "seed": args.seed,
        "solver": args.solver,
        "presets": args.presets,
        "verbose": args.verbose,
    }


def _named_tasks(args: argparse.Namespace) -> list[str]:
    """The ids a parsed command line names: ``--task`` (:func:`shared_parser`) or ``--tasks`` (:func:`sweep_parser`)."""
    if "task" in vars(args):
        return [args.task]
    return list(vars(args).get("tasks") or ())


def check_task(task: str, *, agent: str | None = None) -> None:
    """Refuse a ``--task`` that no registry has, or one of ours that registers no ``<agent>_cfg_entry_point``.

    Raises:
        SystemExit: Naming the closest ids, or the tasks that register an agent cfg for ``agent``.
    """
    try:
        upstream = is_upstream(task)
    except UnknownTaskError as err:
        raise SystemExit(str(err)) from None
    key = f"{agent}_cfg_entry_point"
    if agent is None or upstream or key in registration_kwargs(task):
        return
    trainable = [name for name in our_task_ids() if key in registration_kwargs(name)]
    raise SystemExit(
        f"Task {task!r} registers no {agent} agent cfg ({key}), so it cannot be trained or played here; tasks that"
        f" have one: {trainable}."
    )
