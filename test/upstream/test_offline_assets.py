"""An upstream task whose USD assets are not on this machine is refused naming them and make_offline_assets.py."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from isaaclab_contrib.upstream.offline_assets import check_offline_assets, referenced_usd_files


@dataclass
class _Spawn:
    usd_path: str


@dataclass
class _Scene:
    robot: _Spawn
    extras: dict = field(default_factory=dict)


def test_nested_usd_paths_are_found_once(tmp_path):
    """usd_path fields in nested configs and dicts are collected, each once."""
    scene = _Scene(_Spawn("a.usd"), {"ground": _Spawn("b.usd"), "again": _Spawn("a.usd")})
    assert sorted(referenced_usd_files(scene)) == ["a.usd", "b.usd"]


def test_missing_asset_names_file_and_tool(tmp_path, monkeypatch):
    """A server URL without ISAACSIM_ASSET_ROOT names the URL, the variable and make_offline_assets.py."""
    monkeypatch.delenv("ISAACSIM_ASSET_ROOT", raising=False)
    present = tmp_path / "ground.usda"
    present.write_text("#usda 1.0\n")
    url = "https://example.invalid/Isaac/IsaacLab/Robots/Classic/Cartpole/cartpole.usd"
    scene = _Scene(_Spawn(url), {"ground": _Spawn(str(present))})
    with pytest.raises(SystemExit, match=r"cartpole.usd.*make_offline_assets.py") as err:
        check_offline_assets("Isaac-Cartpole-Direct", scene)
    assert "ISAACSIM_ASSET_ROOT is not set" in str(err.value) and str(present) not in str(err.value)


def test_local_assets_pass(tmp_path):
    """A config whose USD files all exist passes."""
    present = tmp_path / "robot.usd"
    present.write_text("#usda 1.0\n")
    check_offline_assets("Isaac-Anything", _Scene(_Spawn(str(present))))
