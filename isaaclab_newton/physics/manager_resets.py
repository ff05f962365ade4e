"""Per-world resets and kinematics of the Newton manager: reset masks, queued FK, state stamps, world health."""

from __future__ import annotations

from collections.abc import Iterable

import newton
import warp as wp

from .manager_state import NewtonManagerState
from .observables import clear_world_rows
from .pending_kinematics import mark as _mark


class NewtonResets(NewtonManagerState):
    """The resets-and-kinematics part of :class:`~.newton_manager.NewtonManager`: world resets by mask, masked FK of
    written articulations, the state stamp cached reads compare against, and the non-finite world flags."""

    @classmethod
    def forward(cls) -> None:
        """Apply pending world resets and refresh all body poses from joint coordinates (no time advance).

        Assets do not need this after their writes (they queue masked FK, see :meth:`note_state_write`); it is for
        callers that edit ``State.joint_q``/``joint_qd`` directly, and for renderers.
        """
        if NewtonManagerState._model is None:
            return
        cls.update_kinematics()
        model = NewtonManagerState._model
        if model.joint_count:
            state = NewtonManagerState._state_0
            newton.eval_fk(model, state.joint_q, state.joint_qd, state)
            NewtonManagerState._state_stamp += 1

    @classmethod
    def update_kinematics(cls) -> None:
        """Apply pending world resets, then forward kinematics of the articulations queued since the last call.

        Only the affected worlds are touched; nothing is read back to the host. :meth:`step` calls this first, and
        asset data calls it before reading body state.
        """
        if NewtonManagerState._model is None:
            return
        cls.apply_world_resets()
        if NewtonManagerState._pending_fk is not None and NewtonManagerState._pending_fk.apply(
            NewtonManagerState._state_0
        ):
            NewtonManagerState._state_stamp += 1

    @classmethod
    def apply_world_resets(cls) -> None:
        """Apply pending world resets now (solver internals, joint state to defaults), leaving their FK queued.

        For writes that go on top of a reset (an env's reset events): the FK of the reset worlds runs once, with
        that of the writes, at the next :meth:`update_kinematics` (before the next step or body read).

        The solver's part is :meth:`_reset_solver_internals`; the manager's part follows it: the reset worlds'
        articulations are queued for FK, their non-finite flags and observable rows are cleared, and the marks of
        :meth:`request_world_reset` are cleared. Nothing is read back to the host.
        """
        if not NewtonManagerState._reset_pending or NewtonManagerState._slots is None:
            return
        NewtonManagerState._reset_pending = False
        mask = NewtonManagerState._reset_world_mask
        cls._reset_solver_internals(NewtonManagerState._state_0, mask)
        NewtonManagerState._pending_fk.mark_worlds(mask)
        NewtonManagerState._world_health.clear(mask)
        schedule = NewtonManagerState._observable_schedule
        if schedule is not None:
            clear_world_rows(schedule.container, NewtonManagerState._model, mask)
        mask.zero_()
        NewtonManagerState._state_stamp += 1

    @classmethod
    def note_state_write(
        cls, articulations: wp.array | None = None, *, select: wp.array | None = None, fk_queued: bool = False
    ) -> None:
        """Record a write to the simulation state: cached reads become stale, FK is queued for ``articulations``.

        Args:
            articulations: Int32 model articulation indices whose joint coordinates were written (their body
                state is re-derived by masked FK before the next step or body read); ``None`` for writes that need
                no FK (e.g. body velocities of a fixed base, model properties).
            select: Optional boolean mask over ``articulations``: only selected entries are queued.
            fk_queued: The write's own kernel set entries of :meth:`queued_fk_mask` (FK runs for them).
        """
        NewtonManagerState._state_stamp += 1
        pending = NewtonManagerState._pending_fk
        if pending is not None and articulations is not None:
            pending.mark(articulations, select)
        if pending is not None and fk_queued:
            pending.note_marked()

    @classmethod
    def queued_fk_mask(cls) -> wp.array | None:
        """Bool mask over model articulations whose FK is queued, for write kernels that set their entries themselves
        (then ``note_state_write(fk_queued=True)``); ``None`` before the model exists."""
        return None if NewtonManagerState._pending_fk is None else NewtonManagerState._pending_fk.mask

    @classmethod
    def get_state_stamp(cls) -> int:
        """Counter that changes whenever the simulation state may have changed (steps, writes, resets, FK).

        Data buffers cache derived quantities against it: equal stamps mean the cached value is current.
        """
        return NewtonManagerState._state_stamp

    @classmethod
    def pre_render(cls) -> None:
        """Refresh kinematics before renderers and visualizers read the state."""
        cls.forward()

    @classmethod
    def request_world_reset(
        cls, world_ids: Iterable[int] | wp.array | None = None, *, select: wp.array | None = None
    ) -> None:
        """Mark worlds whose solver internals (and joint state) are reset before the next step or read.

        The reset worlds' articulations get masked FK afterwards (:meth:`update_kinematics`); other worlds are not
        touched.

        Args:
            world_ids: World indices (int32 ``wp.array`` on the model device for sync-free use; ``-1`` is the shared
                world), or ``None`` for every world.
            select: Optional boolean mask over ``world_ids``: only selected entries are reset.
        """
        mask = NewtonManagerState._reset_world_mask
        if mask is None:
            raise RuntimeError("request_world_reset() needs a finalized model: call sim.reset() first.")
        if world_ids is None:
            mask.fill_(True)
        else:
            ids = (
                world_ids
                if isinstance(world_ids, wp.array)
                else wp.array(list(world_ids), dtype=wp.int32, device=mask.device)
            )
            _mark(mask, ids, select)
        NewtonManagerState._reset_pending = True

    @classmethod
    def _reset_solver_internals(cls, state: newton.State, world_mask: wp.array) -> None:
        """Reset the solver-owned data of the worlds in ``world_mask`` (the solver-specific part of a world reset).

        The base calls ``solver.reset(state, world_mask=world_mask)``, which puts those worlds back at the model's
        initial state; assets rely on that and write their randomized reset state afterwards. An override keeps
        that meaning (e.g. resets a second solver too, then calls ``super()``); :meth:`apply_world_resets` does the
        manager's bookkeeping around it.

        Args:
            state: The current state (:meth:`get_state_0`), reset in place.
            world_mask: Bool mask of shape ``(world_count + 1,)`` on the model device; the last entry is the shared
                world ``-1``.
        """
        NewtonManagerState._slots.solver.reset(state, world_mask=world_mask)

    @classmethod
    def get_nonfinite_worlds(cls) -> wp.array:
        """Return the per-world non-finite flags of the last physics step (device ``bool``, shape ``(world_count,)``).

        Entry ``w`` is ``True`` when world ``w``'s body poses/twists or joint coordinates/velocities were not finite
        after the last physics step, ``False`` otherwise (and right after the world is reset). Environment ``i`` is
        world ``i``. Computed on the device by one
        kernel after the substeps (inside the captured graph), so reading it as a tensor does not synchronize.

        Raises:
            RuntimeError: Before the model is finalized.
        """
        if NewtonManagerState._world_health is None:
            raise RuntimeError("get_nonfinite_worlds() needs a finalized model: call sim.reset() first.")
        return NewtonManagerState._world_health.flags
