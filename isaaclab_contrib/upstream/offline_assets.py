"""USD files an ``isaaclab_tasks`` config references, and a check that each is on this machine.

Upstream's task configs name their robots and grounds on Isaac's asset server (``ISAAC_NUCLEUS_DIR`` /
``ISAACLAB_NUCLEUS_DIR``); without Isaac Sim, core can fetch nothing from there (it would need ``omni.client``).
``scripts/tools/make_offline_assets.py`` writes a local folder with the ones Newton ships; ``ISAACSIM_ASSET_ROOT``
points core at it.
"""

from __future__ import annotations

import dataclasses
import os


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


def check_offline_assets(task: str, cfg) -> None:
    """Refuse to build ``task`` when a USD file its config references is not a local file.

    Raises:
        SystemExit: Naming the missing files, ``ISAACSIM_ASSET_ROOT`` and ``scripts/tools/make_offline_assets.py``.
    """
    missing = [path for path in referenced_usd_files(cfg) if not os.path.isfile(path)]
    if not missing:
        return
    root = os.environ.get("ISAACSIM_ASSET_ROOT")
    where = f"ISAACSIM_ASSET_ROOT={root} does not hold them" if root else "ISAACSIM_ASSET_ROOT is not set"
    raise SystemExit(
        f"{task} needs USD assets this machine does not have ({where}; without Isaac Sim nothing is fetched from"
        f" Isaac's asset server): {missing}. Write the ones Newton ships with"
        " `./isaaclab.sh -p scripts/tools/make_offline_assets.py --out ~/isaac_assets`, then"
        " `export ISAACSIM_ASSET_ROOT=~/isaac_assets` and run again."
    )
