"""LiveViewerCfg: core's ViewerCfg with a backend, checked fields, and the envs and camera a live viewer draws."""

from __future__ import annotations

import warnings

import pytest
import torch
from isaaclab.envs import ViewerCfg

from isaaclab_contrib.viewer import LiveViewerCfg
from isaaclab_contrib.viewer.live_viewer import look_angles, nearest_envs


def test_is_cores_viewer_cfg_without_its_deprecation_warning():
    """A LiveViewerCfg sits in an env cfg's viewer field and warns nothing when set."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cfg = LiveViewerCfg(backend="viser", num_envs=2)
    assert isinstance(cfg, ViewerCfg) and cfg.rate_hz == 30.0 and cfg.max_wall_share == 0.03


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"backend": "vr"}, "backend must be one of"),
        ({"num_envs": 0}, "num_envs must be at least 1"),
        ({"rate_hz": 0.0}, "rate_hz must be positive"),
        ({"max_wall_share": 0.0}, r"max_wall_share must be in \(0, 1\]"),
        ({"backend": "gl", "record": "a.viser"}, "record applies to the viser and usd backends"),
        ({"backend": "viser", "record": "a.mp4"}, "is a .viser file"),
        ({"backend": "usd"}, "set record='FILE.usd'"),
    ],
)
def test_bad_fields_are_refused_by_name(fields, message):
    """Each bad field is refused with a message naming it."""
    with pytest.raises(ValueError, match=message):
        LiveViewerCfg(**fields)


def test_nearest_envs_are_those_around_the_origin():
    """Of a 3 x 3 grid of env origins 2 m apart, the centre env comes first, then its four edge neighbours."""
    grid = torch.tensor([(x, y, 0.0) for x in (-2.0, 0.0, 2.0) for y in (-2.0, 0.0, 2.0)])
    assert nearest_envs(grid, 1) == [4]
    assert nearest_envs(grid, 5) == [4, 1, 3, 5, 7]


def test_look_angles_point_at_the_target():
    """A camera looking along +y and 45 deg down has yaw 90 deg and pitch -45 deg."""
    pitch, yaw = look_angles((0.0, -1.0, 1.0), (0.0, 0.0, 0.0))
    assert pitch == pytest.approx(-45.0) and yaw == pytest.approx(90.0)
