"""A drawer cabinet built from boxes, as MJCF written into the local cache (nothing fetched, nothing committed).

The cabinet (``cabinet``, fixed to the world) is an open-fronted carcass of boxes, 0.4 x 0.5 x 0.3 m; its drawer
(``drawer``) slides out of the front on ``drawer_joint`` (axis -x, range 0 to 0.35 m, 10 N s/m damping, 2 kg) and
carries a bar handle (``handle``, welded, a 2 x 14 x 2 cm bar on two posts 7 cm in front of the drawer face, level
with the top edge of the face and the carcass, so that a hand pointing down fits its open fingers around the bar:
the Panda's hand is 20 cm wide along the closing direction and sits 4 cm above the grasp point). In the cabinet's
frame the carcass spans x in [-0.2, 0.2] with its front at x = -0.2, and the handle's centre is at (-0.28, 0, 0.28) m
when closed.
"""

from __future__ import annotations

import hashlib
import tempfile
from pathlib import Path

from isaaclab_contrib.asset_cache import assets_cache_root, install_cache_folder

DRAWER_TRAVEL = 0.35
"""Drawer joint range [m] (0: closed)."""

DRAWER_DAMPING = 10.0
"""Drawer joint damping [N s/m]."""

HANDLE_CLOSED_POS = (-0.28, 0.0, 0.28)
"""Handle centre in the cabinet's frame with the drawer closed [m]."""

_FOLDER = "drawer_cabinet"

_CABINET_XML = f"""<mujoco model="drawer_cabinet">
  <!-- Written by isaaclab_contrib.tasks.manipulation.cabinet_asset: boxes only. -->
  <default>
    <geom type="box" rgba="0.55 0.45 0.35 1" friction="1 0.005 0.0001"/>
  </default>
  <worldbody>
    <body name="cabinet">
      <geom name="bottom" size="0.2 0.25 0.01" pos="0 0 0.01" mass="5"/>
      <geom name="top" size="0.2 0.25 0.01" pos="0 0 0.295" mass="5"/>
      <geom name="left" size="0.2 0.01 0.1325" pos="0 0.24 0.1525" mass="5"/>
      <geom name="right" size="0.2 0.01 0.1325" pos="0 -0.24 0.1525" mass="5"/>
      <geom name="back" size="0.01 0.23 0.1325" pos="0.19 0 0.1525" mass="5"/>
      <body name="drawer" pos="0 0 0.18">
        <joint name="drawer_joint" type="slide" axis="-1 0 0" range="0 {DRAWER_TRAVEL}" damping="{DRAWER_DAMPING}"
               limited="true"/>
        <geom name="drawer_front" size="0.01 0.22 0.1" pos="-0.19 0 0" mass="0.8" rgba="0.7 0.6 0.45 1"/>
        <geom name="drawer_bottom" size="0.18 0.21 0.005" pos="0 0 -0.085" mass="0.6"/>
        <geom name="drawer_left" size="0.18 0.005 0.07" pos="0 0.215 -0.01" mass="0.2"/>
        <geom name="drawer_right" size="0.18 0.005 0.07" pos="0 -0.215 -0.01" mass="0.2"/>
        <geom name="drawer_back" size="0.005 0.21 0.07" pos="0.175 0 -0.01" mass="0.2"/>
        <body name="handle" pos="-0.28 0 0.1">
          <geom name="handle_bar" size="0.01 0.07 0.01" mass="0.1" rgba="0.2 0.2 0.2 1"/>
          <geom name="handle_post_left" size="0.035 0.008 0.008" pos="0.045 0.06 0" mass="0.05" rgba="0.2 0.2 0.2 1"/>
          <geom name="handle_post_right" size="0.035 0.008 0.008" pos="0.045 -0.06 0" mass="0.05" rgba="0.2 0.2 0.2 1"/>
        </body>
      </body>
    </body>
  </worldbody>
</mujoco>
"""


def ensure_cabinet_mjcf() -> str:
    """Return the path of the cabinet's MJCF, writing it on first use.

    The cache folder is ``drawer_cabinet-<digest>``, named by the file's content, so a changed cabinet gets a new
    folder and an existing one is always complete and current.
    """
    folder = f"{_FOLDER}-{hashlib.sha256(_CABINET_XML.encode()).hexdigest()[:12]}"
    target = assets_cache_root() / folder / "cabinet.xml"
    if target.is_file():
        return str(target)
    with tempfile.TemporaryDirectory() as tmp:
        staging = Path(tmp) / folder
        staging.mkdir()
        (staging / "cabinet.xml").write_text(_CABINET_XML, encoding="utf-8")
        return str(install_cache_folder(staging, folder) / "cabinet.xml")
