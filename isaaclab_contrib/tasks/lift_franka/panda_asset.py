"""The Franka Panda, offline: the MJCF and meshes of the ``gymnasium-robotics`` wheel (Apache-2.0), cached locally.

Nothing of the robot is committed here. :func:`ensure_panda_mjcf` fetches the wheel once with ``pip download``
(the ordinary registry client), extracts its ``kitchen_franka/franka_assets`` folder and the asset license next to
it, and writes ``panda.xml``, which includes the robot's assets and kinematic chain but not its MuJoCo position
actuators: the task drives the joints with Isaac Lab implicit actuators instead. The collision geometry of the
links is the wheel's coarse convex collision meshes (``meshes/collision``); the fingers collide as capsules and a
box pad, which keeps particle contacts on the pads.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

GYMNASIUM_ROBOTICS = "gymnasium-robotics==1.4.2"
_ASSETS = "gymnasium_robotics/envs/assets/"
_FRANKA = _ASSETS + "kitchen_franka/franka_assets/"
_LICENSE = _ASSETS + "LICENSE.md"

_PANDA_XML = """<mujoco model="panda">
  <!-- Composed from gymnasium-robotics' kitchen_franka assets (see LICENSE.md); actuators left out. -->
  <include file="franka_assets/assets.xml"/>
  <worldbody>
    <include file="franka_assets/chain.xml"/>
  </worldbody>
</mujoco>
"""


def panda_cache_dir() -> Path:
    """Where the Panda files live: ``$ISAACLAB_NEWTON_ASSETS`` or ``~/.cache/isaaclab_newton/panda``."""
    root = os.environ.get("ISAACLAB_NEWTON_ASSETS")
    return (Path(root) if root else Path.home() / ".cache" / "isaaclab_newton") / "panda"


def ensure_panda_mjcf() -> str:
    """Return the path of ``panda.xml``, fetching the ``gymnasium-robotics`` wheel on first use.

    Raises:
        RuntimeError: If ``pip download`` fails (offline without a package index); the message names the fix.
    """
    target = panda_cache_dir()
    xml = target / "panda.xml"
    if xml.is_file() and (target / "LICENSE.md").is_file():
        return str(xml)
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, "-m", "pip", "download", GYMNASIUM_ROBOTICS, "--no-deps", "-d", tmp]
        result = subprocess.run(cmd, capture_output=True, text=True, check=False)
        wheels = list(Path(tmp).glob("gymnasium_robotics-*.whl"))
        if result.returncode != 0 or not wheels:
            raise RuntimeError(
                f"Could not fetch {GYMNASIUM_ROBOTICS} for the Franka Panda MJCF ({result.stderr.strip()[-400:]})."
                f" Run `pip download {GYMNASIUM_ROBOTICS} --no-deps -d <dir>` where a package index is reachable and"
                f" unzip its {_FRANKA} and {_LICENSE} into {target}, or set ISAACLAB_NEWTON_ASSETS."
            )
        staging = Path(tmp) / "panda"
        with zipfile.ZipFile(wheels[0]) as wheel:
            for name in wheel.namelist():
                if name.startswith(_FRANKA) and not name.endswith("/"):
                    out = staging / "franka_assets" / name[len(_FRANKA) :]
                    out.parent.mkdir(parents=True, exist_ok=True)
                    out.write_bytes(wheel.read(name))
            (staging / "LICENSE.md").write_bytes(wheel.read(_LICENSE))
        (staging / "panda.xml").write_text(_PANDA_XML)
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.exists():
            shutil.rmtree(target)
        shutil.copytree(staging, target)
    return str(xml)
