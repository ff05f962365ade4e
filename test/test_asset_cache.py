"""The local cache: a folder enters it complete, replacing an incomplete one and keeping a complete one."""

from __future__ import annotations

from pathlib import Path

import pytest

from isaaclab_contrib.asset_cache import install_cache_folder


def _write(folder: Path, files: dict[str, str]) -> Path:
    """Write ``files`` (relative path -> text) under ``folder`` and return it."""
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    return folder


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    """An empty cache root under ``tmp_path``."""
    monkeypatch.setenv("ISAACLAB_NEWTON_ASSETS", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_install_replaces_an_incomplete_folder(cache, tmp_path):
    """The staged files replace whatever the cache folder held; no partial copy is left beside it."""
    _write(cache / "robot", {"old.xml": "<old/>"})
    staging = _write(tmp_path / "staging", {"robot.xml": "<mujoco/>", "meshes/link.obj": "v 0 0 0"})
    target = install_cache_folder(staging, "robot")
    assert target == cache / "robot"
    assert sorted(p.relative_to(target).as_posix() for p in target.rglob("*")) == [
        "meshes",
        "meshes/link.obj",
        "robot.xml",
    ]
    assert [p.name for p in cache.iterdir()] == ["robot"]


def test_install_keeps_a_complete_folder(cache, tmp_path):
    """A cache folder that already holds every staged file (another process's copy) is kept as it is."""
    done = _write(cache / "robot", {"robot.xml": "<mujoco model='theirs'/>"})
    staging = _write(tmp_path / "staging", {"robot.xml": "<mujoco/>"})
    assert install_cache_folder(staging, "robot") == done
    assert (done / "robot.xml").read_text() == "<mujoco model='theirs'/>"
    assert [p.name for p in cache.iterdir()] == ["robot"]
