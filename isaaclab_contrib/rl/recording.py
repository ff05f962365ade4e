"""Rollout recordings that need no display: Newton's USD viewer writes the bodies' motion to a ``.usd`` file."""

from __future__ import annotations

from pathlib import Path

import gymnasium as gym
import newton.viewer

from isaaclab_newton.physics import NewtonManager


class UsdRolloutRecorder(gym.Wrapper):
    """Record clips of ``length`` env steps, one starting every ``interval`` env steps, as animated USD files.

    Each clip is ``<folder>/<prefix>-step-<n>.usd`` and shows the first ``num_worlds`` environments at the env's
    control rate (open it in usdview or any USD tool). Recording copies body poses to the host once per recorded
    step, so it slows those steps down; steps outside a clip are untouched.

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
        self._viewer: newton.viewer.ViewerUSD | None = None
        self._frames = 0

    def _starts_clip(self) -> bool:
        if self.interval == 0:
            return self._step == 0 and not self.clips
        return self._step % self.interval == 0

    def _open_clip(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.folder / f"{self.prefix}-step-{self._step}.usd"
        fps = max(1, round(1.0 / self.env.unwrapped.step_dt))
        self._viewer = newton.viewer.ViewerUSD(str(path), fps=fps, num_frames=None)
        self._viewer.set_model(NewtonManager.get_model())
        self._viewer.set_visible_worlds(list(range(self.num_worlds)))
        self._frames = 0
        self.clips.append(path)
        self._log_frame()

    def _log_frame(self) -> None:
        self._viewer.begin_frame(self._frames / self._viewer.fps)
        self._viewer.log_state(NewtonManager.get_state_0())
        self._viewer.end_frame()
        self._frames += 1

    def _close_clip(self) -> None:
        if self._viewer is not None:
            self._viewer.close()
            self._viewer = None

    def step(self, action):
        """Step the env; log the new body poses while a clip is open."""
        if self._viewer is None and self._starts_clip():
            self._open_clip()
        result = self.env.step(action)
        self._step += 1
        if self._viewer is not None:
            self._log_frame()
            if self._frames > self.length:
                self._close_clip()
        return result

    def close(self) -> None:
        """Save an unfinished clip, then close the env."""
        self._close_clip()
        super().close()
