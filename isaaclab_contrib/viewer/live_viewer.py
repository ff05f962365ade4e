"""LiveViewer: a gymnasium wrapper that draws chosen envs in one of Newton's viewers after env steps."""

from __future__ import annotations

import math
import time

import gymnasium as gym
import numpy as np
import torch
import warp as wp

from isaaclab_newton.physics import NewtonManager

from .backends import make_newton_viewer
from .chosen_particles import ChosenParticles
from .command_arrows import VelocityCommandArrows
from .frame_budget import FrameBudget
from .live_viewer_cfg import LiveViewerCfg


def nearest_envs(env_origins: torch.Tensor, count: int) -> list[int]:
    """The ``count`` env ids whose origins lie nearest the world origin, nearest first (ties: lower id first)."""
    distance = torch.linalg.norm(env_origins[:, :2].float(), dim=-1).cpu().numpy()
    order = np.lexsort((np.arange(len(distance)), np.round(distance, 6)))
    return [int(i) for i in order[:count]]


def look_angles(eye, target) -> tuple[float, float]:
    """Newton's camera pitch and yaw [deg] (Z up) of a camera at ``eye`` looking at ``target``."""
    dx, dy, dz = (float(t) - float(e) for e, t in zip(eye, target, strict=True))
    return math.degrees(math.atan2(dz, math.hypot(dx, dy))), math.degrees(math.atan2(dy, dx))


class LiveViewer(gym.Wrapper):
    """Draw the envs nearest the origin in a Newton viewer after ``reset`` and after env steps, when a frame is due.

    A frame reads the state on the device between env steps (never inside the captured or recorded step): the
    bodies with their visual shapes and colours, the terrain, particles and deformables where the model has them,
    optionally contacts, and the velocity-command arrows of velocity tasks. Frames are due at most
    ``cfg.rate_hz`` times per wall-clock second and while drawing stays under ``cfg.max_wall_share`` of wall time
    (:class:`FrameBudget`); while recording (``cfg.record``), every ``1 / cfg.rate_hz`` seconds of simulated time.

    Args:
        env: The gymnasium-wrapped Isaac Lab env on the Newton backend.
        cfg: The viewer (a backend other than ``none``).

    Raises:
        ValueError: For the ``none`` backend.
        SystemExit: If the backend cannot run here (no display for ``gl``, its package missing).
    """

    def __init__(self, env: gym.Env, cfg: LiveViewerCfg) -> None:
        super().__init__(env)
        unwrapped = env.unwrapped
        self.cfg = cfg
        origins = unwrapped.scene.env_origins
        self.env_ids = nearest_envs(origins, cfg.num_envs)
        self.viewer = make_newton_viewer(cfg)
        model = NewtonManager.get_model()
        self.viewer.set_model(model)
        self.viewer.set_visible_worlds(self.env_ids)
        self.viewer.set_world_offsets((0.0, 0.0, 0.0))  # the envs are already laid out at their origins
        self.viewer.show_particles = False  # Newton's viewers draw every world's particles: ours are drawn below
        # Particle media (MPM, granular) as points; cloth and soft bodies are drawn as Newton's triangle meshes.
        self.particles = ChosenParticles(model, self.env_ids) if model.particle_count and not model.tri_count else None
        self.viewer.show_contacts = cfg.contacts
        centre = origins[self.env_ids[0]].float().cpu().numpy()  # the env nearest the origin
        eye = centre + np.asarray(cfg.camera_eye)
        pitch, yaw = look_angles(eye, centre + np.asarray(cfg.camera_target))
        self.viewer.set_camera(tuple(float(x) for x in eye), pitch, yaw)
        ids = torch.tensor(self.env_ids, dtype=torch.long, device=unwrapped.device)
        self.arrows = VelocityCommandArrows.of_env(unwrapped, ids) if cfg.command_arrows else []
        self.budget = FrameBudget(rate_hz=cfg.rate_hz, max_share=cfg.max_wall_share)
        self.step_dt = float(unwrapped.step_dt)
        self.record_stride = max(1, round(1.0 / (cfg.rate_hz * self.step_dt)))
        self.frames = 0
        self._steps = 0
        if cfg.backend == "viser":
            print(f"[INFO] viewer: {self.viewer.url} (envs {self.env_ids})", flush=True)

    @property
    def url(self) -> str | None:
        """The viser page's URL (``None`` for the other backends)."""
        return self.viewer.url if self.cfg.backend == "viser" else None

    def reset(self, **kwargs):
        """Reset the env; draw its first frame."""
        result = self.env.reset(**kwargs)
        if self.frames == 0:
            self.draw()
        return result

    def step(self, action):
        """Step the env, then draw a frame if one is due."""
        result = self.env.step(action)
        self._steps += 1
        if self._due():
            self.draw()
        return result

    def _due(self) -> bool:
        if self.cfg.record is not None:
            return self._steps % self.record_stride == 0
        return self.budget.due()

    def draw(self) -> None:
        """Draw the current state of the chosen envs (a frame at simulated time ``(steps + 1) * step_dt``).

        Waits for the queued env steps first, so that the frame budget counts the drawing alone.
        """
        state = NewtonManager.get_state_0()
        wp.synchronize_device(NewtonManager.get_model().device)  # the queued env steps: not drawing time
        start = time.perf_counter()
        self.viewer.begin_frame((self._steps + 1) * self.step_dt)
        self.viewer.log_state(state)
        if self.cfg.contacts and NewtonManager.get_contacts() is not None:
            self.viewer.log_contacts(NewtonManager.get_contacts(), state)
        if self.particles is not None:
            self.particles.draw(self.viewer, state)
        for arrows in self.arrows:
            arrows.draw(self.viewer)
        self.viewer.end_frame()
        self.frames += 1
        self.budget.spent(start, time.perf_counter())

    def close(self) -> None:
        """Close the viewer (a recording is written then), then the env."""
        self.viewer.close()
        if self.cfg.record is not None:
            print(f"[INFO] viewer recording {self.cfg.record} ({self.frames} frames)", flush=True)
        super().close()
