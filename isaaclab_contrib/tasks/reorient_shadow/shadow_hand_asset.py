"""The Shadow Dexterous Hand, offline: the MJCF and meshes of the ``gymnasium-robotics`` wheel, cached locally.

Nothing of the hand is committed here. :func:`ensure_shadow_hand_mjcf` fetches the wheel once with ``pip download``
(through :func:`~isaaclab_contrib.assets.wheel_files.ensure_wheel_folder`, only the ``hand`` MJCF files and their
meshes), keeps the asset license beside them and writes ``shadow_hand.xml``: the wheel's hand (``hand/robot.xml``)
with its defaults, contact pairs and fixed tendons (``hand/shared.xml``) and its meshes (``hand/shared_asset.xml``),
composed into one file without the wheel's MuJoCo position actuators and sensors (the tasks drive the 24 joints
with Isaac Lab implicit actuators and read the state directly) and without a floor or an object.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from isaaclab_contrib.assets.wheel_files import ensure_wheel_folder

GYMNASIUM_ROBOTICS = "gymnasium-robotics==1.4.2"
_ASSETS = "gymnasium_robotics/envs/assets/"
_KEPT_SECTIONS = ("default", "contact", "tendon")
"""Sections of ``hand/shared.xml`` the composed file keeps (it drops ``size``, ``visual``, ``sensor``, ``actuator``)."""

_VISUAL_CLASS = "robot0:D_Vizual"
"""Default class of the visual meshes: they collide with nothing, so their inherited 0.5 mm contact margin is dropped
(MuJoCo's native mesh collision would zero it anyway, with a warning per mesh)."""


def compose_shadow_hand_xml(folder: Path) -> str:
    """The single-file hand MJCF composed from the wheel's ``hand/*.xml`` files extracted into ``folder``.

    Args:
        folder: A folder holding the wheel's ``hand/`` and ``stls/hand/`` folders.

    Returns:
        The MJCF text; its mesh paths are relative to ``folder`` (``stls/hand``).
    """
    root = ET.Element("mujoco", model="shadow_hand")
    root.append(ET.Comment(" Composed from gymnasium-robotics' hand assets (see LICENSE.md); no actuators. "))
    ET.SubElement(root, "compiler", angle="radian", coordinate="local", meshdir="stls/hand")
    shared = ET.parse(folder / "hand" / "shared.xml").getroot()
    for section in shared:
        if section.tag in _KEPT_SECTIONS:
            root.append(section)
    for visual in shared.iterfind(f".//default[@class='{_VISUAL_CLASS}']/geom"):
        visual.set("margin", "0")
    asset = ET.SubElement(root, "asset")
    asset.extend(list(ET.parse(folder / "hand" / "shared_asset.xml").getroot()))
    worldbody = ET.SubElement(root, "worldbody")
    worldbody.extend(list(ET.parse(folder / "hand" / "robot.xml").getroot()))
    ET.indent(root)
    return ET.tostring(root, encoding="unicode")


def ensure_shadow_hand_mjcf() -> str:
    """Return the path of ``shadow_hand.xml``, fetching the ``gymnasium-robotics`` wheel on first use.

    The cache folder ``shadow_hand`` holds ``shadow_hand.xml``, ``LICENSE.md``, the wheel's ``hand/`` MJCF files and
    the hand's meshes in ``stls/hand/`` (about 1.8 MB).

    Raises:
        RuntimeError: If ``pip download`` fails (offline without a package index); the message names the fix.
    """
    folder = ensure_wheel_folder(
        "shadow_hand",
        requirement=GYMNASIUM_ROBOTICS,
        folder=_ASSETS,
        include=("hand/robot.xml", "hand/shared.xml", "hand/shared_asset.xml", "stls/hand/*"),
        license_member=_ASSETS + "LICENSE.md",
        license_name="LICENSE.md",
        extra_files={"shadow_hand.xml": compose_shadow_hand_xml},
    )
    return str(folder / "shadow_hand.xml")
