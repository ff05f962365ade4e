"""The Franka Panda, offline: the MJCF and meshes of the ``gymnasium-robotics`` wheel (Apache-2.0), cached locally.

Nothing of the robot is committed here. :func:`ensure_panda_mjcf` fetches the wheel once with ``pip download``
(the ordinary registry client, through :func:`~isaaclab_contrib.assets.wheel_files.ensure_wheel_folder`), extracts
its ``kitchen_franka/franka_assets`` folder and the asset license next to it, and writes ``panda.xml``, which
includes the robot's assets and kinematic chain but not its MuJoCo position actuators: the task drives the joints
with Isaac Lab implicit actuators instead. The collision geometry of the links is the wheel's coarse convex
collision meshes (``meshes/collision``); the fingers collide as capsules and a box pad, which keeps particle
contacts on the pads.
"""

from __future__ import annotations

from isaaclab_contrib.assets.wheel_files import ensure_wheel_folder

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


def ensure_panda_mjcf() -> str:
    """Return the path of ``panda.xml``, fetching the ``gymnasium-robotics`` wheel on first use.

    The cache folder ``panda`` holds ``panda.xml``, ``LICENSE.md`` and the wheel's files in ``franka_assets/``
    (the folder ``panda.xml`` includes them from).

    Raises:
        RuntimeError: If ``pip download`` fails (offline without a package index); the message names the fix.
    """
    folder = ensure_wheel_folder(
        "panda",
        requirement=GYMNASIUM_ROBOTICS,
        folder=_FRANKA,
        license_member=_LICENSE,
        subfolder="franka_assets",
        license_name="LICENSE.md",
        extra_files={"panda.xml": _PANDA_XML},
    )
    return str(folder / "panda.xml")
