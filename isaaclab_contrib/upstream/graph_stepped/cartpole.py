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
from isaaclab_newton.physics import NewtonManager
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
        # what a recorded step returns for the policy group (no memory): replays return stacked() instead
        self._policy_stand_in = torch.zeros(1, device=self.device).expand(self._frames.shape)

    def _get_observations(self) -> dict:
        """Upstream's observations: the stacked, normalized camera frames (policy) and the joint state (critic).

        While the step is recorded the policy group is a stand-in: replays make it after the graph
        (:meth:`_observations_made_after_step`), writing the float stack once instead of copying it out.
        """
        data_type = self.cfg.scene.tiled_camera.data_types[0]
        images = self._tiled_camera.data.output[data_type].torch
        self._frames.push(images)
        if self._policy_made_after_step() and NewtonManager.recording_clocks() is not None:
            obs = self._policy_stand_in  # the env step is being recorded
        else:
            obs = self._frames.stacked()  # a new tensor per step, as upstream's
        if self.cfg.write_image_to_file:
            save_images_to_file(images / 255.0, f"cartpole_{data_type}.png")
        critic_obs = CartpoleEnv._get_observations(self)["policy"]
        return {"policy": obs, "critic": critic_obs}

    def _observations_made_after_step(self) -> dict:
        """The policy's frame stack, made after each replay (unless a noise model must see it inside the step)."""
        return {"policy": self._frames.stacked} if self._policy_made_after_step() else {}

    def _policy_made_after_step(self) -> bool:
        return self.cfg.observation_noise_model is None

    def _reset_masked_task(self, mask: torch.Tensor) -> None:
        """The cartpole's mask reset, then the frame history of the masked envs restarting, on the device."""
        super()._reset_masked_task(mask)
        self._frames.reset_mask(mask)
