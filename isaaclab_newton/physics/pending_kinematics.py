"""Device-side bookkeeping of which articulations need forward kinematics and which worlds need a solver reset.

Writes and resets mark entries in boolean masks with kernels (no host reads); the manager applies them once,
masked, before the next step or read, so only the affected worlds are touched.
"""

from __future__ import annotations

import newton
import warp as wp


@wp.kernel
def _mark_kernel(
    targets: wp.array(dtype=wp.int32),
    select: wp.array(dtype=wp.bool),
    use_select: int,
    mask: wp.array(dtype=wp.bool),
):
    i = wp.tid()
    if use_select != 0:  # noqa: SIM102 - Warp does not short-circuit; select may be a placeholder
        if not select[i]:
            return
    t = targets[i]
    if t < 0:  # the shared world -1 is the last entry of a world mask
        t = mask.shape[0] - 1
    mask[t] = True


@wp.kernel
def _mark_articulations_of_worlds_kernel(
    articulation_world: wp.array(dtype=wp.int32),
    world_mask: wp.array(dtype=wp.bool),
    articulation_mask: wp.array(dtype=wp.bool),
):
    a = wp.tid()
    w = articulation_world[a]
    if w < 0:
        w = world_mask.shape[0] - 1
    if world_mask[w]:
        articulation_mask[a] = True


def mark(mask: wp.array, targets: wp.array, select: wp.array | None = None) -> None:
    """Set ``mask[targets[i]]`` for every ``i`` (only where ``select[i]`` when given); ``-1`` marks the last entry.

    Args:
        mask: Boolean mask to mark (articulations, or worlds with the shared world last).
        targets: Int32 entries to mark, shape (n,).
        select: Optional boolean selection over ``targets``, shape (n,).
    """
    if targets.shape[0] == 0:
        return
    if select is not None and select.shape[0] != targets.shape[0]:
        raise ValueError(f"select has {select.shape[0]} entries but targets has {targets.shape[0]}.")
    wp.launch(
        _mark_kernel,
        dim=targets.shape[0],
        inputs=[targets, select if select is not None else mask, int(select is not None), mask],
        device=mask.device,
    )


class PendingKinematics:
    """Articulations whose body state must be re-derived from joint coordinates (masked FK).

    Args:
        model: The finalized model.
    """

    def __init__(self, model: newton.Model):
        self._model = model
        self.mask = wp.zeros(max(model.articulation_count, 1), dtype=wp.bool, device=model.device)
        self.pending = False

    def mark(self, articulations: wp.array, select: wp.array | None = None) -> None:
        """Queue FK for model articulations ``articulations`` (only where ``select`` when given)."""
        mark(self.mask, articulations, select)
        self.pending = True

    def note_marked(self) -> None:
        """Entries of :attr:`mask` were set by a caller's kernel: run FK at the next :meth:`apply`."""
        self.pending = True

    def mark_worlds(self, world_mask: wp.array) -> None:
        """Queue FK for every articulation of the worlds set in ``world_mask`` (shape world_count + 1)."""
        if self._model.articulation_count == 0:
            return
        wp.launch(
            _mark_articulations_of_worlds_kernel,
            dim=self._model.articulation_count,
            inputs=[self._model.articulation_world, world_mask, self.mask],
            device=self._model.device,
        )
        self.pending = True

    def apply(self, state: newton.State) -> bool:
        """Run FK for the queued articulations on ``state`` and clear the queue.

        Returns:
            Whether anything was queued.
        """
        if not self.pending:
            return False
        self.pending = False
        model = self._model
        if model.articulation_count:
            newton.eval_fk(model, state.joint_q, state.joint_qd, state, mask=self.mask)
        self.mask.zero_()
        return True
