"""The sensor frame of Newton's ray casters: one body per environment, read from the state on the device."""

from __future__ import annotations

import warp as wp
from isaaclab.sensors.ray_caster.base_ray_caster import BaseRayCaster

from ...physics.newton_manager import NewtonManager
from ..body_lookup import select_env_bodies


class BodyMountedRays(BaseRayCaster):
    """Core's ray caster with its frame on a Newton body: the body at ``cfg.prim_path`` or its closest body ancestor.

    Core's base classes build the rays from this frame (``pos_w``/``quat_w`` are the body's pose, ``cfg.offset``
    and ``cfg.ray_alignment`` applied to the rays); subclasses choose what the rays are cast against.
    """

    __backend_name__: str = "newton"

    def _initialize_pose_tracking(self) -> None:
        model = NewtonManager.get_model()
        if model is None:
            raise RuntimeError(f"{type(self).__name__} needs a finalized Newton model (PHYSICS_READY).")
        what = f"{type(self.cfg).__name__}.prim_path"
        selection = select_env_bodies(self.cfg.prim_path, self._num_envs, mode="ancestor", what=what)
        self._bodies = wp.array(selection.body_indices[:, 0], dtype=wp.int32, device=self._device)
        self._view = self
        self._view_count = self._num_envs
        self._offset_pos_wp = wp.zeros(self._num_envs, dtype=wp.vec3f, device=self._device)
        self._offset_quat_wp = wp.array(
            [wp.quat_identity(wp.float32)] * self._num_envs, dtype=wp.quatf, device=self._device
        )
        self._frames = wp.zeros(self._num_envs, dtype=wp.transformf, device=self._device)
        worlds = model.body_world.numpy()[selection.body_indices[:, 0]]
        self._worlds = worlds.astype("int32")

    @property
    def count(self) -> int:
        """Number of sensor frames (one per environment)."""
        return self._view_count

    def _get_view_transforms_wp(self) -> wp.array:
        wp.launch(
            _gather_frames,
            dim=self._num_envs,
            inputs=[self._bodies, NewtonManager.get_state_0().body_q],
            outputs=[self._frames],
            device=self._device,
        )
        return self._frames


@wp.kernel(enable_backward=False)
def _gather_frames(
    bodies: wp.array(dtype=wp.int32), body_q: wp.array(dtype=wp.transform), frames: wp.array(dtype=wp.transformf)
):
    env = wp.tid()
    frames[env] = body_q[bodies[env]]
