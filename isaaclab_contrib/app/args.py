"""The scripts' command line: one shared parser, its types and checks, answered before torch, Warp or Newton load.

Every script builds its parser with :func:`shared_parser` as a parent, adds only its own arguments and parses with
:func:`parse_args`, so a bad argument is refused in well under 2 s. Only the standard library and gymnasium's
registry (through :mod:`isaaclab_contrib.tasks`) are imported here.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from .devices import device_arg
from .task_ids import UnknownTaskError, is_upstream, our_task_ids, registration_kwargs


def positive_int(text: str) -> int:
    """An integer of at least 1 (argparse type; argparse names the flag in its error)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer of at least 1, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def non_negative_int(text: str) -> int:
    """An integer of at least 0 (argparse type)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer of at least 0, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {value}")
    return value


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


def shared_parser() -> argparse.ArgumentParser:
    """The arguments every script that runs a task takes; pass it as a parent (``parents=[shared_parser()]``).

    ``--task``, ``--num_envs``, ``--device``, ``--seed``, ``--solver``, upstream ``presets=...``, ``--verbose``
    and ``--headless`` (accepted as upstream's scripts take it; there is no viewer window here). A script adds only
    the arguments of its own.
    """
    parser = argparse.ArgumentParser(add_help=False)
    group = parser.add_argument_group("task")
    group.add_argument(
        "--task", required=True, help="Task id, e.g. Isaac-Cartpole-Direct-v0 (list_envs.py lists them)."
    )
    group.add_argument("--num_envs", type=positive_int, default=None, help="Environments (default: the task's).")
    group.add_argument(
        "--device", type=device_arg, default=None, help="cpu or cuda:<index> (default: cuda:0 if present)."
    )
    group.add_argument("--seed", type=int, default=None, help="Environment seed (default: the task's or agent's).")
    group.add_argument(
        "--solver",
        default=None,
        help="Physics preset: mjwarp (default), featherstone, xpbd where the task offers it; upstream ids: the"
        " <solver> of their newton_<solver> presets (mjwarp, kamino).",
    )
    group.add_argument(
        "presets",
        nargs="?",
        type=preset_token,
        default=(),
        metavar="presets=NAME[,NAME...]",
        help="isaaclab_tasks presets (as upstream's scripts take them), e.g. presets=depth.",
    )
    # Viewer arguments (--viewer, --viewer_envs) join this group when the scripts get a viewer.
    group.add_argument("--headless", action="store_true", help="Accepted as upstream's scripts take it (no viewer).")
    group.add_argument(
        "--verbose", action="store_true", help="Also print Warp's module loads, Isaac Lab's setup and rsl-rl's report."
    )
    return parser


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


def parse_args(
    parser: argparse.ArgumentParser,
    argv: list[str] | None = None,
    *,
    agent: str | None = None,
    check: Callable[[argparse.Namespace], None] | None = None,
) -> argparse.Namespace:
    """Parse a script's arguments and check its ``--task`` before anything heavy is imported, then quiet the output.

    Once the arguments pass, :func:`~isaaclab_contrib.app.console.configure_output` sets the run's output (Warp at
    warning level and no CUDA-driver warning on a CPU-only machine unless ``--verbose``).

    Args:
        parser: The script's parser, built with :func:`shared_parser` as a parent.
        argv: Arguments (default: ``sys.argv[1:]``).
        agent: RL library whose agent cfg the task must register (``"rsl_rl"`` for train/play), or ``None``.
        check: The script's own light checks of the parsed arguments (raising ``SystemExit``), run before the
            output is configured.

    Raises:
        SystemExit: On any bad argument, with a message that names the fix.
    """
    args = parser.parse_args(argv)
    check_task(args.task, agent=agent)
    if check is not None:
        check(args)
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
