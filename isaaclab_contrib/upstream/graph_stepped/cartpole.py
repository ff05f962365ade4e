"""``isaaclab_tasks``' direct cartpole envs with the mask reset and whole env steps replayed from a CUDA graph.

Upstream's task terms (torch) run unchanged inside the recorded step. The camera env's observation (core's
``Camera`` rendered by :class:`~isaaclab_newton.renderers.NewtonWarpRendererCfg`) is normalized and stacked by
:class:`~isaaclab_newton.renderers.frame_stack.NewtonCameraFrameStack`: the values of upstream's frame stack, in a
few Warp kernels.
"""

from __future__ import annotations

import torch
from isaaclab.sensors import save_images_to_file
from isaaclab_tasks.core.cartpole.cartpole_direct_camera_env import CartpoleCameraEnv
from isaaclab_tasks.core.cartpole.cartpole_direct_env import CartpoleEnv

from isaaclab_contrib.envs.graph_step import GraphStepMixin
from isaaclab_newton.renderers.frame_stack import NewtonCameraFrameStack

from ...envs.cartpole_mask_reset import CartpoleMaskResetHooks


class CartpoleGraphStepEnv(CartpoleMaskResetHooks, GraphStepMixin, CartpoleEnv):
    """Upstream's ``CartpoleEnv`` (``Isaac-Cartpole-Direct``), reset by mask, its steps replayed from a CUDA graph."""


class CartpoleCameraGraphStepEnv(CartpoleMaskResetHooks, GraphStepMixin, CartpoleCameraEnv):
    """Upstream's ``CartpoleCameraEnv`` (``Isaac-Cartpole-Camera-Direct``), reset by mask, steps replayed.

    The frame stack of a reset env restarts from its next frame, by index (upstream's ``_reset_idx``, which calls
    ``self._frames.reset``) or by mask.
    """

    def __init__(self, cfg, render_mode: str | None = None, **kwargs):
        super().__init__(cfg, render_mode, **kwargs)
        camera = self.cfg.scene.tiled_camera
        self._frames = NewtonCameraFrameStack(
            self.num_envs,
            camera.height,
            camera.width,
            camera.data_types[0],
            self.device,
            frames=self.cfg.frame_stack,
            channel_first=True,
        )

    def _get_observations(self) -> dict:
        """Upstream's observations: the stacked, normalized camera frames (policy) and the joint state (critic)."""
        data_type = self.cfg.scene.tiled_camera.data_types[0]
        images = self._tiled_camera.data.output[data_type].torch
        obs = self._frames.push(images)
        if not (self._frames.device.startswith("cuda") and torch.cuda.is_current_stream_capturing()):
            obs = obs.clone()  # a new tensor per step, as upstream's; a replayed step copies its outputs itself
        if self.cfg.write_image_to_file:
            save_images_to_file(images / 255.0, f"cartpole_{data_type}.png")
        critic_obs = CartpoleEnv._get_observations(self)["policy"]
        return {"policy": obs, "critic": critic_obs}

    def _reset_masked_task(self, mask: torch.Tensor) -> None:
        """The cartpole's mask reset, then the frame history of the masked envs restarting, on the device."""
        super()._reset_masked_task(mask)
        self._frames.reset_mask(mask)
