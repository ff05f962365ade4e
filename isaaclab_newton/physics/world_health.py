"""Per-world non-finite state flags, computed on the device after every physics step.

One kernel (one thread block per world) scans the world's body poses and twists and its joint coordinates and
velocities after the substeps, and flags the world where any is not finite or any speed (a body's linear [m/s] or
angular [rad/s] velocity, a joint velocity [m/s or rad/s]) exceeds the speed limit: a diverging solver passes
through huge finite values before it reaches inf, and those already poison rewards and gradients. It runs inside the
captured graph on CUDA, so detection adds no host sync.
Two buffers of length ``world_count`` hold the result:

- ``flags[w]`` (``bool``): whether world ``w``'s state was not finite (or ran away) after the last physics step;
- ``seen[w]`` (``int32``): 1 when world ``w`` was flagged on any step since the last host read.

Every ``log_interval`` physics steps ``seen`` is copied to host memory and cleared. On CUDA the copy goes to pinned
memory asynchronously and is read once an event says it landed (checked, without waiting, on the following steps),
so the step never waits for the device; on CPU it is read at once. A warning gives the count and the first world ids.
"""

from __future__ import annotations

import logging

import newton
import numpy as np
import warp as wp

logger = logging.getLogger(__name__)

_MAX_LOGGED_IDS = 8
_FLAG_BLOCK = 32
"""Threads per world of the check on CUDA."""


class WorldHealth:
    """Device buffers and logging cadence of the non-finite world check for one finalized model.

    Args:
        model: The finalized model.
        log_interval: Physics steps between host reads of the accumulated flags.
        speed_limit: Speed [m/s or rad/s] above which a world counts as diverged (``math.inf``: never).
    """

    def __init__(self, model: newton.Model, *, log_interval: int, speed_limit: float):
        device = model.device
        self.speed_limit = float(speed_limit)
        self.world_count = int(model.world_count)
        self.flags = wp.zeros(self.world_count, dtype=wp.bool, device=device)
        self.seen = wp.zeros(self.world_count, dtype=wp.int32, device=device)
        self.log_interval = int(log_interval)
        self._steps_since_read = 0
        self._asynchronous = wp.get_device(device).is_cuda
        self._host_seen = wp.zeros(self.world_count, dtype=wp.int32, device="cpu", pinned=self._asynchronous)
        self._copy_landed: wp.Event | None = None
        self._copied_steps = 0
        self._body_start = model.body_world_start
        self._coord_start = model.joint_coord_world_start
        self._dof_start = model.joint_dof_world_start

    def flag(self, state: newton.State) -> None:
        """Launch the check on ``state`` (graph-safe: device work only, no allocation)."""
        arrays = (state.body_q, state.body_qd, state.joint_q, state.joint_qd)
        if self.world_count == 0 or any(a is None for a in arrays):
            return
        block = _FLAG_BLOCK if self.flags.device.is_cuda else 1
        wp.launch_tiled(
            _flag_nonfinite_worlds,
            dim=[self.world_count],
            inputs=[
                self._body_start,
                self._coord_start,
                self._dof_start,
                state.body_q,
                state.body_qd,
                state.joint_q,
                state.joint_qd,
                self.speed_limit,
                block,
            ],
            outputs=[self.flags, self.seen],
            block_dim=block,
            device=self.flags.device,
        )

    def clear(self, world_mask: wp.array) -> None:
        """Clear ``flags`` of the worlds selected by ``world_mask`` (shape ``world_count + 1``, bool).

        ``seen`` keeps them until the next host read, so worlds reset before it are still reported.
        """
        if self.world_count == 0:
            return
        wp.launch(_clear_masked, dim=self.world_count, inputs=[world_mask, self.flags], device=self.flags.device)

    def count_steps(self, num_steps: int, *, manager_name: str) -> None:
        """Advance the step counter; every ``log_interval`` steps copy ``seen`` to the host and clear it.

        The copy is reported (a warning when any world was flagged) as soon as it has landed; nothing waits for it.
        """
        self._steps_since_read += int(num_steps)
        if self.world_count == 0:
            return
        if self._copy_landed is not None and self._copy_landed.is_complete:
            self._copy_landed = None
            self._report(manager_name)
        if self._steps_since_read < self.log_interval or self._copy_landed is not None:
            return
        self._copied_steps, self._steps_since_read = self._steps_since_read, 0
        wp.copy(self._host_seen, self.seen)
        self.seen.zero_()
        if self._asynchronous:
            self._copy_landed = self.seen.device.stream.record_event()
        else:
            self._report(manager_name)

    def _report(self, manager_name: str) -> None:
        """Warn about the worlds set in the host copy of ``seen``."""
        ids = np.flatnonzero(self._host_seen.numpy())
        if ids.size:
            logger.warning(
                "[%s] %d world(s) had non-finite or runaway (faster than %g) body or joint state in the last %d physics"
                " steps; first world ids:"
                " %s. The envs' termination terms reset them (NewtonManager.get_nonfinite_worlds()).",
                manager_name,
                ids.size,
                self.speed_limit,
                self._copied_steps,
                ids[:_MAX_LOGGED_IDS].tolist(),
            )


@wp.func
def _transform_finite(t: wp.transform) -> bool:
    return wp.isfinite(wp.transform_get_translation(t)) and wp.isfinite(wp.transform_get_rotation(t))


@wp.func
def _twist_ok(v: wp.spatial_vector, speed_limit: float) -> bool:
    """Whether twist ``v`` is finite with linear [m/s] and angular [rad/s] speeds within ``speed_limit``."""
    linear = wp.length(wp.spatial_top(v))
    angular = wp.length(wp.spatial_bottom(v))
    return wp.isfinite(v) and linear <= speed_limit and angular <= speed_limit


@wp.kernel
def _flag_nonfinite_worlds(
    body_start: wp.array(dtype=wp.int32),
    coord_start: wp.array(dtype=wp.int32),
    dof_start: wp.array(dtype=wp.int32),
    body_q: wp.array(dtype=wp.transform),
    body_qd: wp.array(dtype=wp.spatial_vector),
    joint_q: wp.array(dtype=wp.float32),
    joint_qd: wp.array(dtype=wp.float32),
    speed_limit: float,
    block: int,
    flags: wp.array(dtype=wp.bool),
    seen: wp.array(dtype=wp.int32),
):
    # one block per world; its threads stride over the world's entries (coalesced reads), then reduce
    w, lane = wp.tid()
    bad = wp.int32(0)
    b = body_start[w] + lane
    while b < body_start[w + 1]:
        if not (_transform_finite(body_q[b]) and _twist_ok(body_qd[b], speed_limit)):
            bad = wp.int32(1)
        b += block
    c = coord_start[w] + lane
    while c < coord_start[w + 1]:
        if not wp.isfinite(joint_q[c]):
            bad = wp.int32(1)
        c += block
    d = dof_start[w] + lane
    while d < dof_start[w + 1]:
        if not (wp.isfinite(joint_qd[d]) and wp.abs(joint_qd[d]) <= speed_limit):
            bad = wp.int32(1)
        d += block
    total = wp.tile_max(wp.tile(bad))
    if lane == 0:
        flagged = total[0]
        flags[w] = flagged != 0
        seen[w] = seen[w] | flagged


@wp.kernel
def _clear_masked(world_mask: wp.array(dtype=wp.bool), flags: wp.array(dtype=wp.bool)):
    w = wp.tid()
    if world_mask[w]:
        flags[w] = False
