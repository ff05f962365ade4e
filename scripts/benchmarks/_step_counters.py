"""The counters of ``profile_env_step.py``: torch operators, Warp launches and graph replays, task kernels.

Imported by the script once its arguments are parsed (torch and Warp load here).
"""

from __future__ import annotations

import traceback
from collections import Counter
from collections.abc import Callable

import torch
import warp as wp
from torch.utils._python_dispatch import TorchDispatchMode


class OpCounter(TorchDispatchMode):
    """Counts the ATen operators dispatched while active."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.count += 1
        return func(*args, **(kwargs or {}))


class LaunchCounter:
    """Counts ``wp.launch`` calls and :meth:`warp.Launch.launch` replays (``count``) and graph replays (``graphs``)."""

    def __init__(self) -> None:
        self.count = 0
        self.graphs = 0
        self._saved: list[tuple[object, str, Callable]] = []

    def __enter__(self) -> LaunchCounter:
        import warp._src.context as context

        def counted(fn: Callable, counter: str) -> Callable:
            def wrapper(*args, **kwargs):
                setattr(self, counter, getattr(self, counter) + 1)
                return fn(*args, **kwargs)

            return wrapper

        for owner, name, counter in (
            (wp, "launch", "count"),
            (context, "launch", "count"),
            (context.Launch, "launch", "count"),
            (wp, "capture_launch", "graphs"),
            (context, "capture_launch", "graphs"),
        ):
            original = getattr(owner, name)
            self._saved.append((owner, name, original))
            setattr(owner, name, counted(original, counter))
        return self

    def __exit__(self, *exc) -> None:
        for owner, name, original in reversed(self._saved):
            setattr(owner, name, original)
        self._saved.clear()


_NO_KERNEL_OPS = frozenset(
    [
        "view",
        "select",
        "slice",
        "as_strided",
        "expand",
        "unsqueeze",
        "squeeze",
        "t",
        "transpose",
        "_reshape_alias",
        "alias",
        "unbind",
        "detach",
        "empty",
        "empty_like",
        "empty_strided",
        "lift_fresh",
        "lift_fresh_copy",
        "_to_copy",
        "permute",
        "_local_scalar_dense",
        "split",
        "narrow",
        "view_as",
        "_unsafe_view",
        "unsafe_view",
        "split_with_sizes",
        "is_nonzero",
        "set_",
        "resize_",
    ]
)
"""ATen operators that launch no device kernel (views, allocations, host scalars)."""


def _copy_onto_itself(name: str, args: tuple) -> bool:
    """Whether the op is a ``copy_`` of a tensor onto the same memory (torch returns before launching a kernel)."""

    if name != "copy_" or len(args) < 2:
        return False
    dst, src = args[0], args[1]
    return (
        isinstance(src, torch.Tensor)
        and dst.data_ptr() == src.data_ptr()
        and dst.shape == src.shape
        and dst.stride() == src.stride()
        and dst.dtype == src.dtype
    )


class TaskKernelCounter(TorchDispatchMode):
    """Counts kernel launches outside ``NewtonManager.step()`` by call site: Warp launches and kernel ATen ops."""

    def __init__(self, depth: int) -> None:
        super().__init__()
        self.sites: Counter[tuple[str, str]] = Counter()
        self.physics = 0
        self._depth = depth
        self._in_physics = 0
        self._saved: list[tuple[object, str, Callable]] = []

    def _site(self) -> str:
        frames = [f for f in traceback.extract_stack()[:-3] if "isaaclab" in f.filename]
        return " <- ".join(f"{f.filename.rsplit('/', 1)[-1]}:{f.name}" for f in frames[::-1][: self._depth])

    def _count_launch(self, kernel_key: str) -> None:
        if self._in_physics:
            self.physics += 1
        else:
            self.sites[(f"wp {kernel_key}", self._site())] += 1

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        name = func.__name__.split(".")[0]
        if not self._in_physics and name not in _NO_KERNEL_OPS and not _copy_onto_itself(name, args):
            self.sites[(f"torch {name}", self._site())] += 1
        return func(*args, **(kwargs or {}))

    def __enter__(self) -> TaskKernelCounter:
        import warp._src.context as context

        from isaaclab_newton.physics import NewtonManager

        def launch(original: Callable) -> Callable:
            def wrapper(kernel, *args, **kwargs):
                self._count_launch(kernel.key)
                return original(kernel, *args, **kwargs)

            return wrapper

        def replay(original: Callable) -> Callable:
            def wrapper(command, *args, **kwargs):
                self._count_launch(command.kernel.key)
                return original(command, *args, **kwargs)

            return wrapper

        step = NewtonManager.step.__func__

        def physics_step(cls, *args, **kwargs):
            self._in_physics += 1
            try:
                return step(cls, *args, **kwargs)
            finally:
                self._in_physics -= 1

        for owner, name, wrapped in (
            (wp, "launch", launch(wp.launch)),
            (context, "launch", launch(context.launch)),
            (context.Launch, "launch", replay(context.Launch.launch)),
            (NewtonManager, "step", classmethod(physics_step)),
        ):
            self._saved.append((owner, name, owner.__dict__[name]))
            setattr(owner, name, wrapped)
        return super().__enter__()

    def __exit__(self, *exc) -> None:
        super().__exit__(*exc)
        for owner, name, original in reversed(self._saved):
            setattr(owner, name, original)
        self._saved.clear()
