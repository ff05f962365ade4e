"""The live viewer's backends and whether a window can open: standard library only, so the scripts' argument
checks (:mod:`isaaclab_contrib.app.args`) and the viewer (:mod:`isaaclab_contrib.viewer`) share them."""

from __future__ import annotations

import os
import sys

VIEWER_BACKENDS = ("viser", "gl", "rerun", "usd", "none")
"""Backends of ``--viewer`` / :attr:`~isaaclab_contrib.viewer.LiveViewerCfg.backend`: Newton's ``ViewerViser``,
``ViewerGL``, ``ViewerRerun``, ``ViewerUSD``; ``none`` draws nothing."""


def has_display() -> bool:
    """Whether a window can open: always off Linux, with ``$DISPLAY`` or ``$WAYLAND_DISPLAY`` on Linux."""
    return not sys.platform.startswith("linux") or bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def check_backend_runs_here(backend: str) -> None:
    """Refuse the GL viewer on a machine without a display.

    Raises:
        SystemExit: For ``gl`` without a display; names ``--viewer viser`` instead.
    """
    if backend == "gl" and not has_display():
        raise SystemExit(
            "--viewer gl opens a window, but this machine has no display ($DISPLAY is unset); use --viewer viser"
            " (a web page, the script prints its URL)."
        )
