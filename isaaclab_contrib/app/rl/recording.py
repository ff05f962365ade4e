"""Rollout recordings that need no display: MP4 clips rendered by Newton's ray tracer, or animated USD files."""

from __future__ import annotations

import abc
import importlib.util
from pathlib import Path

import gymnasium as gym
import newton.viewer

from isaaclab_newton.physics import NewtonManager


class RolloutRecorder(gym.Wrapper, abc.ABC):
    """Record clips of ``length`` env steps, one starting every ``interval`` env steps (Isaac Lab's video flags).

    Each clip is ``<folder>/<prefix>-step-<n>.<suffix>`` and shows the first ``num_worlds`` environments at the
    env's control rate. Recording copies data to the host once per recorded step, so it slows those steps down;
    steps outside a clip are untouched. Subclasses write the clip (:meth:`_begin`, :meth:`_write`, :meth:`_end`).

    Args:
        env: The gymnasium-wrapped Isaac Lab environment (on the Newton backend).
        folder: Where the clips are written (created if missing).
        length: Env steps per clip.
        interval: Env steps from the start of one clip to the start of the next (``0``: only one clip).
        num_worlds: How many environments each clip shows.
        prefix: File-name prefix of the clips.

    Raises:
        ValueError: If ``length`` or ``num_worlds`` is below 1 or ``interval`` is negative or shorter than a clip.
    """

    def __init__(
        self,
        env: gym.Env,
        folder: str | Path,
        *,
        length: int = 200,
        interval: int = 0,
        num_worlds: int = 4,
        prefix: str = "rollout",
    ) -> None:
        super().__init__(env)
        if length < 1 or num_worlds < 1:
            raise ValueError(f"Recording needs length >= 1 and num_worlds >= 1 (got {length} and {num_worlds}).")
        if interval < 0 or 0 < interval < length:
            raise ValueError(f"Recording interval {interval} must be 0 (one clip) or at least the clip's {length}.")
        self.folder = Path(folder)
        self.length = length
        self.interval = interval
        self.num_worlds = min(num_worlds, env.unwrapped.num_envs)
        self.prefix = prefix
        self.clips: list[Path] = []
        self._step = 0
        self._recording = False
        self._frames = 0

    def _starts_clip(self) -> bool:
        if self.interval == 0:
            return self._step == 0 and not self.clips
        return self._step % self.interval == 0

    suffix: str
    """File-name suffix of the clips (``.mp4``, ``.usd``)."""

    @property
    def fps(self) -> int:
        """Frames per second of a clip: the env's control rate."""
        return max(1, round(1.0 / self.env.unwrapped.step_dt))

    def _open_clip(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.folder / f"{self.prefix}-step-{self._step}{self.suffix}"
        self._recording = True
        self._begin(path)
        self._frames = 0
        self.clips.append(path)
        self._log_frame()

    def _log_frame(self) -> None:
        self._write(self._frames)
        self._frames += 1

    def _close_clip(self) -> None:
        if self._recording:
            self._end()
            self._recording = False

    @abc.abstractmethod
    def _begin(self, path: Path) -> None:
        """Open the clip file at ``path``."""

    @abc.abstractmethod
    def _write(self, frame: int) -> None:
        """Append frame ``frame`` of the open clip."""

    @abc.abstractmethod
    def _end(self) -> None:
        """Finish and close the open clip."""

    def step(self, action):
        """Step the env; log the new body poses while a clip is open."""
        if not self._recording and self._starts_clip():
            self._open_clip()
        result = self.env.step(action)
        self._step += 1
        if self._recording:
            self._log_frame()
            if self._frames > self.length:
                self._close_clip()
        return result

    def close(self) -> None:
        """Save an unfinished clip, then close the env."""
        self._close_clip()
        super().close()


class UsdRolloutRecorder(RolloutRecorder):
    """Clips as animated USD files written by Newton's USD viewer (open them in usdview or any USD tool)."""

    suffix = ".usd"

    def _begin(self, path: Path) -> None:
        self._viewer = newton.viewer.ViewerUSD(str(path), fps=self.fps, num_frames=None)
        self._viewer.set_model(NewtonManager.get_model())
        self._viewer.set_visible_worlds(list(range(self.num_worlds)))

    def _write(self, frame: int) -> None:
        self._viewer.begin_frame(frame / self._viewer.fps)
        self._viewer.log_state(NewtonManager.get_state_0())
        self._viewer.end_frame()

    def _end(self) -> None:
        self._viewer.close()
        self._viewer = None


class Mp4RolloutRecorder(RolloutRecorder):
    """Clips as H.264 MP4 files: Newton's ray tracer renders a chase view of each shown env, tiled in a grid.

    Encoded by ``imageio`` with ``imageio-ffmpeg``'s bundled ffmpeg; no display is needed.

    Args:
        env: The gymnasium-wrapped Isaac Lab environment (on the Newton backend).
        folder: Where the clips are written (created if missing).
        tile: Width and height [px] of one env's tile (multiples of 16).
        distance: Distance of the chase camera from each env's robot [m]; ``None`` frames the robot (its bounding
            sphere spans 60 % of the tile height, see :class:`~isaaclab_newton.renderers.follow_camera.FollowCamera`).
        **kwargs: ``length``, ``interval``, ``num_worlds``, ``prefix`` of :class:`RolloutRecorder`.

    Raises:
        ValueError: If a tile side is not a positive multiple of 16 (H.264 macroblocks).
        ModuleNotFoundError: If ``imageio-ffmpeg`` is not installed.
    """

    suffix = ".mp4"

    def __init__(
        self, env: gym.Env, folder, *, tile: tuple[int, int] = (320, 240), distance: float | None = None, **kwargs
    ):
        if importlib.util.find_spec("imageio_ffmpeg") is None:
            raise ModuleNotFoundError(
                "MP4 clips (--video) are encoded with imageio-ffmpeg, which is not installed: run"
                " `./isaaclab.sh --install` or `pip install imageio-ffmpeg`."
            )
        super().__init__(env, folder, **kwargs)
        if any(side < 16 or side % 16 for side in tile):
            raise ValueError(f"Mp4RolloutRecorder tile sides must be positive multiples of 16, got {tile}.")
        self.tile = tile
        self.distance = distance
        self._camera = None
        self._writer = None

    def _begin(self, path: Path) -> None:
        import imageio.v2 as imageio

        from isaaclab_newton.renderers.follow_camera import FollowCamera

        if self._camera is None:
            self._camera = FollowCamera(
                NewtonManager.get_model(),
                list(range(self.num_worlds)),
                width=self.tile[0],
                height=self.tile[1],
                distance=self.distance,
            )
        self._writer = imageio.get_writer(
            str(path), format="FFMPEG", fps=self.fps, codec="libx264", quality=8, macro_block_size=16
        )

    def _write(self, frame: int) -> None:
        self._writer.append_data(self._camera.frame(NewtonManager.get_state_0()))

    def _end(self) -> None:
        self._writer.close()
        self._writer = None


RECORDERS: dict[str, type[RolloutRecorder]] = {"mp4": Mp4RolloutRecorder, "usd": UsdRolloutRecorder}
"""Recorder per ``--video_format``."""
