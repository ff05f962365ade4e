"""make_newton_viewer: a backend that cannot run here is refused with the fix, before Newton's viewer is built."""

from __future__ import annotations

import importlib.util
import sys

import pytest

from isaaclab_contrib.viewer import LiveViewerCfg
from isaaclab_contrib.viewer.backends import make_newton_viewer


def test_gl_without_a_display_names_viser(monkeypatch):
    """The GL viewer on Linux without $DISPLAY says to use --viewer viser."""
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    with pytest.raises(SystemExit, match="no display.*use --viewer viser"):
        make_newton_viewer(LiveViewerCfg(backend="gl"))


def test_missing_package_names_its_pip_install(monkeypatch):
    """A backend whose package is not installed names the pip install (rerun: rerun-sdk)."""
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *args: None)
    with pytest.raises(SystemExit, match=r"pip install rerun-sdk"):
        make_newton_viewer(LiveViewerCfg(backend="rerun"))


def test_none_backend_has_no_viewer():
    """The none backend builds no viewer."""
    with pytest.raises(ValueError, match="No Newton viewer for backend 'none'"):
        make_newton_viewer(LiveViewerCfg(backend="none"))
