"""One of Newton's viewers per :attr:`LiveViewerCfg.backend`, with a clear error where it cannot run here."""

from __future__ import annotations

import newton.viewer

from ..viewer_backends import check_backend_runs_here
from .live_viewer_cfg import LiveViewerCfg

_PACKAGES = {"viser": "viser", "gl": "pyglet", "rerun": "rerun-sdk", "usd": "usd-core"}
"""The pip package each backend imports."""


def make_newton_viewer(cfg: LiveViewerCfg) -> newton.viewer.ViewerBase:
    """Newton's viewer of ``cfg.backend`` (not ``none``), its server started or its file opened.

    Raises:
        SystemExit: For ``gl`` without a display, or a backend whose package is not installed (names the
            ``pip install``).
    """
    check_backend_runs_here(cfg.backend)
    try:
        if cfg.backend == "viser":
            return newton.viewer.ViewerViser(port=cfg.port, verbose=False, record_to_viser=cfg.record)
        if cfg.backend == "gl":
            return newton.viewer.ViewerGL()
        if cfg.backend == "rerun":
            return newton.viewer.ViewerRerun()
        if cfg.backend == "usd":
            return newton.viewer.ViewerUSD(str(cfg.record), fps=round(cfg.rate_hz), num_frames=None)
    except ImportError as err:
        raise SystemExit(
            f"--viewer {cfg.backend} needs the {_PACKAGES[cfg.backend]!r} package ({err}); install it with"
            f" `./isaaclab.sh -p -m pip install {_PACKAGES[cfg.backend]}`."
        ) from err
    raise ValueError(f"No Newton viewer for backend {cfg.backend!r}.")
