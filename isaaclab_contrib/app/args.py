"""Script arguments checked before torch, Warp or Newton are imported, so a bad one is refused in well under 2 s.

Only the standard library (and gymnasium's registry, through :mod:`isaaclab_contrib.tasks`) is imported here.
The device is probed through the NVIDIA driver library itself (``libcuda.so.1``), the same library torch and Warp
load, so ``--device cuda:0`` on a machine without a driver is refused by name before either is imported.
"""

from __future__ import annotations

import argparse
import ctypes
import functools
import importlib.util
import re
from pathlib import Path

_DEVICE = re.compile(r"cpu|cuda(?::(\d+))?")
_UPSTREAM_ID = re.compile(r"""id\s*=\s*["']([^"']+)["']""")


def positive_int(text: str) -> int:
    """An integer of at least 1 (argparse type; argparse names the flag in its error)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer of at least 1, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def non_negative_int(text: str) -> int:
    """An integer of at least 0 (argparse type)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer of at least 0, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {value}")
    return value


@functools.cache
def cuda_device_count() -> int | None:
    """CUDA devices the NVIDIA driver reports, or ``None`` when no driver library loads or it fails to start."""
    try:
        driver = ctypes.CDLL("libcuda.so.1")
    except OSError:
        return None
    if driver.cuInit(0) != 0:
        return None
    count = ctypes.c_int(0)
    if driver.cuDeviceGetCount(ctypes.byref(count)) != 0:
        return None
    return count.value


def default_device() -> str:
    """``cuda:0`` when the driver reports a CUDA device, else ``cpu``."""
    return "cuda:0" if cuda_device_count() else "cpu"


def device_arg(text: str) -> str:
    """``cpu``, ``cuda`` or ``cuda:<index>`` of a device this machine has (argparse type).

    Raises:
        argparse.ArgumentTypeError: For any other name, a CUDA device without an NVIDIA driver, or an index past
            the devices the driver reports; the message names the devices there are.
    """
    match = _DEVICE.fullmatch(text)
    if match is None:
        raise argparse.ArgumentTypeError(f"unknown device {text!r}; use cpu, cuda or cuda:<index>")
    if text == "cpu":
        return text
    count = cuda_device_count()
    if count is None:
        raise argparse.ArgumentTypeError(
            f"{text} needs an NVIDIA driver and this machine has none (libcuda.so.1 does not load); use --device cpu"
        )
    index = int(match.group(1) or 0)
    if index >= count:
        have = ", ".join(f"cuda:{i}" for i in range(count)) or "none"
        raise argparse.ArgumentTypeError(f"{text} does not exist; this machine's CUDA devices: {have} (or cpu)")
    return text


def upstream_task_ids() -> tuple[str, ...]:
    """Task ids ``isaaclab_tasks`` registers, read from its ``gym.register(id=...)`` sources without importing it.

    Importing ``isaaclab_tasks`` takes seconds; this only answers "is that a name upstream registers?".
    """
    spec = importlib.util.find_spec("isaaclab_tasks")
    if spec is None or not spec.submodule_search_locations:
        return ()
    root = Path(next(iter(spec.submodule_search_locations)))
    ids = set()
    for init in root.rglob("__init__.py"):
        text = init.read_text(encoding="utf-8")
        if "gym.register" in text:
            ids.update(_UPSTREAM_ID.findall(text))
    return tuple(sorted(ids))


def our_task_ids() -> tuple[str, ...]:
    """Task ids :mod:`isaaclab_contrib.tasks` registers (importing it loads no env code)."""
    import gymnasium as gym

    import isaaclab_contrib.tasks  # noqa: F401  (registers the tasks)

    return tuple(sorted(name for name, spec in gym.registry.items() if _is_ours(spec)))


def _is_ours(spec) -> bool:
    return str(spec.entry_point).startswith("isaaclab_contrib.tasks")


def check_task(task: str, *, upstream: bool = False, agent: str | None = None) -> None:
    """Refuse a ``--task`` that is not registered (or registers no ``<agent>_cfg_entry_point``).

    Args:
        task: The ``--task`` value.
        upstream: Whether the script also runs ``isaaclab_tasks``' ids (the environment scripts do).
        agent: RL library whose agent cfg the task must register (``"rsl_rl"`` for train/play), or ``None``.

    Raises:
        SystemExit: Naming the registered tasks, or the tasks that register an agent for ``agent``.
    """
    import gymnasium as gym

    if upstream and task in upstream_task_ids():
        return  # answered before our registry is imported: gymnasium refuses both registries in one process
    ours = our_task_ids()
    if task in ours:
        if agent is not None and f"{agent}_cfg_entry_point" not in gym.registry[task].kwargs:
            trainable = [name for name in ours if f"{agent}_cfg_entry_point" in gym.registry[name].kwargs]
            raise SystemExit(
                f"Task {task!r} registers no {agent} agent cfg ({agent}_cfg_entry_point), so it cannot be trained or"
                f" played here; tasks that have one: {trainable}."
            )
        return
    hint = f" (did you mean {task}-v0?)" if f"{task}-v0" in ours else ""
    also = " This script also runs isaaclab_tasks' ids (e.g. Isaac-Cartpole-Direct)." if upstream else ""
    raise SystemExit(
        f"Unknown task {task!r}{hint}; tasks (scripts/environments/list_envs.py lists them): {list(ours)}.{also}"
    )
