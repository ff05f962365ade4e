"""LiveViewerCfg: which Newton viewer draws which envs, how often, and from where."""

from __future__ import annotations

from isaaclab.envs import ViewerCfg
from isaaclab.utils import configclass

from ..viewer_backends import VIEWER_BACKENDS


@configclass
class LiveViewerCfg(ViewerCfg):
    """A live viewer of the env, drawn by one of Newton's viewers between env steps.

    Set it as the env cfg's ``viewer`` field (``env_cfg.viewer = LiveViewerCfg(backend="viser")``) or pass it to
    :func:`~isaaclab_contrib.app.env_factory.make_env` (``viewer=...``). Core's :class:`ViewerCfg` fields (``eye``,
    ``lookat``, ...) keep their defaults and drive Isaac Lab's Kit viewport only; this viewer's camera is
    :attr:`camera_eye` / :attr:`camera_target`.
    """

    backend: str = "none"
    """``viser`` (web page; the choice on a headless machine), ``gl`` (a window; needs a display), ``rerun``,
    ``usd`` (an animated USD file at :attr:`record`) or ``none``."""

    num_envs: int = 4
    """Envs drawn: those whose origins lie nearest the world origin."""

    rate_hz: float = 30.0
    """Most frames drawn per wall-clock second [Hz]."""

    max_wall_share: float = 0.03
    """Most share of wall time spent drawing: after a draw of ``d`` seconds, none for ``d / max_wall_share``
    seconds (frames are skipped, stepping never waits)."""

    contacts: bool = False
    """Draw the contact points and normals of the drawn envs."""

    command_arrows: bool = True
    """Draw the velocity-command arrows (green, the command; blue, the base velocity) of velocity tasks."""

    port: int = 8080
    """Port of the viser web server."""

    record: str | None = None
    """``viser``: a ``.viser`` recording written on close (replayable offline); ``usd``: the USD file (required).
    While recording, frames are drawn every ``1 / rate_hz`` seconds of simulated time instead of wall time."""

    camera_eye: tuple[float, float, float] = (4.0, -6.0, 3.0)
    """Camera position [m], relative to the origin of the drawn env nearest the world origin."""

    camera_target: tuple[float, float, float] = (0.0, 0.0, 0.5)
    """Point the camera looks at [m], relative to the origin of the drawn env nearest the world origin."""

    def __post_init__(self) -> None:
        """Check the fields (core's deprecation warning is for its Kit fields, which this viewer does not use).

        Raises:
            ValueError: For an unknown backend, a count, rate or share out of range, or a recording the backend
                cannot write; the message names the field.
        """
        if self.backend not in VIEWER_BACKENDS:
            raise ValueError(f"LiveViewerCfg.backend must be one of {VIEWER_BACKENDS}, got {self.backend!r}.")
        if self.num_envs < 1:
            raise ValueError(f"LiveViewerCfg.num_envs must be at least 1, got {self.num_envs}.")
        if not self.rate_hz > 0.0:
            raise ValueError(f"LiveViewerCfg.rate_hz must be positive [Hz], got {self.rate_hz}.")
        if not 0.0 < self.max_wall_share <= 1.0:
            raise ValueError(f"LiveViewerCfg.max_wall_share must be in (0, 1], got {self.max_wall_share}.")
        if not 0 < self.port < 65536:
            raise ValueError(f"LiveViewerCfg.port must be in 1..65535, got {self.port}.")
        if self.record is not None and self.backend not in ("viser", "usd"):
            raise ValueError(f"LiveViewerCfg.record applies to the viser and usd backends, not {self.backend!r}.")
        if self.record is not None and self.backend == "viser" and not str(self.record).endswith(".viser"):
            raise ValueError(f"A viser recording is a .viser file, got record={self.record!r}.")
        if self.backend == "usd" and self.record is None:
            raise ValueError("LiveViewerCfg(backend='usd') writes a USD file: set record='FILE.usd'.")
