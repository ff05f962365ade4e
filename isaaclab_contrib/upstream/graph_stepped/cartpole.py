"""``isaaclab_tasks``' direct cartpole envs with the mask reset and whole env steps replayed from a CUDA graph.

Upstream's task terms (torch) and camera observation (core's ``Camera`` rendered by
:class:`~isaaclab_newton.renderers.NewtonWarpRendererCfg`, frame stack) run unchanged inside the recorded step.
"""

from __future__ import annotations

import torch
from isaaclab_tasks.core.cartpole.cartpole_direct_camera_env import CartpoleCameraEnv
from isaaclab_tasks.core.cartpole.cartpole_direct_env import CartpoleEnv

from isaaclab_contrib.envs.graph_step import GraphStepMixin

from ...envs.cartpole_mask_reset import CartpoleMaskResetHooks


class CartpoleGraphStepEnv(CartpoleMaskResetHooks, GraphStepMixin, CartpoleEnv):
    """Upstream's ``CartpoleEnv`` (``Isaac-Cartpole-Direct``), reset by mask, its steps replayed from a CUDA graph."""


class CartpoleCameraGraphStepEnv(CartpoleMaskResetHooks, GraphStepMixin, CartpoleCameraEnv):
    """Upstream's ``CartpoleCameraEnv`` (``Isaac-Cartpole-Camera-Direct``), reset by mask, steps replayed.

    The frame stack of a reset env restarts from its next frame, as upstream's index reset does.
    """

    def _reset_masked_task(self, mask: torch.Tensor) -> None:
        """The cartpole's mask reset, then the frame history of the masked envs cleared on the device."""
        super()._reset_masked_task(mask)
        frames = self._frames._buffer  # core's CameraFrameStack has an index reset only (a host sync on CUDA)
        if frames is not None:
            # the next append fills every slot of an env with no pushes with its frame (a torch.where over all
            # envs, armed by this flag: it runs in every recorded step)
            frames._num_pushes.masked_fill_(mask, 0)
            frames._need_reset = True
