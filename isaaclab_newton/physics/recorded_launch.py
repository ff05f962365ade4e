"""Warp launches recorded once per argument set and replayed, so repeated launches skip argument packing.

``wp.launch`` converts every argument to its C form on every call; for the small kernels an environment step
launches with the same arrays each time, that packing is most of the host cost. :class:`RecordedLaunches`
records a :class:`warp.Launch` the first time a kernel is launched with a given set of arrays and replays it
afterwards; arguments that change on every call (``fresh``) are re-packed alone.
"""

from __future__ import annotations

from collections.abc import Sequence

import warp as wp

_SCALARS = (bool, int, float)


class RecordedLaunches:
    """A small cache of recorded launches of one device, keyed by kernel, launch shape and argument identity.

    The key holds Python scalars by value and every other argument by identity; an entry keeps its arguments
    alive, so an ``id`` cannot be reused while its entry is cached (an array that is a new object records a new
    launch). At most ``capacity`` launches are kept; the oldest is dropped first. While the device is capturing a
    graph (or the launch is empty), launches go through ``wp.launch`` (nothing is recorded).

    Args:
        device: The Warp device the kernels run on.
        capacity: Number of recorded launches kept.
    """

    def __init__(self, device: str, *, capacity: int = 16):
        self._device = wp.get_device(device)
        self._capacity = capacity
        self._launches: dict[tuple, tuple[wp.Launch, tuple]] = {}

    def launch(self, kernel: wp.Kernel, dim: tuple[int, ...], args: Sequence, *, fresh: Sequence[int] = ()) -> None:
        """Launch ``kernel`` over ``dim`` with ``args`` (inputs then outputs, in the kernel's order).

        Args:
            kernel: The Warp kernel.
            dim: The launch dimensions.
            args: All kernel arguments, inputs followed by outputs.
            fresh: Indices of arguments that change between calls (e.g. a new torch tensor each step): they are
                left out of the cache key and set on the recorded launch at every call.
        """
        if self._device.is_capturing or 0 in dim:
            wp.launch(kernel, dim=dim, inputs=list(args), device=self._device)
            return
        ids = [a if type(a) in _SCALARS else id(a) for a in args]
        for index in fresh:
            ids[index] = None
        key = (kernel, tuple(dim), *ids)
        entry = self._launches.get(key)
        if entry is None:
            command = wp.launch(kernel, dim=dim, inputs=list(args), device=self._device, record_cmd=True)
            if len(self._launches) >= self._capacity:
                self._launches.pop(next(iter(self._launches)))
            self._launches[key] = (command, tuple(args))
        else:
            command = entry[0]
            for index in fresh:
                command.set_param_at_index(index, args[index])
        command.launch()

    def clear(self) -> None:
        """Drop every recorded launch (e.g. after the arrays they hold were replaced)."""
        self._launches.clear()
