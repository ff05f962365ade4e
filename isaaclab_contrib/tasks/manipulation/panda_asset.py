"""The offline Panda with MuJoCo gravity compensation on its arm links, cached next to the plain one.

:func:`ensure_panda_gravcomp_mjcf` copies the cached ``panda`` folder (see
:mod:`isaaclab_contrib.tasks.lift_franka.panda_asset`) into the cache folder ``panda_gravcomp`` with
``gravcomp="1"`` on the bodies ``panda0_link1`` to ``panda0_link7``: MuJoCo Warp then cancels the weight of the arm
and hand with a body force, as the real arm's controller does, so a joint held at its target does not sag (the IK
actions rely on it: a zero relative command keeps the pose). The fingers are not compensated.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path

from isaaclab_contrib.asset_cache import assets_cache_root, install_cache_folder

from ..lift_franka.panda_asset import ensure_panda_mjcf

_FOLDER = "panda_gravcomp"
_ARM_BODY = re.compile(r'(<body name="panda0_link([1-7])")')
_ARM_LINKS = 7


def ensure_panda_gravcomp_mjcf() -> str:
    """Return the path of the gravity-compensated ``panda.xml``, writing its cache folder on first use.

    Raises:
        RuntimeError: If the cached ``chain.xml`` does not name the seven arm links (another wheel version);
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
        count = len({match.group(2) for match in _ARM_BODY.finditer(text)})
        if count != _ARM_LINKS:
            raise RuntimeError(
                f"{source / 'franka_assets' / 'chain.xml'} names {count} of the {_ARM_LINKS} arm links panda0_link1-7;"
                f" delete {source} and {target.parent} to fetch the pinned gymnasium-robotics wheel again."
            )
        chain.write_text(_ARM_BODY.sub(r'\1 gravcomp="1"', text), encoding="utf-8")  # commented-out copies too
        return str(install_cache_folder(staging, _FOLDER) / "panda.xml")
