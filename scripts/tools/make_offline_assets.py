"""Write Newton's offline stand-ins for Isaac's asset server (into its cache, or a folder of yours) and fetch robots.

Not needed to run upstream's tasks: importing ``isaaclab_contrib`` points Isaac Lab's asset root at Newton's
offline cache (``<cache root>/isaac_assets``), which ``make_env`` fills on first use. Without ``--out`` this script
fills that cache now (for a machine that runs later without write access to it); with ``--out DIR`` it writes the
same files into ``DIR`` (shared, or for your own layout), for ``ISAACSIM_ASSET_ROOT=DIR`` set before Isaac Lab is
imported. The files and their layout are :mod:`isaaclab_contrib.upstream.offline_asset_files`' (the cartpole, the
ground plane, the ant and the humanoid).

It also fetches the robots that come from wheels into their cache (``$ISAACLAB_NEWTON_ASSETS`` or
``~/.cache/isaaclab_newton``, see ``docs/assets.md``), so a machine without a package index can use them later:
the Unitree Go1 and G1 MJCF models of the ``mjlab`` wheel (the velocity tasks' robots, ``GO1_CFG``/``G1_CFG``) and the
Shadow hand of the ``gymnasium-robotics`` wheel (the reorientation tasks' hand).

Examples::

    ./isaaclab.sh -p scripts/tools/make_offline_assets.py                       # the cache
    ./isaaclab.sh -p scripts/tools/make_offline_assets.py --out ~/isaac_assets  # a folder of yours
    export ISAACSIM_ASSET_ROOT=~/isaac_assets
"""

from __future__ import annotations

import argparse
import pathlib

from isaaclab_contrib.upstream.offline_asset_files import OFFLINE_ASSET_FILES, write_offline_assets
from isaaclab_contrib.upstream.offline_cache import ensure_offline_assets


def make_offline_assets(out: pathlib.Path | None = None) -> list[pathlib.Path]:
    """Write the offline assets under ``out`` (``None``: into the cache) and fetch the wheel robots into theirs.

    Args:
        out: Folder to use as ``ISAACSIM_ASSET_ROOT`` (``None``: Newton's offline cache, the default root).

    Returns:
        The offline assets' files and the fetched robots' MJCF files.
    """
    from isaaclab_contrib.tasks.reorient_shadow.shadow_hand_asset import ensure_shadow_hand_mjcf
    from isaaclab_contrib.tasks.velocity.unitree_assets import ensure_g1_mjcf, ensure_go1_mjcf

    if out is None:
        root = ensure_offline_assets()
        written = [root / path for path in OFFLINE_ASSET_FILES]
    else:
        written = write_offline_assets(out)
    robots = (ensure_go1_mjcf(), ensure_g1_mjcf(), ensure_shadow_hand_mjcf())
    return [*written, *(pathlib.Path(path) for path in robots)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--out", type=pathlib.Path, default=None, help="Folder to write, for ISAACSIM_ASSET_ROOT (default: the cache)."
    )
    args = parser.parse_args()
    for path in make_offline_assets(args.out):
        print(path)
    if args.out is not None:
        print(f"export ISAACSIM_ASSET_ROOT={args.out.expanduser().resolve()}")


if __name__ == "__main__":
    main()
