"""The manipulation tasks' Panda cache folder: gravity compensation on the moving bodies, condim 4 on the fingers."""

from __future__ import annotations

import re

import pytest

from isaaclab_contrib.tasks.manipulation import panda_asset

BODIES = [f"link{i}" for i in range(1, 8)] + ["leftfinger", "rightfinger"]


def _cached_panda(root, *, finger_condim: str = "6"):
    """A cached ``panda`` folder of the wheel's layout: the nine moving bodies and the finger geom class."""
    folder = root / "panda"
    (folder / "franka_assets").mkdir(parents=True)
    bodies = "".join(f'<body name="panda0_{name}" pos="0 0 0"/>' for name in BODIES)
    (folder / "franka_assets" / "chain.xml").write_text(
        f'<mujocoinclude><body name="panda0_link0">{bodies}</body></mujocoinclude>'
    )
    (folder / "franka_assets" / "assets.xml").write_text(
        '<mujocoinclude><default class="panda_finger"><geom friction="1 0.5 0.0001" '
        f'condim="{finger_condim}" group="3"/></default></mujocoinclude>'
    )
    (folder / "LICENSE.md").write_text("Apache-2.0")
    (folder / "panda.xml").write_text('<mujoco model="panda"/>')


def test_fingers_contact_at_condim_4_and_moving_bodies_are_compensated(monkeypatch, tmp_path):
    """The written folder gives the finger class condim 4 (from 6) and each of the nine moving bodies gravcomp 1."""
    monkeypatch.setenv("ISAACLAB_NEWTON_ASSETS", str(tmp_path))
    _cached_panda(tmp_path)
    folder = tmp_path / "panda_grasp"
    assert panda_asset.ensure_panda_grasp_mjcf() == str(folder / "panda.xml")
    assert re.findall(r'condim="(\d)"', (folder / "franka_assets" / "assets.xml").read_text()) == ["4"]
    chain = (folder / "franka_assets" / "chain.xml").read_text()
    assert sorted(re.findall(r'name="panda0_(\w+)" gravcomp="1"', chain)) == sorted(BODIES)


def test_unexpected_finger_condim_names_the_folders_to_delete(monkeypatch, tmp_path):
    """A wheel whose finger class is not at condim 6 is refused with the cache folders to delete."""
    monkeypatch.setenv("ISAACLAB_NEWTON_ASSETS", str(tmp_path))
    _cached_panda(tmp_path, finger_condim="3")
    with pytest.raises(RuntimeError, match=r"condim 6 once on the finger class; delete .*panda and .*panda_grasp"):
        panda_asset.ensure_panda_grasp_mjcf()
    assert not (tmp_path / "panda_grasp").exists()
