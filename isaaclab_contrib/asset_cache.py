"""The local cache of files made or fetched once: where it lives and how a folder enters it (standard library only).

The cache root is ``$ISAACLAB_NEWTON_ASSETS`` or ``~/.cache/isaaclab_newton``; each cache folder is
``<root>/<name>``. A folder is written elsewhere first and then moved in under its name in one rename, so a cache
folder is either absent or complete, also when several processes fill it at once. Importing this module imports
nothing of Isaac Lab (:mod:`isaaclab_contrib` reads it before Isaac Lab resolves its asset root).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path


def assets_cache_root() -> Path:
    """The cache root: ``$ISAACLAB_NEWTON_ASSETS`` or ``~/.cache/isaaclab_newton``."""
    root = os.environ.get("ISAACLAB_NEWTON_ASSETS")
    return Path(root) if root else Path.home() / ".cache" / "isaaclab_newton"


def install_cache_folder(staging: Path, name: str) -> Path:
    """Copy the fully written folder ``staging`` into the cache as ``<root>/<name>`` and return that path.

    An existing ``<root>/<name>`` that lacks one of the staged files (an incomplete or older copy) is replaced; one
    that holds them all (another process's copy, moved in meanwhile) is kept. The copy lands beside the target first
    and enters it by one rename.

    Args:
        staging: Folder holding every file of the cache folder.
        name: Cache folder name.
    """
    target = assets_cache_root() / name
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = Path(tempfile.mkdtemp(prefix=f".{name}-", dir=target.parent))
    try:
        shutil.copytree(staging, partial, dirs_exist_ok=True)
        files = [path.relative_to(staging) for path in staging.rglob("*") if path.is_file()]
        if target.is_dir() and all((target / file).is_file() for file in files):
            return target
        if target.exists():
            shutil.rmtree(target, ignore_errors=True)
        try:
            partial.rename(target)
        except OSError:
            if not target.is_dir():  # not a copy another process moved in: a real failure
                raise
    finally:
        shutil.rmtree(partial, ignore_errors=True)
    return target
