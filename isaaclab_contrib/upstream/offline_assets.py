"""USD files an ``isaaclab_tasks`` config references, and a check that each is on this machine.

Upstream's task configs name their robots and grounds on Isaac's asset server (``ISAAC_NUCLEUS_DIR`` /
``ISAACLAB_NUCLEUS_DIR``); without Isaac Sim, core can fetch nothing from there (it would need ``omni.client``).
Unless the user chose a root, Isaac Lab's asset root is Newton's offline cache (:mod:`.offline_cache`), filled on
first use with the robots Newton ships; ``scripts/tools/make_offline_assets.py --out DIR`` writes the same files
into a folder of the user's, for ``ISAACSIM_ASSET_ROOT=DIR``.
"""

from __future__ import annotations

import dataclasses
import os

from .offline_cache import ensure_offline_assets, offline_asset_root


def referenced_usd_files(cfg) -> list[str]:
    """Every ``usd_path`` string in ``cfg`` and the configs, dicts and lists it holds (each once, in order)."""
    found: list[str] = []
    seen: set[int] = set()
    pending = [cfg]
    while pending:
        node = pending.pop()
        if id(node) in seen or node is None or isinstance(node, (str, bytes, int, float, bool)):
            continue
        seen.add(id(node))
        if isinstance(node, dict):
            pending.extend(node.values())
        elif isinstance(node, (list, tuple)):
            pending.extend(node)
        elif dataclasses.is_dataclass(node):
            for field in dataclasses.fields(node):
                value = getattr(node, field.name, None)
                if field.name == "usd_path" and isinstance(value, str):
                    if value not in found:
                        found.append(value)
                else:
                    pending.append(value)
    return found


def missing_offline_assets(cfg) -> list[str]:
    """The USD files ``cfg`` references that are not local files, after making the offline cache if it is the root.

    Where Isaac Lab's asset root is :func:`~.offline_cache.offline_asset_root`, the cache is written first
    (:func:`~.offline_cache.ensure_offline_assets`, once), so the files Newton ships are never missing.
    """
    if _isaac_asset_root() == str(offline_asset_root()):
        ensure_offline_assets()
    return [path for path in referenced_usd_files(cfg) if not os.path.isfile(path)]


def check_offline_assets(task: str, cfg) -> None:
    """Refuse to build ``task`` when a USD file its config references is not a local file.

    Raises:
        SystemExit: Naming the missing files, Isaac Lab's asset root and how to get them there.
    """
    missing = missing_offline_assets(cfg)
    if missing:
        raise SystemExit(f"{task} needs USD assets this machine does not have: {missing}. {_remedy()}")


def _isaac_asset_root() -> str:
    """The asset root Isaac Lab resolved when it was imported (``ISAAC_NUCLEUS_DIR`` without ``/Isaac``)."""
    from isaaclab.utils.assets import NUCLEUS_ASSET_ROOT_DIR

    return NUCLEUS_ASSET_ROOT_DIR


def _remedy() -> str:
    """Where Isaac Lab looked for the assets and what gets them there."""
    root, cache = _isaac_asset_root(), offline_asset_root()
    full_copy = "a copy of Isaac Sim's assets (the folder holding Isaac/)"
    if root == str(cache):
        return (
            f"Isaac Lab's asset root is Newton's offline cache {cache}, which holds only the robots Newton ships"
            f" (docs/assets.md); for this task set ISAACSIM_ASSET_ROOT to {full_copy} before starting Python."
        )
    if "://" not in root:
        return (
            f"ISAACSIM_ASSET_ROOT={root} does not hold them: write the ones Newton ships there with"
            f" `./isaaclab.sh -p scripts/tools/make_offline_assets.py --out {root}`, point it at {full_copy}, or"
            f" unset it to use Newton's offline cache ({cache})."
        )
    return (
        f"Isaac Lab's asset root is the server {root}, which nothing reads from without Isaac Sim. Unset"
        " ISAACSIM_ASSET_ROOT and ISAACSIM_ASSET_REGION_PROFILE and import isaaclab_contrib before Isaac Lab (it"
        f" points the root at Newton's offline cache, {cache}), or start Python with ISAACSIM_ASSET_ROOT={cache}."
    )
