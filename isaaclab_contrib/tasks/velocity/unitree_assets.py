"""Unitree Go1 and G1 offline: the MJCF models and meshes of the ``mjlab`` wheel's asset zoo (Apache-2.0), cached."""

from __future__ import annotations

from isaaclab_contrib.assets.wheel_files import ensure_wheel_folder

MJLAB = "mjlab==1.6.0"
"""The pinned wheel whose ``mjlab/asset_zoo/robots`` ships the Unitree models."""

_ZOO = "mjlab/asset_zoo/robots/"
_LICENSE = "mjlab-*.dist-info/licenses/LICENSE"


def ensure_go1_mjcf() -> str:
    """Path of the Go1 MJCF (``go1.xml``, meshes in ``assets/``), fetching the ``mjlab`` wheel on first use."""
    folder = ensure_wheel_folder(
        "unitree_go1", requirement=MJLAB, folder=_ZOO + "unitree_go1/xmls/", license_member=_LICENSE
    )
    return str(folder / "go1.xml")


def ensure_g1_mjcf() -> str:
    """Path of the G1 MJCF (``g1.xml``, 29 joints, meshes in ``assets/``), fetching the ``mjlab`` wheel on first use."""
    folder = ensure_wheel_folder(
        "unitree_g1", requirement=MJLAB, folder=_ZOO + "unitree_g1/xmls/", license_member=_LICENSE
    )
    return str(folder / "g1.xml")
