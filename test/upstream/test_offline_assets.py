"""An upstream task whose USD assets are not on this machine is refused naming them, the asset root and the fix."""

from __future__ import annotations

from dataclasses import dataclass, field

import isaaclab.utils.assets
import pytest

from isaaclab_contrib.upstream.offline_assets import check_offline_assets, referenced_usd_files
from isaaclab_contrib.upstream.offline_cache import offline_asset_root


@dataclass
class _Spawn:
    usd_path: str


@dataclass
class _Scene:
    robot: _Spawn
    extras: dict = field(default_factory=dict)


def _core_root(monkeypatch, root: str) -> None:
    """Make ``root`` the asset root Isaac Lab resolved at import."""
    monkeypatch.setattr(isaaclab.utils.assets, "NUCLEUS_ASSET_ROOT_DIR", root)


def test_nested_usd_paths_are_found_once(tmp_path):
    """usd_path fields in nested configs and dicts are collected, each once."""
    scene = _Scene(_Spawn("a.usd"), {"ground": _Spawn("b.usd"), "again": _Spawn("a.usd")})
    assert sorted(referenced_usd_files(scene)) == ["a.usd", "b.usd"]


def test_asset_missing_from_the_cache_names_it_and_a_full_copy(tmp_path, monkeypatch):
    """On Newton's cache (made on first use) an asset Newton does not ship is named with ISAACSIM_ASSET_ROOT's fix."""
    monkeypatch.setenv("ISAACLAB_NEWTON_ASSETS", str(tmp_path))
    root = offline_asset_root()
    _core_root(monkeypatch, str(root))
    cartpole = f"{root}/Isaac/IsaacLab/Robots/Classic/Cartpole/cartpole.usd"
    franka = f"{root}/Isaac/Robots/FrankaRobotics/FrankaPanda/franka.usd"
    with pytest.raises(SystemExit, match=r"franka\.usd.*offline cache.*set ISAACSIM_ASSET_ROOT to a copy") as err:
        check_offline_assets("Isaac-Reach-Franka", _Scene(_Spawn(franka), {"cartpole": _Spawn(cartpole)}))
    assert "cartpole.usd" not in str(err.value)


def test_asset_missing_from_the_users_folder_names_the_tool(tmp_path, monkeypatch):
    """A user's ISAACSIM_ASSET_ROOT folder without the file names it and make_offline_assets.py --out that folder."""
    _core_root(monkeypatch, str(tmp_path))
    missing = f"{tmp_path}/Isaac/IsaacLab/Robots/Classic/Cartpole/cartpole.usd"
    with pytest.raises(SystemExit, match=rf"cartpole\.usd.*make_offline_assets\.py --out {tmp_path}"):
        check_offline_assets("Isaac-Cartpole-Direct", _Scene(_Spawn(missing)))


def test_server_root_names_the_import_order_and_the_cache(tmp_path, monkeypatch):
    """A server URL as the root (Isaac Lab imported first) names the URL, the import order and the cache."""
    monkeypatch.setenv("ISAACLAB_NEWTON_ASSETS", str(tmp_path))
    server = "https://example.invalid/Assets/Isaac/6.2"
    _core_root(monkeypatch, server)
    present = tmp_path / "ground.usda"
    present.write_text("#usda 1.0\n")
    scene = _Scene(_Spawn(f"{server}/Isaac/IsaacLab/Robots/Classic/Cartpole/cartpole.usd"), {"g": _Spawn(str(present))})
    with pytest.raises(SystemExit, match=r"cartpole\.usd.*import isaaclab_contrib before Isaac Lab") as err:
        check_offline_assets("Isaac-Cartpole-Direct", scene)
    assert str(offline_asset_root()) in str(err.value) and str(present) not in str(err.value)


def test_local_assets_pass(tmp_path, monkeypatch):
    """A config whose USD files all exist passes."""
    _core_root(monkeypatch, str(tmp_path))
    present = tmp_path / "robot.usd"
    present.write_text("#usda 1.0\n")
    check_offline_assets("Isaac-Anything", _Scene(_Spawn(str(present))))
