"""Newton's stand-ins for Isaac's asset server, made once into the cache, and Isaac Lab's asset root pointed there.

Isaac Lab resolves ``ISAAC_NUCLEUS_DIR`` and ``ISAACLAB_NUCLEUS_DIR`` (and the configs built from them) from
``ISAACSIM_ASSET_ROOT`` when ``isaaclab.utils.assets`` is first imported. Importing :mod:`isaaclab_contrib` calls
:func:`point_asset_root_at_cache`, which sets that variable to :func:`offline_asset_root` where nothing else
chooses the root, so upstream's configs name the cached files. :func:`ensure_offline_assets` writes them there on
first use (:func:`~isaaclab_contrib.upstream.offline_assets.missing_offline_assets` calls it). Importing this module
imports nothing of Isaac Lab.
"""

from __future__ import annotations

import importlib.util
import os
import tempfile
from pathlib import Path

from isaaclab_contrib.asset_cache import assets_cache_root, install_cache_folder

from .offline_asset_files import OFFLINE_ASSET_FILES, write_offline_assets

OFFLINE_ASSETS = "isaac_assets"
"""Name of the cache folder laid out like the asset server's root (it holds ``Isaac/``)."""


def offline_asset_root() -> Path:
    """The absolute path of the cache folder :func:`ensure_offline_assets` fills: ``<cache root>/isaac_assets``."""
    return (assets_cache_root() / OFFLINE_ASSETS).expanduser().absolute()


def ensure_offline_assets() -> Path:
    """Return :func:`offline_asset_root`, writing Newton's offline assets into it when any file is missing.

    Raises:
        ValueError: If one of Newton's assets lacks a prim the layout needs (a Newton release that changed them).
    """
    root = offline_asset_root()
    if all((root / path).is_file() for path in OFFLINE_ASSET_FILES):
        return root
    with tempfile.TemporaryDirectory() as staging:
        write_offline_assets(Path(staging))
        return install_cache_folder(Path(staging), OFFLINE_ASSETS)


def point_asset_root_at_cache() -> None:
    """Set ``ISAACSIM_ASSET_ROOT`` to :func:`offline_asset_root` where nothing else chooses Isaac Lab's asset root.

    Left alone where ``ISAACSIM_ASSET_ROOT`` or ``ISAACSIM_ASSET_REGION_PROFILE`` is set (the user chose a root) or
    Isaac Sim's ``omni`` package is installed (Isaac Lab fetches from the asset server then). Takes effect in this
    process only if Isaac Lab is imported afterwards, and in the processes it starts.
    """
    if os.environ.get("ISAACSIM_ASSET_ROOT") or os.environ.get("ISAACSIM_ASSET_REGION_PROFILE"):
        return
    if importlib.util.find_spec("omni") is not None:
        return
    os.environ["ISAACSIM_ASSET_ROOT"] = str(offline_asset_root())
