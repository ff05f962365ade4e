"""The local cache: a folder enters it complete, replacing an incomplete one and keeping a complete one."""

from __future__ import annotations

from isaaclab_contrib.asset_cache import install_cache_folder


def test_install_replaces_an_incomplete_folder(tmp_path, monkeypatch):
    """The staged files replace whatever the cache folder held; no partial copy is left beside it."""
    monkeypatch.setenv("ISAACLAB_NEWTON_ASSETS", str(tmp_path / "cache"))
    stale = tmp_path / "cache" / "robot"
    stale.mkdir(parents=True)
    (stale / "old.xml").write_text("<old/>")
    staging = tmp_path / "staging"
    (staging / "meshes").mkdir(parents=True)
    (staging / "robot.xml").write_text("<mujoco/>")
    (staging / "meshes" / "link.obj").write_text("v 0 0 0")
    target = install_cache_folder(staging, "robot")
    assert target == stale
    assert sorted(p.relative_to(target).as_posix() for p in target.rglob("*")) == [
        "meshes",
        "meshes/link.obj",
        "robot.xml",
    ]
    assert [p.name for p in (tmp_path / "cache").iterdir()] == ["robot"]


def test_install_keeps_a_complete_folder(tmp_path, monkeypatch):
    """A cache folder that already holds every staged file (another process's copy) is kept as it is."""
    monkeypatch.setenv("ISAACLAB_NEWTON_ASSETS", str(tmp_path / "cache"))
    done = tmp_path / "cache" / "robot"
    done.mkdir(parents=True)
    (done / "robot.xml").write_text("<mujoco model='theirs'/>")
    staging = tmp_path / "staging"
    staging.mkdir()
    (staging / "robot.xml").write_text("<mujoco/>")
    assert install_cache_folder(staging, "robot") == done
    assert (done / "robot.xml").read_text() == "<mujoco model='theirs'/>"
    assert [p.name for p in (tmp_path / "cache").iterdir()] == ["robot"]
