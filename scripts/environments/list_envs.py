"""List the task ids the scripts accept: ours (isaaclab_contrib.tasks) and Isaac Lab's own (isaaclab_tasks).

./isaaclab.sh -p scripts/environments/list_envs.py            # every id, upstream ones marked
./isaaclab.sh -p scripts/environments/list_envs.py --assets   # also: are an upstream task's USD assets offline?
"""

from __future__ import annotations

import argparse

from isaaclab_contrib.app.entry import run_script
from isaaclab_contrib.app.task_ids import our_task_ids
from isaaclab_contrib.upstream.ids import upstream_task_ids


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--assets",
        action="store_true",
        help="Load each upstream config (seconds each, isaaclab_tasks imported) and say whether its USD assets are"
        " on this machine (Newton's offline cache, made here on first use, or ISAACSIM_ASSET_ROOT).",
    )
    args = parser.parse_args(argv)
    ours = our_task_ids()
    upstream = upstream_task_ids()
    offline = _offline_status(upstream) if args.assets else {}
    print(f"{'':3s}  {'task':40s}  source")
    for index, task in enumerate([*ours, *upstream], start=1):
        source = "ours" if task in ours else "upstream (isaaclab_tasks)"
        status = f"  {offline[task]}" if task in offline else ""
        print(f"{index:3d}  {task:40s}  {source}{status}")
    if not args.assets:
        print("upstream ids run on their newton_mjwarp presets where their USD assets are offline: --assets checks")


def _offline_status(tasks: tuple[str, ...]) -> dict[str, str]:
    """Per upstream task: whether the USD files its config references are local files, or why it has no config."""
    import contextlib
    import io

    from isaaclab_contrib.app.console import configure_output
    from isaaclab_contrib.upstream.offline_assets import missing_offline_assets
    from isaaclab_contrib.upstream.registry import load_upstream_cfg

    configure_output(verbose=False)
    status: dict[str, str] = {}
    for task in tasks:
        try:
            with contextlib.redirect_stdout(io.StringIO()):  # isaaclab_tasks' "Parsing configuration" lines
                cfg = load_upstream_cfg(task, "env_cfg_entry_point", solver="mjwarp")
        except Exception as err:  # noqa: BLE001  (any config that fails to load is reported, the listing goes on)
            status[task] = f"no newton_mjwarp config: {type(err).__name__}"
            continue
        missing = missing_offline_assets(cfg)
        status[task] = "assets offline" if not missing else f"assets not offline ({len(missing)} USD files missing)"
    return status


if __name__ == "__main__":
    run_script(main)
