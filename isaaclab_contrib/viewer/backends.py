"""One of Newton's viewers per :attr:`LiveViewerCfg.backend`, with a clear error where it cannot run here."""

from __future__ import annotations

import importlib.util

import newton.viewer

from ..viewer_backends import check_backend_runs_here
from .live_viewer_cfg import LiveViewerCfg

_REQUIRES = {
    "viser": ("viser", "viser"),
    "gl": ("pyglet", "pyglet"),
    "rerun": ("rerun", "rerun-sdk"),
    "usd": ("pxr", "usd-core"),
}
"""Per backend: the module Newton's viewer imports and the pip package that provides it."""


def make_newton_viewer(cfg: LiveViewerCfg) -> newton.viewer.ViewerBase:
    """Newton's viewer of ``cfg.backend`` (not ``none``), its server started or its file opened.

    Raises:
        SystemExit: For ``gl`` without a display, or a backend whose package is not installed (names the
            ``pip install``).
        ValueError: For the ``none`` backend.
    """
    if cfg.backend not in _REQUIRES:
        raise ValueError(f"No Newton viewer for backend {cfg.backend!r}.")
    check_backend_runs_here(cfg.backend)
    module, package = _REQUIRES[cfg.backend]
    if importlib.util.find_spec(module) is None:
        raise SystemExit(
            f"--viewer {cfg.backend} needs the {package!r} package; install it with"
            f" `./isaaclab.sh -p -m pip install {package}`."
        )
    if cfg.backend == "viser":
        return newton.viewer.ViewerViser(port=cfg.port, verbose=False, record_to_viser=cfg.record)
    if cfg.backend == "gl":
        return newton.viewer.ViewerGL()
    if cfg.backend == "rerun":
        return newton.viewer.ViewerRerun()
    return newton.viewer.ViewerUSD(str(cfg.record), fps=round(cfg.rate_hz), num_frames=None)
